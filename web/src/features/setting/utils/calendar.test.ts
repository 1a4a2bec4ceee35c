import { describe, expect, it } from 'vitest';
import { addMonths, japanToday, monthWeeks, weekDays } from './calendar';

describe('settings calendar days', () => {
  it('starts weeks on Monday and crosses months and years', () => {
    expect(weekDays('2026-12-31')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });

  it('lays a month out in whole weeks, first and last day included', () => {
    const weeks = monthWeeks('2026-11-26');
    expect(weeks[0]![0]).toBe('2026-10-26');
    expect(weeks.flat()).toContain('2026-11-01');
    expect(weeks.flat()).toContain('2026-11-30');
    expect(weeks.at(-1)![6]).toBe('2026-12-06');
    expect(weeks).toHaveLength(6);
    expect(monthWeeks('2027-02-10')).toHaveLength(4);
  });

  it('moves by months from any day, and tells today in Japan', () => {
    expect(addMonths('2026-12-31', 1)).toBe('2027-01-01');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-01');
    expect(japanToday(new Date('2026-11-26T16:00:00Z'))).toBe('2026-11-27');
  });
});
