import type { MemberTableBody } from '@enishi/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type MemberTableQuery = Required<Omit<MemberTableBody, 'ssid'>>;

/** POST /api/members/table: one page of a member table, sorted and filtered on the server (product.md §2.8). */
export function useMemberTable(query: MemberTableQuery) {
  return useQuery({
    queryKey: ['members/table', query],
    queryFn: () => api('members/table', query),
    // The old page stays while the next loads: the table never jumps to a spinner.
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
