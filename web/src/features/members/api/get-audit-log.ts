import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/auditlog {page} -> {rows, isEnd}: changes to member and staff records, newest first (owner only). */
export function getAuditLog(page: number) {
  return api('auditlog', { page });
}

export function useAuditLog() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: ['audit-log'],
      queryFn: ({ pageParam }) => getAuditLog(pageParam),
      initialPageParam: 0,
      getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
      staleTime: 0,
    }),
  );
}
