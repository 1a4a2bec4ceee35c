import holidayJp from '@holiday-jp/holiday_jp';
import { describe, expect, it } from 'vitest';
import { compactHolidaysModule, HOLIDAYS_SINCE } from './compact-holidays';

/** The module the build bundles, run as the browser runs it. */
async function bundled(): Promise<Record<string, unknown>> {
  const code = compactHolidaysModule(holidayJp.holidays);
  const module = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
    default: { holidays: Record<string, unknown> };
  };
  return module.default.holidays;
}

describe("the app's holiday table (product.md §4.9)", () => {
  it('holds every holiday of the library from 2024 on, and nothing else', async () => {
    const holidays = await bundled();
    const library = Object.keys(holidayJp.holidays).filter((date) => date >= HOLIDAYS_SINCE);
    expect(Object.keys(holidays).sort()).toEqual(library.sort());
    expect(library.length).toBeGreaterThan(400);
    // 勤労感謝の日 and a 振替休日; the day after is an ordinary Tuesday.
    expect(Object.hasOwn(holidays, '2026-11-23')).toBe(true);
    expect(Object.hasOwn(holidays, '2025-11-24')).toBe(true);
    expect(Object.hasOwn(holidays, '2026-11-24')).toBe(false);
  });
});
