import { can, contentTypeOfRole } from '@enishi/contract';
import { memberBannersQueryOptions } from '@/features/home/api/get-banners';
import { preloadFirstBanner } from '@/features/home/components/banner-area';
import { queryClient } from '@/lib/query-client';
import { getSession } from '@/lib/session';

/**
 * The home route's loader: a member's banners are asked for as soon as the route is known, beside the session
 * check, instead of once the screen has been drawn (the first banner is often the largest thing a member's
 * home shows), and the first banner's image as soon as they are here, not once the home has been drawn.
 * Staff have none. Waits for nothing; a fresh copy in the cache is not asked for again.
 */
export function prefetchHome(): null {
  const session = getSession();
  if (!session || can(session, 'desk.use')) return null;
  const banners = memberBannersQueryOptions(contentTypeOfRole(session.role) ?? 1);
  void queryClient
    .prefetchQuery(banners)
    .then(() => preloadFirstBanner(queryClient.getQueryData(banners.queryKey)?.rows[0]));
  return null;
}
