import type { ContentType } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { broadcastsQueryKey } from './get-broadcasts';
import { scheduledQueryKey } from './get-scheduled';

export type BroadcastDraft = {
  type: ContentType;
  users: number[];
  message: string;
  image: string[];
  /** ISO 8601 with +09:00: a scheduled send (予約送信). */
  send_at?: string;
};

/** POST /api/messages/send {users, message, image, type, send_at?} -> {status: 'OK', count}. */
export function sendBroadcast(draft: BroadcastDraft) {
  return api('messages/send', draft);
}

export function useSendBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendBroadcast,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: broadcastsQueryKey }),
        queryClient.invalidateQueries({ queryKey: scheduledQueryKey }),
      ]),
  });
}
