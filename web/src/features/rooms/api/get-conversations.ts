import type { ConversationType, DeskListFilters } from '@enishi/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The desk's filters of the men's and women's lists (staff, product.md §2.6). */
export type RoomFilters = DeskListFilters;

/** POST /api/conversations {type, search, page} -> {rows, isEnd}: one page of a room list, newest activity first. */
export function getConversations(
  type: ConversationType,
  search: string,
  page: number,
  filters: RoomFilters = {},
) {
  return api('conversations', { type, search, page, ...filters });
}

export const conversationsQueryKey = (type: ConversationType) => ['conversations', type] as const;

export const conversationsQueryOptions = (
  type: ConversationType,
  search: string,
  filters: RoomFilters = {},
) =>
  infiniteQueryOptions({
    queryKey: [...conversationsQueryKey(type), search, filters],
    queryFn: ({ pageParam }) => getConversations(type, search, pageParam, filters),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
    staleTime: 10_000,
  });

export function useConversations(type: ConversationType, search: string, filters: RoomFilters = {}) {
  return useInfiniteQuery(conversationsQueryOptions(type, search, filters));
}
