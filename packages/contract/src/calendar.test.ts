import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoReplyFor, isDeskClosed, nextDeskOpening } from './auto-reply.js';
import { ClosingDayAddBody, closingsOverlap, isDateKey } from './calendar.js';
import { ja } from './ja.js';
import { calendar } from './ja-member/calendar.js';

/** An instant given as Japan wall-clock time. */
const jst = (local: string) => new Date(`${local}+09:00`);
const member = (local: string) => ({ date: jst(local).toISOString(), role: 101 });
const reply = (next: string) => ja.talk.autoReply.replace('{next}', next);
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
