import type { CallBody } from '@enishi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The saved replies (定型文); the talk's composer reads the same list under the same key. */
export const CANNED_QUERY_KEY = ['canned-replies'] as const;

export function useCannedReplies() {
  return useQuery({ queryKey: CANNED_QUERY_KEY, queryFn: () => api('replies/list', {}), staleTime: 60_000 });
}

export function useSaveCanned() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<'replies/save'>) => api('replies/save', body),
    onSuccess: (reply) => queryClient.setQueryData(CANNED_QUERY_KEY, reply),
  });
}

export function useDeleteCanned() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('replies/delete', { id }),
    onSuccess: (reply) => queryClient.setQueryData(CANNED_QUERY_KEY, reply),
  });
}
