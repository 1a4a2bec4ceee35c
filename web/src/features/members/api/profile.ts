import type { ProfilePatch, ProfileReply } from '@enishi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userSearchKey } from '@/lib/user-search';

const profileKey = (uid: number) => ['profile', uid] as const;

/** POST /api/profile/get {uid}: the profile, photos and rank history of a member. */
export function useProfile(uid: number) {
  return useQuery({
    queryKey: profileKey(uid),
    queryFn: () => api('profile/get', { uid }),
    enabled: uid > 0,
    staleTime: 0,
  });
}

type PhotoChange =
  { kind: 'add'; image: string } | { kind: 'delete'; id: string } | { kind: 'order'; ids: string[] };

/** profile/update and the photo calls: each answers the whole profile, which replaces the cached one. */
export function useProfileChanges(uid: number) {
  const queryClient = useQueryClient();
  const store = (reply: ProfileReply) => queryClient.setQueryData(profileKey(uid), reply);
  const save = useMutation({
    mutationFn: (profile: ProfilePatch) => api('profile/update', { uid, profile }),
    onSuccess: (reply, profile) => {
      store(reply);
      // ふりがな is the person's reading (product.md §5.7): the record and the lists of people show it.
      if (profile.name_kana === undefined) return;
      void queryClient.invalidateQueries({ queryKey: ['users', uid] });
      void queryClient.invalidateQueries({ queryKey: userSearchKey });
      void queryClient.invalidateQueries({ queryKey: ['members/table'] });
    },
  });
  const photos = useMutation({
    mutationFn: (change: PhotoChange) =>
      change.kind === 'add'
        ? api('profile/photo/add', { uid, image: change.image })
        : change.kind === 'delete'
          ? api('profile/photo/delete', { uid, id: change.id })
          : api('profile/photo/order', { uid, ids: change.ids }),
    onSuccess: store,
  });
  return { save, photos };
}
