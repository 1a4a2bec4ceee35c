import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/getuser {uid} -> {rows}; members may read only themselves. */
export function getUser(uid: number) {
  return api('getuser', { uid });
}

export const userQueryOptions = (uid: number) =>
  queryOptions({ queryKey: ['users', uid], queryFn: () => getUser(uid) });

export function useUser(uid: number) {
  return useQuery(userQueryOptions(uid));
}
