import type { apiCalls } from '../http/calls.js';
import type { ConversationService } from '../services/conversation-service.js';

/**
 * POST /api/add_conversation {params: {men, women, type: 'st'}} -> {conversation_id}: staff register a group
 * talk of one man and one woman (product.md §4 group registration). The registering staff member is the session's
 * user; members get 403.
 */
export function groupRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { conversations: ConversationService },
): void {
  calls.session('add_conversation', 'talk.group.create', async ({ body, actor }) => {
    const talk = await services.conversations.createGroupTalk(actor, {
      manId: body.params.men,
      womanId: body.params.women,
    });
    return { conversation_id: talk.id };
  });
}
