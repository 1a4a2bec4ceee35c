import type { StampSetAddBody } from '@enishi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Every stamp set, stopped ones too (stamp.manage). The talk's picker reads ['stamps'], dropped on a change. */
const setsKey = ['stamps', 'sets'] as const;

export function useStampSets() {
  return useQuery({ queryKey: setsKey, queryFn: () => api('stamps/sets', {}) });
}

export function useAddStampSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<StampSetAddBody, 'ssid'>) => api('stamps/add_set', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['stamps'] }),
  });
}

export function useUpdateStampSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: number; enabled: boolean }) => api('stamps/update_set', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['stamps'] }),
  });
}
