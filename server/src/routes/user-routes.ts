import type { apiCalls } from '../http/calls.js';
import { presentUser } from '../presenters/user-presenter.js';
import type { ConversationService } from '../services/conversation-service.js';
import type { ProfileImageService } from '../services/profile-image-service.js';
import type { UserService } from '../services/user-service.js';

export function userRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { users: UserService; conversations: ConversationService; profileImages: ProfileImageService },
): void {
  calls.session('getuser', 'user.read', async ({ body, actor }) => {
    const user = await services.users.get(actor, body.uid);
    const unreads = await services.conversations.unreadsJson(user);
    return { rows: [presentUser(user, unreads, services.profileImages.url(user.image))] };
  });
}
