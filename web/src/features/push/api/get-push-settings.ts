import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const pushSettingsQueryKey = ['pushsettings'] as const;

/** POST /api/pushsettings/get -> the caller's settings (every device of theirs shares them). */
export function getPushSettings() {
  return api('pushsettings/get', {});
}

export const pushSettingsQueryOptions = () =>
  queryOptions({ queryKey: pushSettingsQueryKey, queryFn: getPushSettings });

export function usePushSettings() {
  return useQuery(pushSettingsQueryOptions());
}
