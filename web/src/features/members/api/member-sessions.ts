import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const memberSessionsKey = (uid: number) => ['member-sessions', uid] as const;

/** POST /api/user/sessions {ssid, user_id} -> {rows}: a member's sessions, for the staff who manage them. */
export function useMemberSessions(uid: number) {
  return useQuery({
    queryKey: memberSessionsKey(uid),
    queryFn: () => api('user/sessions', { user_id: uid }),
  });
}

/** POST /api/user/sessions/revoke {ssid, user_id} -> {count}: ends every session of theirs (a lost phone). */
export function useEndMemberSessions(uid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('user/sessions/revoke', { user_id: uid }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memberSessionsKey(uid) }),
  });
}
