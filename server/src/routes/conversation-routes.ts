import type { apiCalls } from '../http/calls.js';
import { presentConversation } from '../presenters/conversation-presenter.js';
import type { ConversationService } from '../services/conversation-service.js';
import type { MessageService } from '../services/message-service.js';
import type { NotificationCounts } from '../services/notification-counts.js';
import type { ProfileImageService } from '../services/profile-image-service.js';

export function conversationRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: {
    conversations: ConversationService;
    messages: MessageService;
    notifications: NotificationCounts;
    profileImages: ProfileImageService;
  },
): void {
  const profileUrl = (stored: string | null) => services.profileImages.url(stored);
  calls.session('conversations', 'talk.read', async ({ body, actor }) => {
    const page = await services.conversations.list(actor, body);
    return { rows: page.rows.map((item) => presentConversation(actor, item, profileUrl)), isEnd: page.isEnd };
  });

  // `user_id` is accepted as the original client sends it; the session decides who is asking.
  calls.session('get_conversation', 'talk.read', async ({ body, actor }) => {
    const item = await services.conversations.get(actor, body.conversation_id);
    return { rows: [presentConversation(actor, item, profileUrl)] };
  });

  calls.session('get_send_conversation', 'broadcast.read', async ({ body, actor }) => {
    const item = await services.conversations.getBroadcast(actor, body.conversation_id);
    return { rows: [presentConversation(actor, item, profileUrl)] };
  });

  calls.session('messages', 'talk.read', async ({ body, actor }) =>
    services.messages.page(actor, body.id, body.before),
  );

  // The counters come from read state; what the client sends is ignored (see contract talk.ts).
  calls.session('updateNotifications', 'account.use', async ({ actor }) => ({
    rows: [await services.notifications.of(actor)],
  }));
}
