import holidayJp from '@holiday-jp/holiday_jp';
import { japanTime, JAPAN_OFFSET_MS } from './wire.js';
import { can } from './permissions.js';
import { ja } from './ja.js';
import { deskHoursText } from './desk-hours-text.js';
import { clockMinutes, DEFAULT_HOURS, type BusinessHours } from './business-hours.js';

/*
 * The desk's auto-reply (product.md §4, §9.3): open in the club's business hours per weekday (by default 12:00
 * to 20:00, Sundays closed), closed on public holidays and the club's closing days (休業日: `closing`, ranges
 * of dates the admin keeps). The reply shows from closing time until two minutes before opening and all day on
 * closed days, when the last message of the talk is from a member and at most 12 hours old. Pure: the caller
 * passes the time, so web and tests agree.
 */

/** The reply stops two minutes before opening, so it never promises "12:00" at 11:59. */
const REPLY_STOPS_BEFORE = 2;

export const AUTO_REPLY_WINDOW_MS = 12 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The next open day is looked for up to a year ahead (one closing is at most 60 days and at least one weekday
 * is open, calendar.ts).
 */
const MAX_CLOSED_DAYS = 366;

const holidays = holidayJp.holidays as Record<string, unknown>;

/** A Japanese public holiday (振替休日 and 国民の休日 included) on this `YYYY-MM-DD`. */
export function isJapaneseHoliday(dateKey: string): boolean {
  return Object.hasOwn(holidays, dateKey);
}

/** A range of the club's closing dates (`YYYY-MM-DD`, Japan calendar), both ends included. */
export interface ClosedRange {
  start: string;
  end: string;
}

function isClosedDay(
  day: { weekday: number; dateKey: string },
  closing: readonly ClosedRange[],
  hours: BusinessHours,
): boolean {
  return (
    !hours[day.weekday]?.open ||
    isJapaneseHoliday(day.dateKey) ||
    closing.some((range) => range.start <= day.dateKey && day.dateKey <= range.end)
  );
}

/** True when the desk does not answer at this instant: a closed day, from closing time, or before opening. */
export function isDeskClosed(
  now: Date,
  closing: readonly ClosedRange[] = [],
  hours: BusinessHours = DEFAULT_HOURS,
): boolean {
  const time = japanTime(now);
  if (isClosedDay(time, closing, hours)) return true;
  const day = hours[time.weekday]!;
  return (
    time.minutes >= clockMinutes(day.closes) || time.minutes < clockMinutes(day.opens) - REPLY_STOPS_BEFORE
  );
}

/** When the desk next opens after `now`, as shown in the reply: e.g. `11月24日(火) 12:00`. */
export function nextDeskOpening(
  now: Date,
  closing: readonly ClosedRange[] = [],
  hours: BusinessHours = DEFAULT_HOURS,
): string {
  const today = japanTime(now);
  const startOffset =
    !isClosedDay(today, closing, hours) && today.minutes < clockMinutes(hours[today.weekday]!.opens) ? 0 : 1;
  // Noon of a Japan calendar day, as an instant, so adding whole days never crosses a date boundary.
  const todayNoon = Date.UTC(today.year, today.month - 1, today.day, 12) - JAPAN_OFFSET_MS;
  for (let offset = startOffset; offset <= MAX_CLOSED_DAYS; offset += 1) {
    const day = japanTime(new Date(todayNoon + offset * DAY_MS));
    if (!isClosedDay(day, closing, hours)) {
      return `${day.month}月${day.day}日(${ja.talk.weekdays[day.weekday]}) ${hours[day.weekday]!.opens}`;
    }
  }
  throw new Error('no opening day within a year');
}

export interface LastMessage {
  /** When it was sent: an ISO 8601 string (as messages carry it) or a Date. */
  date: string | Date;
  role: number;
}

/**
 * The auto-reply text to show under a talk with the desk, or null. `last` is the talk's newest message.
 * A message sent a little "after" `now` (the phone's clock is behind the server's) still counts as recent.
 * `closing` and `hours`: the club's closing days and business hours (POST /api/calendar).
 */
export function autoReplyFor(
  now: Date,
  last: LastMessage | null,
  closing: readonly ClosedRange[] = [],
  hours: BusinessHours = DEFAULT_HOURS,
): string | null {
  // The desk answers whoever has a talk with it (talk.desk: the members), not its own staff's words.
  if (!last || !can(last, 'talk.desk')) return null;
  const sentAt = new Date(last.date).getTime();
  if (!Number.isFinite(sentAt) || now.getTime() - sentAt > AUTO_REPLY_WINDOW_MS) return null;
  if (!isDeskClosed(now, closing, hours)) return null;
  return ja.talk.autoReply
    .replace('{hours}', deskHoursText(hours))
    .replace('{next}', nextDeskOpening(now, closing, hours));
}
