import type { ContentType } from '@enishi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/broadcasts/scheduled {type} -> {rows}: the group's bulk sends still to go, soonest first. */
export function getScheduled(type: ContentType) {
  return api('broadcasts/scheduled', { type });
}

export const scheduledQueryKey = ['broadcasts-scheduled'] as const;

export const scheduledQueryOptions = (type: ContentType) =>
  queryOptions({
    queryKey: [...scheduledQueryKey, type],
    queryFn: () => getScheduled(type),
    staleTime: 10_000,
  });

export function useScheduled(type: ContentType) {
  return useQuery(scheduledQueryOptions(type));
}
