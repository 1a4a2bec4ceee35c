import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { updateSession } from '@/lib/session';

/** POST /api/uploadUserImage {uid, image: dataURL} -> {rows: [the user, image as a URL]}. */
export function uploadUserImage(uid: number, image: string) {
  return api('uploadUserImage', { uid, image });
}

/** Uploads one's own picture and shows it at once (product.md §4: the local user image is updated). */
export function useUploadOwnImage(uid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: string) => uploadUserImage(uid, image),
    onSuccess: async (reply) => {
      const row = reply.rows[0];
      if (row) updateSession({ image: row.image });
      await queryClient.invalidateQueries({ queryKey: ['users', uid] });
    },
  });
}
