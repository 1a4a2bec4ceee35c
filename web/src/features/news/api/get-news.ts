import type { ContentType } from '@enishi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type NewsQuery = { type?: ContentType; id?: number };

/**
 * POST /api/news/get {type?, id?} -> {rows}, newest first. Members get their group's news whatever they ask;
 * a member's list also marks it seen on the server (the news badge goes to 0).
 */
export function getNews(query: NewsQuery) {
  return api('news/get', query);
}

export const newsQueryKey = ['news'] as const;

export const newsQueryOptions = (query: NewsQuery) =>
  queryOptions({
    queryKey: [...newsQueryKey, query.type ?? 'all', query.id ?? 'list'],
    queryFn: () => getNews(query),
    // Image URLs are signed for about an hour; a fresh list brings fresh ones.
    staleTime: 60_000,
  });

export function useNews(query: NewsQuery) {
  return useQuery(newsQueryOptions(query));
}
