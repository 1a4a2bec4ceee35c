import type { BusinessDay, ClosingDayAddBody } from '@enishi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The club's closing days not yet over (product.md §9.3); the member's talk reads the same key. */
const calendarKey = ['calendar'] as const;

export function useClosingDayList() {
  return useQuery({ queryKey: calendarKey, queryFn: () => api('calendar', {}) });
}

export function useAddClosingDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<ClosingDayAddBody, 'ssid'>) => api('calendar/add', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarKey }),
  });
}

export function useDeleteClosingDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('calendar/delete', { id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarKey }),
  });
}

export function useSaveHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hours: BusinessDay[]) => api('calendar/hours', { hours }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarKey }),
  });
}
