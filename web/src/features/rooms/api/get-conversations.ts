import type { ConversationType } from '@enishi/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/conversations {type, search, page} -> {rows, isEnd}: one page of a room list, newest activity first. */
export function getConversations(type: ConversationType, search: string, page: number) {
  return api('conversations', { type, search, page });
}

export const conversationsQueryKey = (type: ConversationType) => ['conversations', type] as const;

export const conversationsQueryOptions = (type: ConversationType, search: string) =>
  infiniteQueryOptions({
    queryKey: [...conversationsQueryKey(type), search],
    queryFn: ({ pageParam }) => getConversations(type, search, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
    staleTime: 10_000,
  });

export function useConversations(type: ConversationType, search: string) {
  return useInfiniteQuery(conversationsQueryOptions(type, search));
}
