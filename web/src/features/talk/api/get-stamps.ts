import { STAMP_RECENT_MAX, type Stamp, type StampsReply } from '@enishi/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The stamp sets in use and the caller's recent stamps (product.md §12.8). */
export const stampsQueryKey = ['stamps'] as const;

/** Loaded when the picker first opens; its picture URLs last about an hour, so it is read again after 30 min. */
export function useStamps() {
  return useQuery({
    queryKey: stampsQueryKey,
    queryFn: () => api('stamps', {}),
    staleTime: 30 * 60_000,
  });
}

/** The recent stamps first (newest first), then every set's, each stamp once. */
export function recentStamps(reply: StampsReply): Stamp[] {
  const byId = new Map(reply.sets.flatMap((set) => set.stamps.map((stamp) => [stamp.id, stamp] as const)));
  return reply.recent.flatMap((id) => byId.get(id) ?? []);
}

/** A stamp just sent goes to the front of the recent ones at once (the server remembers it too). */
export function rememberStamp(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<StampsReply>(stampsQueryKey, (reply) =>
    reply
      ? { ...reply, recent: [id, ...reply.recent.filter((each) => each !== id)].slice(0, STAMP_RECENT_MAX) }
      : reply,
  );
}
