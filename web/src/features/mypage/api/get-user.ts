import { GetUserReply } from '@enishi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';

/** POST /api/getuser {uid} -> {rows}; members may read only themselves. */
export function getUser(uid: number) {
  return apiCall('getuser', { uid }, { reply: GetUserReply });
}

export const userQueryOptions = (uid: number) =>
  queryOptions({ queryKey: ['users', uid], queryFn: () => getUser(uid) });

export function useUser(uid: number) {
  return useQuery(userQueryOptions(uid));
}
