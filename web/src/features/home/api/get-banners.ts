import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/banner/get -> {rows}: a member gets their own group's banners whatever `type` says. */
export function getMemberBanners(type: 1 | 2) {
  return api('banner/get', { type });
}

export const memberBannersQueryOptions = (type: 1 | 2) =>
  queryOptions({
    queryKey: ['banners', type],
    queryFn: () => getMemberBanners(type),
    // The image URLs are signed for about an hour.
    staleTime: 5 * 60_000,
  });

export function useMemberBanners(type: 1 | 2) {
  return useQuery(memberBannersQueryOptions(type));
}
