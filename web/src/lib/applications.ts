import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Every applications query starts with this key (the home tile's count too: features/home/api). */
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

/** POST /api/applications/handle {id, member_uid?}. */
export function useHandleApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: number; member_uid?: number }) => api('applications/handle', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
