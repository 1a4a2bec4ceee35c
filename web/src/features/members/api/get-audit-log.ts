import type { AuditLogBody } from '@enishi/contract';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** What the owner narrows the log to (product.md §2.8). */
export type AuditFilter = Pick<AuditLogBody, 'person' | 'action' | 'from' | 'to'>;

/** POST /api/auditlog {page, person?, action?, from?, to?} -> {rows, isEnd}: newest first (owner only). */
export function getAuditLog(page: number, filter: AuditFilter = {}) {
  return api('auditlog', { page, ...filter });
}

export function useAuditLog(filter: AuditFilter = {}) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: ['audit-log', filter],
      queryFn: ({ pageParam }) => getAuditLog(pageParam, filter),
      initialPageParam: 0,
      getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
      staleTime: 0,
      // A new filter keeps the rows shown until its own come, not a spinner in their place (as the member tables).
      placeholderData: keepPreviousData,
    }),
  );
}

/** Most pages the CSV export reads (50 rows each): 10,000 rows. */
export const AUDIT_EXPORT_PAGES = 200;

/** Every row the filter matches, up to AUDIT_EXPORT_PAGES pages, for the CSV export. */
export async function allAuditRows(filter: AuditFilter) {
  const rows = [];
  for (let page = 0; page < AUDIT_EXPORT_PAGES; page++) {
    const reply = await getAuditLog(page, filter);
    rows.push(...reply.rows);
    if (reply.isEnd) return { rows, complete: true };
  }
  return { rows, complete: false };
}
