import type { ClosingDay } from '@enishi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const NONE: readonly ClosingDay[] = [];

/**
 * The club's closing days (POST /api/calendar, product.md §9.3), which the desk's auto-reply skips: asked for
 * only by a member's talk with the desk. Until they arrive (or offline), Sundays and holidays alone count.
 */
export function useClosingDays(wanted: boolean): readonly ClosingDay[] {
  const query = useQuery({
    queryKey: ['calendar'],
    queryFn: () => api('calendar', {}),
    enabled: wanted,
    staleTime: 10 * 60 * 1000,
  });
  return query.data?.closingDays ?? NONE;
}
