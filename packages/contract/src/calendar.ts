import { z } from 'zod';
import { ja } from './ja.js';
import { id, ssid } from './common.js';
import { calendar as jaCalendar } from './ja-member/calendar.js';
import { OkReply } from './content.js';
import { clockMinutes } from './business-hours.js';

/*
 * The club's calendar (product.md §9.3): closing days (休業日) such as 年末年始 or お盆, each a range of Japan
 * calendar dates, both ends included. The desk's auto-reply skips them, as it skips Sundays and holidays,
 * when it promises the next reply (auto-reply.ts). The admin and the owner keep them (calendar.manage).
 */

export const CLOSING_NAME_MAX = 40;
/** One closing is at most 60 days: the auto-reply looks a year ahead for the next open day. */
export const CLOSING_DAYS_MAX = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const e = jaCalendar.errors;

/** Whether `YYYY-MM-DD` is a real calendar date (2026-02-30 is not). */
export function isDateKey(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
}

/** Days from `start` to `end`, both included (1 for a single day). */
export const closingLength = (start: string, end: string): number =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;

/** A range of closing dates, both ends included: what the auto-reply needs of a closing. */
export interface ClosingRange {
  start: string;
  end: string;
}

/** Whether two closings share a day. */
export const closingsOverlap = (a: ClosingRange, b: ClosingRange): boolean =>
  a.start <= b.end && b.start <= a.end;

export const ClosingDay = z.object({
  id: z.number(),
  name: z.string(),
  start: z.string(),
  end: z.string(),
});
export type ClosingDay = z.infer<typeof ClosingDay>;

/** `2026年12月29日(火)`: a `YYYY-MM-DD` as the screens show a date (product.md §9.3). */
export function japaneseDate(dateKey: string): string {
  const [year = 0, month = 1, day = 1] = dateKey.split('-').map(Number);
  const weekday = ja.talk.weekdays[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  return `${year}年${month}月${day}日(${weekday})`;
}

const clock = z.string({ error: e.badTime }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, e.badTime);
/** One weekday's business hours on the wire: open or not, opening and closing `HH:MM` (Japan time). */
export const BusinessDayWire = z
  .object({ open: z.boolean({ error: ja.errors.badRequest }), opens: clock, closes: clock })
  .strict();
/** Sunday (0) to Saturday (6); a closed day's times are kept for when it opens again. */
export const BusinessHoursSchema = z
  .array(BusinessDayWire, { error: ja.errors.badRequest })
  .length(7, ja.errors.badRequest)
  .superRefine((days, context) => {
    days.forEach((day, weekday) => {
      if (clockMinutes(day.closes) <= clockMinutes(day.opens))
        context.addIssue({
          code: 'custom',
          message: e.closesBeforeOpens(ja.talk.weekdays[weekday]!),
          path: [weekday, 'closes'],
        });
    });
    // The auto-reply promises the next open day: some weekday must open.
    if (!days.some((day) => day.open)) context.addIssue({ code: 'custom', message: e.noOpenDay });
  });

const dateKey = z.string({ error: e.badDate }).refine(isDateKey, e.badDate);

// POST /api/calendar {ssid} -> {closingDays}: the closing days that have not ended (by start date), for the
// auto-reply of a member's talk with the desk (account.use).
export const CalendarBody = z.object({ ssid }).strict();
export type CalendarBody = z.input<typeof CalendarBody>;
export const CalendarReply = z.object({
  closingDays: z.array(ClosingDay),
  /** The business hours per weekday (DEFAULT_HOURS until the admin edits them). */
  hours: z.array(BusinessDayWire),
});
export type CalendarReply = z.infer<typeof CalendarReply>;

// POST /api/calendar/add {ssid, name, start, end} -> {status: 'OK', id} (calendar.manage)
export const ClosingDayAddBody = z
  .object({
    ssid,
    name: z
      .string({ error: e.nameRequired })
      .trim()
      .min(1, e.nameRequired)
      .max(CLOSING_NAME_MAX, ja.errors.tooLong),
    start: dateKey,
    end: dateKey,
  })
  .strict()
  .refine((body) => body.start <= body.end, { message: e.endBeforeStart, path: ['end'] })
  .refine((body) => closingLength(body.start, body.end) <= CLOSING_DAYS_MAX, {
    message: e.tooLong,
    path: ['end'],
  });
export type ClosingDayAddBody = z.input<typeof ClosingDayAddBody>;
export const ClosingDayAddReply = z.object({ status: z.literal('OK'), id: z.number() });

// POST /api/calendar/hours {ssid, hours: [7 × {open, opens, closes}]} -> {status: 'OK'} (calendar.manage)
export const BusinessHoursBody = z.object({ ssid, hours: BusinessHoursSchema }).strict();
export type BusinessHoursBody = z.input<typeof BusinessHoursBody>;

// POST /api/calendar/delete {ssid, id} -> {status: 'OK'} (calendar.manage)
export const ClosingDayDeleteBody = z.object({ ssid, id }).strict();
export type ClosingDayDeleteBody = z.input<typeof ClosingDayDeleteBody>;

/** The calendar's calls (product.md §9.3), spread into the call map (calls.ts). */
export const CALENDAR_CALLS = {
  calendar: { body: CalendarBody, reply: CalendarReply },
  'calendar/add': { body: ClosingDayAddBody, reply: ClosingDayAddReply },
  'calendar/delete': { body: ClosingDayDeleteBody, reply: OkReply },
  'calendar/hours': { body: BusinessHoursBody, reply: OkReply },
} as const;
