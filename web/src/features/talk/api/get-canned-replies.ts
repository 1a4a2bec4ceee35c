import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The saved replies (定型文) for staff's comment box; the desk's list screen keeps the same key current. */
export function useCannedReplyList(enabled: boolean) {
  return useQuery({
    queryKey: ['canned-replies'],
    queryFn: () => api('replies/list', {}),
    staleTime: 60_000,
    enabled,
  });
}
