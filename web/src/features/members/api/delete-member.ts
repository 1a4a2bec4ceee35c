import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userSearchKey } from '@/lib/user-search';

/** POST /api/deluser {uid} -> {rows: [the deleted user]}. Their sessions end with them. */
export function deleteMember(uid: number) {
  return api('deluser', { uid });
}

export function useDeleteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userSearchKey }),
  });
}
