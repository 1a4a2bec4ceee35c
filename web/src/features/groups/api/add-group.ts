import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/add_conversation {params: {men, women, type: 'st'}} -> {conversation_id} (staff only). */
export function addGroup(manUid: number, womanUid: number) {
  return api('add_conversation', { params: { men: manUid, women: womanUid, type: 'st' } });
}

export function useAddGroup() {
  return useMutation({
    mutationFn: ({ man, woman }: { man: number; woman: number }) => addGroup(man, woman),
  });
}
