import { jaMember } from '@enishi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useChatEvent } from '@/lib/chat/events';
import { toast } from '@/lib/toast';
import { settingsQueryKey } from '../api/settings';

/**
 * Staff hear of setting requests live (product.md §2.8): the `setting` frame, sent to every staff socket on
 * every instance, refreshes the lists, the board and the badge, and a new request shows a toast.
 */
export function useSettingEvents(): void {
  const queryClient = useQueryClient();
  useChatEvent('setting', (frame) => {
    void queryClient.invalidateQueries({ queryKey: settingsQueryKey });
    if (frame.status === 'requested') toast(jaMember.settingNotice.newRequest(frame.man, frame.woman), true);
  });
}
