import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/messages/search {q, conversation_id?, before?}: hits newest first, `next` to go on. */
export const searchQueryOptions = (q: string, conversationId: number | null) =>
  infiniteQueryOptions({
    queryKey: ['message-search', q, conversationId] as const,
    queryFn: ({ pageParam }) =>
      api('messages/search', {
        q,
        ...(conversationId ? { conversation_id: conversationId } : {}),
        ...(pageParam ? { before: pageParam } : {}),
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 30_000,
    enabled: q.trim().length > 0,
  });

export function useMessageSearch(q: string, conversationId: number | null) {
  return useInfiniteQuery(searchQueryOptions(q, conversationId));
}
