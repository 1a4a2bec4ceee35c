import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoReplyFor, isDeskClosed, nextDeskOpening } from './auto-reply.js';
import { deskHoursText } from './desk-hours-text.js';
import { DEFAULT_HOURS } from './business-hours.js';
import {
  BusinessHoursBody,
  ClosingDayAddBody,
  closingsOverlap,
  isDateKey,
  japaneseDate,
} from './calendar.js';
import { ja } from './ja.js';
import { calendar } from './ja-member/calendar.js';

/** An instant given as Japan wall-clock time. */
const jst = (local: string) => new Date(`${local}+09:00`);
const member = (local: string) => ({ date: jst(local).toISOString(), role: 101 });
// The default hours' wording is the fixed text the reply had before the admin could edit hours.
const reply = (next: string) =>
  ja.talk.autoReply.replace('{hours}', '12:00〜20:00（日曜・祝日休み）').replace('{next}', next);
const newYear = [{ start: '2026-12-29', end: '2027-01-03' }];

describe('the auto-reply and the club’s closing days (product.md §9.3)', () => {
  it('on 元日, with 年末年始 12/29–1/3, promises 1月4日 at opening time', () => {
    expect(autoReplyFor(jst('2027-01-01T10:00:00'), member('2027-01-01T09:00:00'), newYear)).toBe(
      reply('1月4日(月) 12:00'),
    );
    // Without the closing, only the holiday is skipped (the old promise).
    expect(nextDeskOpening(jst('2027-01-01T10:00:00'))).toBe('1月2日(土) 12:00');
  });

  it('answers all day inside a closing, from its eve to its last day', () => {
    // 2026-12-28 is a Monday, an open day: after 20:00 the next opening is after the closing.
    expect(autoReplyFor(jst('2026-12-28T20:30:00'), member('2026-12-28T20:10:00'), newYear)).toBe(
      reply('1月4日(月) 12:00'),
    );
    expect(isDeskClosed(jst('2026-12-29T15:00:00'), newYear)).toBe(true);
    expect(isDeskClosed(jst('2026-12-29T15:00:00'))).toBe(false);
    expect(nextDeskOpening(jst('2027-01-03T23:00:00'), newYear)).toBe('1月4日(月) 12:00');
    // The morning after it, the desk opens the same day; at 12:00 it answers again.
    expect(nextDeskOpening(jst('2027-01-04T09:00:00'), newYear)).toBe('1月4日(月) 12:00');
    expect(isDeskClosed(jst('2027-01-04T12:00:00'), newYear)).toBe(false);
  });

  it('skips a single closing day and one that ends on a Saturday before a Sunday', () => {
    const obon = [{ start: '2026-08-13', end: '2026-08-15' }]; // Thu–Sat, then Sunday 8/16
    expect(nextDeskOpening(jst('2026-08-12T21:00:00'), obon)).toBe('8月17日(月) 12:00');
    const one = [{ start: '2026-11-20', end: '2026-11-20' }]; // a Friday
    expect(nextDeskOpening(jst('2026-11-19T21:00:00'), one)).toBe('11月21日(土) 12:00');
  });

  it('never promises a closing day, and closings only postpone the promise', () => {
    const day = fc.integer({ min: 0, max: 800 }).map((n) => new Date(Date.UTC(2026, 0, 1) + n * 864e5));
    const key = (d: Date) => d.toISOString().slice(0, 10);
    const range = fc.tuple(day, fc.integer({ min: 0, max: 59 })).map(([start, length]) => ({
      start: key(start),
      end: key(new Date(start.getTime() + length * 864e5)),
    }));
    const instant = fc
      .integer({ min: Date.UTC(2025, 11, 1), max: Date.UTC(2028, 1, 1) })
      .map((t) => new Date(t));
    fc.assert(
      fc.property(instant, fc.array(range, { maxLength: 4 }), (now, closing) => {
        const promised = nextDeskOpening(now, closing);
        const plain = nextDeskOpening(now);
        const date = promisedDate(now, promised);
        expect(closing.some((r) => r.start <= date && date <= r.end)).toBe(false);
        expect(date >= promisedDate(now, plain)).toBe(true);
      }),
    );
  });
});

/** The `YYYY-MM-DD` of a promise like `1月4日(月) 12:00` made at `now` (within a year after it). */
function promisedDate(now: Date, promise: string): string {
  const [, month, day] = /^(\d+)月(\d+)日/.exec(promise)!.map(Number) as [number, number, number];
  const today = new Date(now.getTime() + 9 * 3600e3).toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  const same = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return same >= today ? same : `${year + 1}${same.slice(4)}`;
}

describe('ClosingDayAddBody', () => {
  const parse = (body: Record<string, unknown>) => {
    const result = ClosingDayAddBody.safeParse({ ssid: 's', name: '年末年始', ...body });
    return result.success ? 'ok' : result.error.issues[0]!.message;
  };

  it('takes a named range of real dates, a single day too', () => {
    expect(parse({ start: '2026-12-29', end: '2027-01-03' })).toBe('ok');
    expect(parse({ start: '2026-08-13', end: '2026-08-13' })).toBe('ok');
  });

  it('refuses bad dates, an end before the start, an overlong range and a blank name in Japanese', () => {
    const e = calendar.errors;
    expect(parse({ start: '2026-02-30', end: '2026-03-01' })).toBe(e.badDate);
    expect(parse({ start: '2026/12/29', end: '2027-01-03' })).toBe(e.badDate);
    expect(parse({ start: '2026-12-29' })).toBe(e.badDate);
    expect(parse({ start: '2027-01-03', end: '2026-12-29' })).toBe(e.endBeforeStart);
    expect(parse({ start: '2026-01-01', end: '2026-03-02' })).toBe(e.tooLong);
    expect(parse({ start: '2026-01-01', end: '2026-03-01' })).toBe('ok'); // 60 days
    expect(parse({ name: ' ', start: '2026-01-01', end: '2026-01-01' })).toBe(e.nameRequired);
  });

  it('knows real dates and overlapping ranges', () => {
    expect(isDateKey('2028-02-29')).toBe(true);
    expect(isDateKey('2027-02-29')).toBe(false);
    const a = { start: '2026-12-29', end: '2027-01-03' };
    expect(closingsOverlap(a, { start: '2027-01-03', end: '2027-01-05' })).toBe(true);
    expect(closingsOverlap(a, { start: '2027-01-04', end: '2027-01-05' })).toBe(false);
  });
});

describe('the auto-reply and the club’s business hours (product.md §9.3)', () => {
  const week = (change: Record<number, object>) =>
    DEFAULT_HOURS.map((day, weekday) => ({ ...day, ...change[weekday] }));
  // Open on Sundays 10:00–17:00, Saturdays closed, Wednesdays 13:30–21:00.
  const hours = week({
    0: { open: true, opens: '10:00', closes: '17:00' },
    3: { opens: '13:30', closes: '21:00' },
    6: { open: false },
  });
  const answer = (now: string, sent: string) => autoReplyFor(jst(now), member(sent), [], hours);

  it('promises the next open weekday at its own opening time', () => {
    // 2026-11-20 is a Friday: Saturday is closed now, Sunday opens at 10:00.
    expect(nextDeskOpening(jst('2026-11-20T20:30:00'), [], hours)).toBe('11月22日(日) 10:00');
    // Tuesday night: Wednesday opens at 13:30.
    expect(nextDeskOpening(jst('2026-11-24T22:00:00'), [], hours)).toBe('11月25日(水) 13:30');
  });

  it('follows each weekday’s closing and opening time', () => {
    // Wednesday 20:30 is still open (until 21:00); Thursday 20:30 is not.
    expect(answer('2026-11-25T20:30:00', '2026-11-25T20:10:00')).toBeNull();
    expect(answer('2026-11-26T20:30:00', '2026-11-26T20:10:00')).toContain('11月27日(金) 12:00');
    // Wednesday 13:00 is before 13:28: the reply promises today.
    expect(answer('2026-11-25T13:00:00', '2026-11-25T12:50:00')).toContain('11月25日(水) 13:30');
    expect(isDeskClosed(jst('2026-11-25T13:28:00'), [], hours)).toBe(false);
    // A Saturday afternoon is closed; a Sunday afternoon open.
    expect(isDeskClosed(jst('2026-11-21T15:00:00'), [], hours)).toBe(true);
    expect(isDeskClosed(jst('2026-11-29T15:00:00'), [], hours)).toBe(false);
  });

  it('words the hours from the settings, never a fixed （日曜・祝日休み）', () => {
    expect(deskHoursText()).toBe('12:00〜20:00（日曜・祝日休み）');
    expect(deskHoursText(hours)).toBe(
      '月・火・木・金 12:00〜20:00、水 13:30〜21:00、日 10:00〜17:00（土曜・祝日休み）',
    );
    expect(deskHoursText(week({ 0: { open: true }, 6: { open: false } }))).toBe(
      '12:00〜20:00（土曜・祝日休み）',
    );
    expect(deskHoursText(week({ 6: { opens: '10:00', closes: '17:00' } }))).toBe(
      '月〜金 12:00〜20:00、土 10:00〜17:00（日曜・祝日休み）',
    );
    expect(answer('2026-11-21T15:00:00', '2026-11-21T14:00:00')).toBe(
      ja.talk.autoReply.replace('{hours}', deskHoursText(hours)).replace('{next}', '11月22日(日) 10:00'),
    );
  });

  it('checks the hours as the admin saves them', () => {
    const body = (days: unknown) => BusinessHoursBody.safeParse({ ssid: 's', hours: days });
    expect(body(DEFAULT_HOURS).success).toBe(true);
    const late = body(week({ 5: { opens: '20:00', closes: '19:00' } }));
    expect(late.error?.issues[0]?.message).toBe(calendar.errors.closesBeforeOpens('金'));
    expect(body(DEFAULT_HOURS.map((day) => ({ ...day, open: false }))).error?.issues[0]?.message).toBe(
      calendar.errors.noOpenDay,
    );
    expect(body(week({ 1: { opens: '9:00' } })).error?.issues[0]?.message).toBe(calendar.errors.badTime);
  });

  it('writes dates in Japanese', () => {
    expect(japaneseDate('2026-12-29')).toBe('2026年12月29日(火)');
    expect(japaneseDate('2027-01-03')).toBe('2027年1月3日(日)');
  });
});
