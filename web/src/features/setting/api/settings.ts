import type { SettingStatus, SettingUpdateBody } from '@enishi/contract';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const settingsQueryKey = ['setting/list'] as const;

/** POST /api/setting/list: staff all, a man his own, a woman hers once arranged (product.md §18.2). */
export const settingsQueryOptions = (status?: SettingStatus) =>
  infiniteQueryOptions({
    queryKey: [...settingsQueryKey, status ?? 'all'],
    queryFn: ({ pageParam }) => api('setting/list', { page: pageParam, ...(status ? { status } : {}) }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
    staleTime: 5_000,
  });

export function useSettings(status?: SettingStatus) {
  return useInfiniteQuery(settingsQueryOptions(status));
}

/** POST /api/setting/add (product.md §18.1). */
export function useAddSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      women_id: number;
      preferred1: string;
      preferred2: string;
      preferred3: string;
      note: string;
    }) => api('setting/add', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsQueryKey }),
  });
}

/** POST /api/setting/update: arrange, decline (staff) or cancel (the man) (product.md §18.3). */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<SettingUpdateBody, 'ssid'>) => api('setting/update', body),
    // Also after a refusal: a 409 may mean a setting was confirmed meanwhile, whose overlap the list then shows.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: settingsQueryKey }),
  });
}

/**
 * POST /api/profile/get for staff's summary of each party of a request (product.md §18.2); the same cache
 * entry as the member edit screen, so one member in several requests is read once.
 */
export function usePartyProfile(uid: number | null) {
  return useQuery({
    queryKey: ['profile', uid ?? 0],
    queryFn: () => api('profile/get', { uid: uid! }),
    enabled: uid !== null && uid > 0,
    staleTime: 60_000,
  });
}

/** POST /api/setting/list {member}: staff read one man's or woman's requests (the back office's member panel). */
export function useMemberSettings(uid: number) {
  return useQuery({
    queryKey: [...settingsQueryKey, 'member', uid],
    queryFn: () => api('setting/list', { page: 0, member: uid }),
    staleTime: 5_000,
  });
}
