import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionsReply } from '@enishi/contract';
import { api } from '@/lib/api-client';

const sessionsKey = ['sessions'] as const;

/** POST /api/sessions {ssid} -> {rows}: one's own sessions, the most recently used first. */
export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: () => api('sessions', {}) });
}

/** Ends one session (`id`) or, with null, every session but this one; the reply is the list as it now is. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) =>
      id === null ? api('sessions/revoke_others', {}) : api('sessions/revoke', { id }),
    onSuccess: (reply: SessionsReply) => queryClient.setQueryData(sessionsKey, reply),
  });
}
