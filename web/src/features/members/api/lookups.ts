import type { ClubLookupUpdateBody, LookupItem, Lookups } from '@enishi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const lookupsKey = ['lookups'] as const;

/** POST /api/lookups -> every code table and the club's own lists (product.md §19.1). */
export function useLookups() {
  return useQuery({
    queryKey: lookupsKey,
    queryFn: async () => (await api('lookups', {})) as Lookups,
    staleTime: 10 * 60 * 1000,
  });
}

/** POST /api/lookups/update {list, items}: the owner replaces one club list. */
export function useSaveClubList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<ClubLookupUpdateBody, 'ssid'>) => api('lookups/update', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: lookupsKey }),
  });
}

export type { LookupItem };
