import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/getuser {uid} -> {rows}: staff may read anyone (the record to edit). */
export function getMember(uid: number) {
  return api('getuser', { uid });
}

export const memberQueryOptions = (uid: number) =>
  queryOptions({ queryKey: ['users', uid], queryFn: () => getMember(uid), staleTime: 0 });

export function useMember(uid: number) {
  return useQuery({ ...memberQueryOptions(uid), enabled: uid > 0 });
}
