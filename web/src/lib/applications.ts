import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const applicationsKey = ['applications'] as const;

/** POST /api/applications {page}: 20 a page, newest first, with how many are new. */
export function useApplications() {
  return useInfiniteQuery({
    queryKey: applicationsKey,
    queryFn: ({ pageParam }) => api('applications', { page: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
    staleTime: 0,
  });
}

/** The home tile's badge: how many applications are not handled yet. */
export function useNewApplicationCount(enabled: boolean): number {
  const query = useQuery({
    queryKey: [...applicationsKey, 'count'],
    queryFn: () => api('applications', { page: 0 }),
    enabled,
    staleTime: 30_000,
  });
  return query.data?.newCount ?? 0;
}

/** POST /api/applications/handle {id, member_uid?}. */
export function useHandleApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: number; member_uid?: number }) => api('applications/handle', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
