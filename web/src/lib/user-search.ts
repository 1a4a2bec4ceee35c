import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/*
 * POST /api/searchuser {keyword, rank, role} -> {rows, count}: staff find men (101), women (201) or, for the
 * owner, staff (any of 1 to 6). Shared by the member lists, group registration and bulk-send recipients.
 */
export function searchUsers(query: { role: number; keyword: string; rank?: number }) {
  return api('searchuser', { role: query.role, keyword: query.keyword, rank: query.rank ?? 0 });
}

/** Every search of user records; invalidate it after adding, editing or deleting someone. */
export const userSearchKey = ['user-search'] as const;

export const userSearchQueryOptions = (query: { role: number; keyword: string; rank?: number }) =>
  queryOptions({
    queryKey: [...userSearchKey, query.role, query.keyword, query.rank ?? 0],
    queryFn: () => searchUsers(query),
    staleTime: 10_000,
  });

export function useUserSearch(query: { role: number; keyword: string; rank?: number }) {
  return useQuery(userSearchQueryOptions(query));
}
