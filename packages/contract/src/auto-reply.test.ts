import { afterEach, describe, expect, it } from 'vitest';
import { autoReplyFor, isDeskClosed, isJapaneseHoliday, nextDeskOpening } from './auto-reply.js';
import { ja } from './ja.js';

/** An instant given as Japan wall-clock time. */
const jst = (local: string) => new Date(`${local}+09:00`);
const member = (local: string, role = 101) => ({ date: jst(local).toISOString(), role });
// The default hours' wording is the fixed text the reply had before the admin could edit hours.
const reply = (next: string) =>
  ja.talk.autoReply.replace('{hours}', '12:00〜20:00（日曜・祝日休み）').replace('{next}', next);
// The contract is typed without Node; the tests run in Node all the same.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

describe('autoReplyFor', () => {
  const originalTz = env.TZ;
  afterEach(() => {
    env.TZ = originalTz;
  });

  it('answers on a Sunday, with the next opening day', () => {
    // 2026-11-22 is a Sunday and 11-23 勤労感謝の日 (a Monday): the desk opens again on Tuesday.
    const now = jst('2026-11-22T14:00:00');
    expect(autoReplyFor(now, member('2026-11-22T13:59:00'))).toBe(reply('11月24日(火) 12:00'));
  });

  it('answers on a public holiday in opening hours', () => {
    expect(isJapaneseHoliday('2026-11-23')).toBe(true);
    const now = jst('2026-11-23T15:00:00');
    expect(autoReplyFor(now, member('2026-11-23T14:30:00', 201))).toBe(reply('11月24日(火) 12:00'));
  });

  it('stays quiet at 19:59 and answers from 20:00', () => {
    // 2026-11-20 is a Friday; Saturday is an opening day.
    expect(autoReplyFor(jst('2026-11-20T19:59:59'), member('2026-11-20T19:00:00'))).toBeNull();
    expect(autoReplyFor(jst('2026-11-20T20:00:00'), member('2026-11-20T19:00:00'))).toBe(
      reply('11月21日(土) 12:00'),
    );
  });

  it('answers at 11:57 with today noon and stays quiet from 11:58', () => {
    expect(autoReplyFor(jst('2026-11-20T11:57:59'), member('2026-11-20T08:00:00'))).toBe(
      reply('11月20日(金) 12:00'),
    );
    expect(autoReplyFor(jst('2026-11-20T11:58:00'), member('2026-11-20T08:00:00'))).toBeNull();
  });

  it('answers after midnight with the same day', () => {
    expect(autoReplyFor(jst('2026-11-21T00:30:00'), member('2026-11-20T23:00:00'))).toBe(
      reply('11月21日(土) 12:00'),
    );
  });

  it('skips a Saturday night into Sunday and a Monday holiday', () => {
    expect(autoReplyFor(jst('2026-11-21T21:00:00'), member('2026-11-21T20:59:00'))).toBe(
      reply('11月24日(火) 12:00'),
    );
  });

  it('stays quiet when the last message is from staff or there is none', () => {
    const now = jst('2026-11-22T14:00:00');
    expect(autoReplyFor(now, member('2026-11-22T13:00:00', 3))).toBeNull();
    expect(autoReplyFor(now, member('2026-11-22T13:00:00', 6))).toBeNull();
    expect(autoReplyFor(now, null)).toBeNull();
  });

  it('stays quiet when the member wrote more than 12 hours ago', () => {
    const now = jst('2026-11-22T14:00:00');
    expect(autoReplyFor(now, member('2026-11-22T02:00:00'))).not.toBeNull();
    expect(autoReplyFor(now, member('2026-11-22T01:59:59'))).toBeNull();
    expect(autoReplyFor(now, { date: 'not a date', role: 101 })).toBeNull();
  });

  it('crosses the year boundary: New Year’s Day is a holiday', () => {
    // 2026-12-31 is a Thursday, 2027-01-01 元日, 2027-01-02 a Saturday.
    expect(autoReplyFor(jst('2026-12-31T21:00:00'), member('2026-12-31T20:30:00'))).toBe(
      reply('1月2日(土) 12:00'),
    );
    expect(nextDeskOpening(jst('2027-01-01T10:00:00'))).toBe('1月2日(土) 12:00');
  });

  it('uses Japan time whatever the time zone of the machine', () => {
    env.TZ = 'America/Los_Angeles';
    expect(isDeskClosed(jst('2026-11-20T12:00:00'))).toBe(false);
    expect(autoReplyFor(jst('2026-11-20T20:00:00'), member('2026-11-20T19:00:00'))).toBe(
      reply('11月21日(土) 12:00'),
    );
  });
});
