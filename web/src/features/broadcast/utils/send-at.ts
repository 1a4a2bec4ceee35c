import { jaMember, slotOf, type ContentGroup } from '@enishi/contract';
import { clockTime, dayLabel, japanDateKey } from '@/lib/japan-date';

/*
 * A scheduled send's time (product.md §4.6): the picker holds Japan time as `YYYY-MM-DDTHH:mm`
 * (datetime-local), the call takes ISO 8601 with its offset, whatever the device's own time zone.
 */

/** The picker's value as the call sends it. */
export const sendAtOf = (local: string): string => `${local}:00+09:00`;

/** An instant as the picker shows it, in Japan time. */
export const localOf = (instant: string | Date): string => slotOf(new Date(instant));

/** 今日 18:00, 12月1日(火) 09:30: when it goes, as the lists say it. */
export const whenLabel = (instant: string, now: Date): string =>
  `${dayLabel(japanDateKey(instant), now)} ${clockTime(instant)}`;

export const scheduledText = (group: ContentGroup): string =>
  group === 'men' ? jaMember.broadcast.scheduledMen : jaMember.broadcast.scheduledWomen;
