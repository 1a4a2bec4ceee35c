import holidayJp from '@holiday-jp/holiday_jp';
import { japanTime, JAPAN_OFFSET_MS } from './wire.js';
import { can } from './permissions.js';
import { ja } from './ja.js';

/*
 * The desk's auto-reply (product.md §4, §9): open 12:00 to 20:00 Japan time, closed on Sundays and public holidays.
 * The reply shows from 20:00 until 11:58 and all day on closed days, when the last message of the talk is
 * from a member and at most 12 hours old. Pure: the caller passes the time, so web and tests agree.
 */
export const DESK_HOURS = {
  opensAt: 12 * 60,
  closesAt: 20 * 60,
  /** The reply stops two minutes before opening, so it never promises "12:00" at 11:59. */
  replyUntil: 11 * 60 + 58,
} as const;
export const AUTO_REPLY_WINDOW_MS = 12 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Japan's longest run of closed days (Golden Week plus a Sunday) is far shorter than this. */
const MAX_CLOSED_DAYS = 31;

const holidays = holidayJp.holidays as Record<string, unknown>;

/** A Japanese public holiday (振替休日 and 国民の休日 included) on this `YYYY-MM-DD`. */
export function isJapaneseHoliday(dateKey: string): boolean {
  return Object.hasOwn(holidays, dateKey);
}

function isClosedDay(day: { weekday: number; dateKey: string }): boolean {
  return day.weekday === 0 || isJapaneseHoliday(day.dateKey);
}

/** True when the desk does not answer at this instant: a closed day, from 20:00, or before 11:58. */
export function isDeskClosed(now: Date): boolean {
  const time = japanTime(now);
  return isClosedDay(time) || time.minutes >= DESK_HOURS.closesAt || time.minutes < DESK_HOURS.replyUntil;
}

/** When the desk next opens after `now`, as shown in the reply: e.g. `11月24日(火) 12:00`. */
export function nextDeskOpening(now: Date): string {
  const today = japanTime(now);
  const startOffset = !isClosedDay(today) && today.minutes < DESK_HOURS.opensAt ? 0 : 1;
  // Noon of a Japan calendar day, as an instant, so adding whole days never crosses a date boundary.
  const todayNoon = Date.UTC(today.year, today.month - 1, today.day, 12) - JAPAN_OFFSET_MS;
  for (let offset = startOffset; offset <= MAX_CLOSED_DAYS; offset += 1) {
    const day = japanTime(new Date(todayNoon + offset * DAY_MS));
    if (!isClosedDay(day)) {
      return `${day.month}月${day.day}日(${ja.talk.weekdays[day.weekday]}) 12:00`;
    }
  }
  throw new Error('no opening day within a month');
}

export interface LastMessage {
  /** When it was sent: an ISO 8601 string (as messages carry it) or a Date. */
  date: string | Date;
  role: number;
}

/**
 * The auto-reply text to show under a talk with the desk, or null. `last` is the talk's newest message.
 * A message sent a little "after" `now` (the phone's clock is behind the server's) still counts as recent.
 */
export function autoReplyFor(now: Date, last: LastMessage | null): string | null {
  // The desk answers whoever has a talk with it (talk.desk: the members), not its own staff's words.
  if (!last || !can(last, 'talk.desk')) return null;
  const sentAt = new Date(last.date).getTime();
  if (!Number.isFinite(sentAt) || now.getTime() - sentAt > AUTO_REPLY_WINDOW_MS) return null;
  if (!isDeskClosed(now)) return null;
  return ja.talk.autoReply.replace('{next}', nextDeskOpening(now));
}
