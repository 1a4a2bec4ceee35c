import { describe, expect, it } from 'vitest';
import { clockTime, dayLabel, japanDateKey, listTime } from './japan-date';

// 2026-11-23 10:00 in Japan is 01:00 UTC.
const now = new Date('2026-11-23T01:00:00.000Z');

describe('japanDateKey', () => {
  it('takes the calendar day in Japan, not in UTC', () => {
    expect(japanDateKey('2026-11-22T14:59:59.000Z')).toBe('2026-11-22');
    expect(japanDateKey('2026-11-22T15:00:00.000Z')).toBe('2026-11-23');
  });
});

describe('dayLabel', () => {
  it('says 今日 for the current day in Japan', () => {
    expect(dayLabel('2026-11-23', now)).toBe('今日');
  });

  it('names month, day and weekday otherwise', () => {
    expect(dayLabel('2026-11-22', now)).toBe('11月22日(日)');
    expect(dayLabel('2026-01-01', now)).toBe('1月1日(木)');
  });

  it('names the year for a day of another year', () => {
    expect(dayLabel('2025-12-31', now)).toBe('2025年12月31日(水)');
  });

  it('turns over at midnight Japan time', () => {
    const justAfterMidnight = new Date('2026-11-23T15:00:30.000Z');
    expect(dayLabel('2026-11-24', justAfterMidnight)).toBe('今日');
    expect(dayLabel('2026-11-23', justAfterMidnight)).toBe('11月23日(月)');
  });
});

describe('clockTime', () => {
  it('shows hours and minutes in Japan time with leading zeros', () => {
    expect(clockTime('2026-11-23T00:05:00.000Z')).toBe('09:05');
    expect(clockTime('2026-11-23T14:59:00.000Z')).toBe('23:59');
    expect(clockTime('2026-11-23T15:00:00.000Z')).toBe('00:00');
  });
});

describe('listTime', () => {
  it('shows the time today, 昨日, the weekday within the week, the date this year and the full date before', () => {
    expect(listTime('2026-11-23T00:30:00.000Z', now)).toBe('09:30');
    expect(listTime('2026-11-22T14:59:00.000Z', now)).toBe('昨日'); // 23:59 on the 22nd in Japan
    expect(listTime('2026-11-21T15:00:00.000Z', now)).toBe('昨日'); // 00:00 on the 22nd
    expect(listTime('2026-11-20T03:00:00.000Z', now)).toBe('金曜日');
    expect(listTime('2026-11-17T03:00:00.000Z', now)).toBe('火曜日');
    expect(listTime('2026-11-16T03:00:00.000Z', now)).toBe('11/16');
    expect(listTime('2025-12-31T03:00:00.000Z', new Date('2026-01-01T01:00:00.000Z'))).toBe('昨日');
    expect(listTime('2025-03-04T03:00:00.000Z', now)).toBe('2025/3/4');
  });
});
