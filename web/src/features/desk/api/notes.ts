import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** A member's summary and the staff's notes on them (staff only). */
export const notesQueryKey = (uid: number) => ['member-notes', uid] as const;

export function useMemberNotes(uid: number | null) {
  return useQuery({
    queryKey: notesQueryKey(uid ?? 0),
    queryFn: () => api('notes/list', { uid: uid ?? 0 }),
    enabled: uid !== null && uid > 0,
    staleTime: 30_000,
  });
}

export function useAddNote(uid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => api('notes/add', { uid, body }),
    onSuccess: (reply) => queryClient.setQueryData(notesQueryKey(uid), reply),
  });
}

export function useDeleteNote(uid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('notes/delete', { id }),
    onSuccess: (reply) => queryClient.setQueryData(notesQueryKey(uid), reply),
  });
}
