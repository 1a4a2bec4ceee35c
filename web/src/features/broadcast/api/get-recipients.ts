import type { ContentType } from '@enishi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/broadcasts/recipients {type} -> {rows}: every member of the group (staff only). */
export function getRecipients(type: ContentType) {
  return api('broadcasts/recipients', { type });
}

export const recipientsQueryOptions = (type: ContentType) =>
  queryOptions({
    queryKey: ['broadcast-recipients', type],
    queryFn: () => getRecipients(type),
    staleTime: 60_000,
  });

export function useRecipients(type: ContentType) {
  return useQuery(recipientsQueryOptions(type));
}
