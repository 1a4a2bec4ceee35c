import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * The staff home tile's badge: how many applications are not handled yet. Here rather than in
 * lib/applications.ts, so that a member's home does not download the staff's applications code; its key
 * starts with `applicationsKey` (['applications']), so handling an application refreshes it.
 */
export function useNewApplicationCount(enabled: boolean): number {
  const query = useQuery({
    queryKey: ['applications', 'count'],
    queryFn: () => api('applications', { page: 0 }),
    enabled,
    staleTime: 30_000,
  });
  return query.data?.newCount ?? 0;
}
