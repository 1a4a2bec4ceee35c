import { type AddUserBody, type UpdateUserBody } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userSearchKey } from '@/lib/user-search';

type NewMember = Omit<AddUserBody, 'ssid'>;
type MemberChanges = Omit<UpdateUserBody, 'ssid'>;

/** POST /api/adduser {id, name, name_kana?, pass, rank, role, introducer} -> {rows: [the new user]}. */
export function addMember(body: NewMember) {
  return api('adduser', body);
}

/** POST /api/updateuser {uid, id, name, name_kana?, pass?, rank, role, introducer} -> {rows: [the user]}. */
export function updateMember(body: MemberChanges) {
  return api('updateuser', body);
}

/**
 * Adds or edits a user; searches and the edited record are read again afterwards. The record is marked stale,
 * not dropped: a form still showing it (the back office's side panel) keeps its fields and focus meanwhile.
 */
export function useSaveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewMember | MemberChanges) => ('uid' in body ? updateMember(body) : addMember(body)),
    onSuccess: async (reply) => {
      await queryClient.invalidateQueries({ queryKey: userSearchKey });
      const uid = reply.rows[0]?.uid;
      if (uid) void queryClient.invalidateQueries({ queryKey: ['users', uid] });
      // The profile shows the same reading (ふりがな, product.md §5.7).
      if (uid) void queryClient.invalidateQueries({ queryKey: ['profile', uid] });
    },
  });
}
