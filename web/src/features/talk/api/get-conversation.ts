import type { ConversationRow } from '@enishi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api-client';
import { keptWhenOffline } from '@/lib/chat/history';

/** POST /api/get_conversation {conversation_id} -> {rows: [row]}; 404 when it does not exist for the caller. */
export async function getConversation(conversationId: number): Promise<ConversationRow> {
  const reply = await api('get_conversation', { conversation_id: conversationId });
  const row = reply.rows[0];
  if (!row) throw new ApiError('', 404);
  return row;
}

/** The talk's row; offline, the one kept with the talk's newest messages (lib/chat/history.ts). */
async function conversationOrKept(conversationId: number): Promise<ConversationRow> {
  try {
    return await getConversation(conversationId);
  } catch (error) {
    const kept = await keptWhenOffline(error, conversationId);
    if (kept?.row) return kept.row;
    throw error;
  }
}

export const conversationQueryOptions = (conversationId: number) =>
  queryOptions({
    queryKey: ['conversation', conversationId],
    queryFn: () => conversationOrKept(conversationId),
    staleTime: 60_000,
  });

export function useConversation(conversationId: number) {
  return useQuery(conversationQueryOptions(conversationId));
}
