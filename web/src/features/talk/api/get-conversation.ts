import type { ConversationRow } from '@enishi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api-client';

/** POST /api/get_conversation {conversation_id} -> {rows: [row]}; 404 when it does not exist for the caller. */
export async function getConversation(conversationId: number): Promise<ConversationRow> {
  const reply = await api('get_conversation', { conversation_id: conversationId });
  const row = reply.rows[0];
  if (!row) throw new ApiError('', 404);
  return row;
}

export const conversationQueryOptions = (conversationId: number) =>
  queryOptions({
    queryKey: ['conversation', conversationId],
    queryFn: () => getConversation(conversationId),
    staleTime: 60_000,
  });

export function useConversation(conversationId: number) {
  return useQuery(conversationQueryOptions(conversationId));
}
