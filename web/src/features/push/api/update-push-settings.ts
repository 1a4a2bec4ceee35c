import type { PushSettings, PushSettingsUpdateBody } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { pushSettingsQueryKey } from './get-push-settings';

type Change = Omit<PushSettingsUpdateBody, 'ssid'>;

/** POST /api/pushsettings/update {show_text?, kinds?}: what is left out stays -> the settings as stored. */
export function updatePushSettings(change: Change) {
  return api('pushsettings/update', change);
}

/** A switch moves at once; a refused save puts it back. */
export function useUpdatePushSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePushSettings,
    onMutate: async (change: Change) => {
      await queryClient.cancelQueries({ queryKey: pushSettingsQueryKey });
      const before = queryClient.getQueryData<PushSettings>(pushSettingsQueryKey);
      if (before)
        queryClient.setQueryData<PushSettings>(pushSettingsQueryKey, {
          show_text: change.show_text ?? before.show_text,
          kinds: { ...before.kinds, ...change.kinds },
        });
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(pushSettingsQueryKey, context.before);
    },
    onSuccess: (stored) => queryClient.setQueryData(pushSettingsQueryKey, stored),
  });
}
