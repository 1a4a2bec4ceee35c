import { can, ROLE_TRAITS } from '@enishi/contract';
import { memberBannersQueryOptions } from '@/features/home/api/get-banners';
import { preloadFirstBanner } from '@/features/home/components/banner-area';
import { takeLastScreen } from '@/lib/last-screen';
import { queryClient } from '@/lib/query-client';
import { getSession } from '@/lib/session';

/** How long a home drawn over its kept screen waits for the banners (ms): the kept screen shows meanwhile. */
const BANNERS_WAIT_MS = 1000;

/**
 * The home route's loader: a member's banners are asked for as soon as the route is known, beside the session
 * check, instead of once the screen has been drawn (the first banner is often the largest thing a member's
 * home shows), and the first banner's image as soon as they are here, not once the home has been drawn.
 * Staff have none: their home menu's chunk is asked for instead. Waits for nothing (a fresh copy in the cache
 * is not asked for again), unless the app opened over the member's kept home (product.md §15.6): the first
 * drawing then waits up to BANNERS_WAIT_MS for the banners, so that they do not leave and come back.
 */
export function prefetchHome(): null | Promise<null> {
  const session = getSession();
  if (!session) return null;
  if (can(session, 'desk.use')) {
    // The staff's menu is a chunk of its own (home-menu.tsx): it starts loading with the route too.
    void import('@/features/home/components/staff-menu').catch(() => undefined);
    return null;
  }
  const banners = memberBannersQueryOptions(ROLE_TRAITS[session.role]?.contentType ?? 1);
  const fetched = queryClient
    .prefetchQuery(banners)
    .then(() => preloadFirstBanner(queryClient.getQueryData(banners.queryKey)?.rows[0]));
  if (!takeLastScreen()) return null;
  return Promise.race([fetched, new Promise((resolve) => setTimeout(resolve, BANNERS_WAIT_MS))]).then(
    () => null,
  );
}
