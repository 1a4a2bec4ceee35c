import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slotInstant, slotOf } from './setting.js';
import { settingOverlaps, slotsOverlap, type BookedSetting } from './setting-overlap.js';

const setting = (overrides: Partial<BookedSetting>): BookedSetting => ({
  id: 1,
  status: 'requested',
  slot: null,
  preferred: ['2026-12-01T19:00', '2026-12-02T19:00', '2026-12-03T12:00'],
  man: 10,
  woman: 20,
  enquiryWoman: null,
  ...overrides,
});
/** A confirmed setting of `man` and `woman` at `at` (its first slot). */
const confirmed = (
  id: number,
  at: string,
  man: number,
  woman: number | null,
  enquiryWoman: number | null = null,
) =>
  setting({
    id,
    status: 'arranged',
    slot: 1,
    preferred: [at, '2027-01-01T10:00', '2027-01-02T10:00'],
    man,
    woman,
    enquiryWoman,
  });

describe('no double booking (product.md §18.5)', () => {
  it('counts less than two hours apart, Japan time, and not exactly two hours', () => {
    expect(slotsOverlap('2026-12-01T19:00', '2026-12-01T20:59')).toBe(true);
    expect(slotsOverlap('2026-12-01T19:00', '2026-12-01T17:01')).toBe(true);
    expect(slotsOverlap('2026-12-01T19:00', '2026-12-01T21:00')).toBe(false);
    expect(slotsOverlap('2026-12-01T19:00', '2026-12-01T17:00')).toBe(false);
    // Across midnight in Japan time (15:00 UTC), the day does not matter, only the hours between.
    expect(slotsOverlap('2026-12-01T23:30', '2026-12-02T01:00')).toBe(true);
    expect(slotsOverlap('2026-12-01T19:00', 'nonsense')).toBe(false);
  });

  it('names each slot and the confirmed setting of the same man or woman it meets', () => {
    const asked = setting({ id: 5 });
    const others = [
      confirmed(7, '2026-12-01T18:00', 10, 21), // his, one hour before slot 1
      confirmed(8, '2026-12-02T20:30', 11, 20), // hers, 90 minutes after slot 2
      confirmed(9, '2026-12-03T12:00', 12, 22), // another pair at slot 3's time
      confirmed(6, '2026-12-03T14:00', 10, 20), // theirs, exactly two hours after slot 3
    ];
    expect(settingOverlaps(asked, others).map((o) => [o.slot, o.who, o.other.id])).toEqual([
      [1, 'man', 7],
      [2, 'woman', 8],
    ]);
    expect(settingOverlaps(asked, others, [2]).map((o) => o.other.id)).toEqual([8]);
  });

  it('counts only confirmed settings, never the setting itself', () => {
    const asked = setting({ id: 5 });
    const near = '2026-12-01T19:30';
    for (const status of ['requested', 'declined', 'cancelled'] as const) {
      expect(settingOverlaps(asked, [{ ...confirmed(7, near, 10, 20), status }])).toEqual([]);
    }
    expect(settingOverlaps(asked, [{ ...confirmed(7, near, 10, 20), slot: null }])).toEqual([]);
    expect(settingOverlaps(asked, [confirmed(5, near, 10, 20)])).toEqual([]);
  });

  it('knows a woman of the enquiry service by her id there', () => {
    const asked = setting({ id: 5, woman: null, enquiryWoman: 3 });
    expect(settingOverlaps(asked, [confirmed(7, '2026-12-01T19:00', 11, null, 3)])).toHaveLength(1);
    expect(settingOverlaps(asked, [confirmed(7, '2026-12-01T19:00', 11, null, 4)])).toEqual([]);
    expect(settingOverlaps(asked, [confirmed(7, '2026-12-01T19:00', 11, null, null)])).toEqual([]);
  });

  // Minutes between two slots: anywhere within six hours, the two-hour edges drawn often.
  const apart = fc.oneof(
    fc.integer({ min: -360, max: 360 }),
    fc.constantFrom(-121, -120, -119, 119, 120, 121),
  );

  it('is symmetric and agrees with the distance in minutes, for any two slots', () => {
    const base = Date.UTC(2026, 0, 1);
    const minute = fc.integer({ min: 0, max: 3 * 366 * 24 * 60 });
    fc.assert(
      fc.property(minute, apart, (start, minutes) => {
        const a = slotOf(new Date(base + start * 60_000));
        const b = slotOf(new Date(base + (start + minutes) * 60_000));
        expect(slotsOverlap(a, b)).toBe(Math.abs(minutes) < 120);
        expect(slotsOverlap(b, a)).toBe(slotsOverlap(a, b));
      }),
    );
  });

  it('finds an overlap for a confirmed setting of his or hers within two hours, and only then', () => {
    fc.assert(
      fc.property(apart, fc.constantFrom('man', 'woman', 'neither'), (minutes, shared) => {
        const asked = setting({ id: 5 });
        const at = slotOf(new Date(slotInstant(asked.preferred[0]!)!.getTime() + minutes * 60_000));
        const man = shared === 'man' ? 10 : 11;
        const woman = shared === 'woman' ? 20 : 21;
        const found = settingOverlaps(asked, [confirmed(7, at, man, woman)], [1]);
        expect(found.length).toBe(shared !== 'neither' && Math.abs(minutes) < 120 ? 1 : 0);
      }),
    );
  });
});
