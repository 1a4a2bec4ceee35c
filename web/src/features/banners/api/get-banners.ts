import type { ContentType } from '@enishi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/banner/get {type} -> {rows}: the group's banners, in the order they were added. */
export function getBanners(type: ContentType) {
  return api('banner/get', { type });
}

export const bannersQueryKey = ['banners'] as const;

export const bannersQueryOptions = (type: ContentType) =>
  queryOptions({ queryKey: [...bannersQueryKey, type], queryFn: () => getBanners(type), staleTime: 60_000 });

export function useBanners(type: ContentType) {
  return useQuery(bannersQueryOptions(type));
}
