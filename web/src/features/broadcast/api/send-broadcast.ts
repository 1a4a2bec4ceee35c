import type { ContentType } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { broadcastsQueryKey } from './get-broadcasts';

export type BroadcastDraft = { type: ContentType; users: number[]; message: string; image: string[] };

/** POST /api/messages/send {users, message, image, type} -> {status: 'OK', count}. */
export function sendBroadcast(draft: BroadcastDraft) {
  return api('messages/send', draft);
}

export function useSendBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendBroadcast,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastsQueryKey }),
  });
}
