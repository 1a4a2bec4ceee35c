import { OkReply } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { newsQueryKey } from './get-news';

/** POST /api/news/delete {id} -> {status: 'OK'}. */
export function deleteNews(id: number) {
  return apiCall('news/delete', { id }, { reply: OkReply });
}

export function useDeleteNews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNews,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: newsQueryKey }),
  });
}
