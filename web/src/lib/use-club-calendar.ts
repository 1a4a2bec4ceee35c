import { DEFAULT_HOURS, type BusinessHours, type ClosingDay } from '@enishi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const NONE: readonly ClosingDay[] = [];

/**
 * The club's business hours and closing days (POST /api/calendar, product.md §9.3), which the desk's
 * auto-reply follows and the course page states: asked for only by a member's talk with the desk and /course. Until they arrive (or offline), the
 * default hours (12:00〜20:00, Sundays closed) and holidays alone count.
 */
export function useClubCalendar(wanted: boolean): {
  closing: readonly ClosingDay[];
  hours: BusinessHours;
} {
  const query = useQuery({
    queryKey: ['calendar'],
    queryFn: () => api('calendar', {}),
    enabled: wanted,
    staleTime: 10 * 60 * 1000,
  });
  return { closing: query.data?.closingDays ?? NONE, hours: query.data?.hours ?? DEFAULT_HOURS };
}
