import type { ConversationRow, DeskStatus, DeskTalkState } from '@enishi/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/*
 * A desk talk's status and 担当 (product.md §2.6): the side navigation's counts, who may be 担当, and the
 * changes, each of which every staff screen hears as a `desk` frame too.
 */

export const deskCountsQueryKey = ['desk-counts'] as const;
export const deskStaffQueryKey = ['desk-staff'] as const;

export function useDeskCounts(enabled = true) {
  return useQuery({
    queryKey: deskCountsQueryKey,
    queryFn: () => api('desk/counts', {}),
    enabled,
    staleTime: 30_000,
  });
}

export function useDeskStaff() {
  return useQuery({ queryKey: deskStaffQueryKey, queryFn: () => api('desk/staff', {}), staleTime: 60_000 });
}

/** A talk's new state, wherever it shows: its row, the lists and the counts read again. */
export function applyDeskState(queryClient: QueryClient, state: DeskTalkState): void {
  queryClient.setQueryData<ConversationRow>(['conversation', state.conversation_id], (row) =>
    row ? { ...row, desk_status: state.status, assignee: state.assignee } : row,
  );
  void queryClient.invalidateQueries({ queryKey: ['conversations'] });
  void queryClient.invalidateQueries({ queryKey: deskCountsQueryKey });
}

export function useSetDeskStatus(conversationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: DeskStatus) => api('desk/status', { conversation_id: conversationId, status }),
    onSuccess: (state) => applyDeskState(queryClient, state),
  });
}

export function useAssignDesk(conversationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assignee: number | null) =>
      api('desk/assign', { conversation_id: conversationId, assignee }),
    onSuccess: (state) => applyDeskState(queryClient, state),
  });
}

export function useSetRoundRobin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api('desk/round_robin', { enabled }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deskStaffQueryKey }),
  });
}
