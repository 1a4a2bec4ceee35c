import { useQueryClient } from '@tanstack/react-query';
import { useChatEvent } from '@/lib/chat/events';
import { applyDeskState } from '../api/desk-talk';

/**
 * Staff hear every desk talk's change live (product.md §2.6): the `desk` frame, sent to every staff socket
 * on every instance, updates the open talk's controls, the lists and the side navigation's counts.
 */
export function useDeskEvents(): void {
  const queryClient = useQueryClient();
  useChatEvent('desk', (frame) => applyDeskState(queryClient, frame));
}
