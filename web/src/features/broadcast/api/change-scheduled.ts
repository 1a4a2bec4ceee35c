import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { broadcastsQueryKey } from './get-broadcasts';
import { scheduledQueryKey } from './get-scheduled';

/** POST /api/broadcasts/scheduled/update {id, send_at, message} -> {status: 'OK'}. */
export function updateScheduled(change: { id: number; send_at: string; message: string }) {
  return api('broadcasts/scheduled/update', change);
}

/** POST /api/broadcasts/scheduled/cancel {id} -> {status: 'OK'}. */
export function cancelScheduled(id: number) {
  return api('broadcasts/scheduled/cancel', { id });
}

/** Either change ends with the lists read again: a 409 means it went meanwhile, and the history shows it. */
function useScheduledChange<T>(change: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: scheduledQueryKey }),
        queryClient.invalidateQueries({ queryKey: broadcastsQueryKey }),
      ]),
  });
}

export const useUpdateScheduled = () => useScheduledChange(updateScheduled);
export const useCancelScheduled = () => useScheduledChange(cancelScheduled);
