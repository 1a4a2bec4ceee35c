import { slotOf } from '@enishi/contract';

/*
 * Days of the settings calendar (product.md §2.8), as 'YYYY-MM-DD' in Japan time. Arithmetic on UTC
 * midnights of those strings, so no time zone of the browser enters.
 */

const DAY_MS = 86_400_000;
const at = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Today in Japan. */
export const japanToday = (now = new Date()): string => slotOf(now).slice(0, 10);

export const addDays = (day: string, days: number): string => dayOf(at(day) + days * DAY_MS);

/** Monday of the day's week (weeks start on Monday, as office calendars do). */
export function weekStart(day: string): string {
  const weekday = (new Date(at(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The seven days of the week holding `day`. */
export const weekDays = (day: string): string[] =>
  Array.from({ length: 7 }, (_, index) => addDays(weekStart(day), index));

/** The month of `day` as whole weeks (Monday first): 4 to 6 rows of 7 days. */
export function monthWeeks(day: string): string[][] {
  const first = `${day.slice(0, 7)}-01`;
  const month = first.slice(0, 7);
  const weeks: string[][] = [];
  for (let start = weekStart(first); start.slice(0, 7) <= month; start = addDays(start, 7)) {
    weeks.push(weekDays(start));
  }
  return weeks;
}

/** The same day a month later or earlier (the 1st, so no month is skipped). */
export function addMonths(day: string, months: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}
