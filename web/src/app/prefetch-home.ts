import { can, contentTypeOfRole } from '@enishi/contract';
import { memberBannersQueryOptions } from '@/features/home/api/get-banners';
import { queryClient } from '@/lib/query-client';
import { getSession } from '@/lib/session';

/**
 * The home route's loader: a member's banners are asked for as soon as the route is known, beside the session
 * check, instead of once the screen has been drawn (the first banner is often the largest thing a member's
 * home shows). Staff have none. Waits for nothing; a fresh copy in the cache is not asked for again.
 */
export function prefetchHome(): null {
  const session = getSession();
  if (session && !can(session, 'desk.use'))
    void queryClient.prefetchQuery(memberBannersQueryOptions(contentTypeOfRole(session.role) ?? 1));
  return null;
}
