import holidayJp from '@holiday-jp/holiday_jp';
import type { Plugin } from 'vite';

/*
 * The desk's auto-reply needs one thing of the Japanese holiday table (product.md §4.9): whether a date is a
 * public holiday, within a month of now. The library ships every holiday since 1970 with its names in two
 * languages (12.6 kB gzip); the app's build takes its dates from 2024 on instead (about 1 kB), read from the
 * library at build time, so the library stays the one source. Tests and the server use the library itself.
 */

const LIBRARY = '@holiday-jp/holiday_jp';
const COMPACT = '\0enishi-holidays';
/** The first date the app can ask about: nothing it shows looks back further than a day. */
export const HOLIDAYS_SINCE = '2024-01-01';

/** The module the build puts in the library's place: `holidays` keyed by `YYYY-MM-DD`, as the library's. */
export function compactHolidaysModule(holidays: Record<string, unknown>): string {
  const dates = Object.keys(holidays)
    .filter((date) => date >= HOLIDAYS_SINCE)
    .sort();
  return `const dates = ${JSON.stringify(dates.join(','))}.split(',');\nexport default { holidays: Object.fromEntries(dates.map((date) => [date, true])) };\n`;
}

export function compactHolidays(): Plugin {
  return {
    name: 'enishi-compact-holidays',
    enforce: 'pre',
    apply: 'build',
    resolveId: (id) => (id === LIBRARY ? COMPACT : undefined),
    load: (id) => (id === COMPACT ? compactHolidaysModule(holidayJp.holidays) : undefined),
  };
}
