import type { ContentType } from '@enishi/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/broadcasts {type, page} -> {rows, isEnd}: the group's bulk sends with read counts. */
export function getBroadcasts(type: ContentType, page: number) {
  return api('broadcasts', { type, page });
}

export const broadcastsQueryKey = ['broadcasts'] as const;

export const broadcastsQueryOptions = (type: ContentType) =>
  infiniteQueryOptions({
    queryKey: [...broadcastsQueryKey, type],
    queryFn: ({ pageParam }) => getBroadcasts(type, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
    staleTime: 10_000,
  });

export function useBroadcasts(type: ContentType) {
  return useInfiniteQuery(broadcastsQueryOptions(type));
}
