import {
  ConversationsBody,
  GetConversationBody,
  MessagesBody,
  UpdateNotificationsBody,
  type ConversationsReply,
  type MessagesReply,
} from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import { presentConversation } from '../presenters/conversation-presenter.js';
import type { ConversationService } from '../services/conversation-service.js';
import type { MessageService } from '../services/message-service.js';

export function conversationRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { conversations: ConversationService; messages: MessageService },
): void {
  calls.session('conversations', ConversationsBody, async ({ body, actor }): Promise<ConversationsReply> => {
    const page = await services.conversations.list(actor, body);
    return { rows: page.rows.map((item) => presentConversation(actor, item)), isEnd: page.isEnd };
  });

  // `user_id` is accepted as the original client sends it; the session decides who is asking.
  calls.session('get_conversation', GetConversationBody, async ({ body, actor }) => {
    const item = await services.conversations.get(actor, body.conversation_id);
    return { rows: [presentConversation(actor, item)] };
  });

  calls.session('get_send_conversation', GetConversationBody, async ({ body, actor }) => {
    const item = await services.conversations.getBroadcast(actor, body.conversation_id);
    return { rows: [presentConversation(actor, item)] };
  });

  calls.session('messages', MessagesBody, async ({ body, actor }): Promise<MessagesReply> =>
    services.messages.page(actor, body.id, body.before),
  );

  // The counters come from read state; what the client sends is ignored (see contract talk.ts).
  calls.session('updateNotifications', UpdateNotificationsBody, async ({ actor }) => ({
    rows: [await services.conversations.notifications(actor)],
  }));
}
