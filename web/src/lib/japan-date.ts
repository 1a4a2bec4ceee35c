import { ja, japanTime } from '@enishi/contract';

/*
 * Dates as the screens show them, always in Japan time whatever the device's time zone: members and staff
 * talk about the same day. The talks' words for days first, then the formatters of the other screens.
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** `YYYY-MM-DD` in Japan time. */
export const japanDateKey = (instant: Date | string): string => japanTime(new Date(instant)).dateKey;

/**
 * The heading of a day in a talk (product.md §2): 今日 for today, otherwise `11月23日(月)`; a day of another year
 * also names its year, so that old talks are not read as this year's.
 */
export function dayLabel(dateKey: string, now: Date): string {
  const today = japanTime(now);
  if (dateKey === today.dateKey) return ja.talk.today;
  const [year = 0, month = 1, day = 1] = dateKey.split('-').map(Number);
  const weekday = ja.talk.weekdays[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  const monthDay = `${month}月${day}日(${weekday})`;
  return year === today.year ? monthDay : `${year}年${monthDay}`;
}

/** The time of a message, `09:05`. */
export function clockTime(instant: Date | string): string {
  const minutes = japanTime(new Date(instant)).minutes;
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** Whole Japan calendar days from `earlier` to `later` (`YYYY-MM-DD` each). */
function daysBetween(earlier: string, later: string): number {
  const utc = (key: string) => {
    const [year = 0, month = 1, day = 1] = key.split('-').map(Number);
    return Date.UTC(year, month - 1, day);
  };
  return Math.round((utc(later) - utc(earlier)) / 86_400_000);
}

/**
 * The time of a room's last message in a list, as chat apps say it: `09:05` today, 昨日, the weekday (`金曜日`)
 * within the week, `11/23` earlier this year, `2025/11/23` before.
 */
export function listTime(instant: Date | string, now: Date): string {
  const time = japanTime(new Date(instant));
  const today = japanTime(now);
  if (time.dateKey === today.dateKey) return clockTime(instant);
  const days = daysBetween(time.dateKey, today.dateKey);
  if (days === 1) return ja.talk.yesterday;
  if (days > 1 && days < 7) return ja.talk.weekdayName(ja.talk.weekdays[time.weekday] ?? '');
  return time.year === today.year ? `${time.month}/${time.day}` : `${time.year}/${time.month}/${time.day}`;
}

/** A formatter of instants in Japan time, in Japanese (the screens outside the talks). */
export const japanFormat = (options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat =>
  new Intl.DateTimeFormat('ja-JP', { ...options, timeZone: 'Asia/Tokyo' });

let dateTime: Intl.DateTimeFormat | undefined;

/**
 * Date and time, as the staff screens show when something happened (audit log, rank history, activity). Made on
 * first use: a formatter takes a phone tens of milliseconds to make, and a talk, which loads this module with
 * its first drawing, never uses it.
 */
export const japanDateTime = {
  format: (instant: Date): string =>
    (dateTime ??= japanFormat({
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    })).format(instant),
};
