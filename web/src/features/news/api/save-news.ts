import type { ContentType } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { newsQueryKey } from './get-news';

export type NewsDraft = {
  /** Set when editing. */
  id?: number;
  type: ContentType;
  title: string;
  body: string;
  /** The whole image list in order: URLs of images the item has, data URLs of new ones. */
  images: string[];
};

/** POST /api/news/add, or /api/news/update with `id` -> {status: 'OK', id}. */
export function saveNews(draft: NewsDraft) {
  const { id, ...fields } = draft;
  return id === undefined ? api('news/add', fields) : api('news/update', { id, ...fields });
}

export function useSaveNews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveNews,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: newsQueryKey }),
  });
}
