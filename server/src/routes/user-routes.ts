import { GetUserBody, type GetUserReply } from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import { presentUser } from '../presenters/user-presenter.js';
import type { UserService } from '../services/user-service.js';

export function userRoutes(calls: ReturnType<typeof apiCalls>, services: { users: UserService }): void {
  calls.session('getuser', GetUserBody, async ({ body, actor }): Promise<GetUserReply> => {
    const user = await services.users.get(actor, body.uid);
    return { rows: [presentUser(user)] };
  });
}
