import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { newsQueryKey } from './get-news';

/** POST /api/news/delete {id} -> {status: 'OK'}. */
export function deleteNews(id: number) {
  return api('news/delete', { id });
}

export function useDeleteNews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNews,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: newsQueryKey }),
  });
}
