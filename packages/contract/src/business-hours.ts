/*
 * The club's business hours per weekday (product.md §9.3), apart from the auto-reply's rule and its holiday
 * table: a screen that only needs the defaults (the talk, before the calendar arrives) does not load those.
 */

/** One weekday's hours: open or not, and `HH:MM` opening and closing times (Japan time). */
export interface BusinessDay {
  open: boolean;
  opens: string;
  closes: string;
}
/** Seven days, Sunday (0) to Saturday (6), as `Date#getDay` counts them. */
export type BusinessHours = readonly BusinessDay[];

const WORKDAY: BusinessDay = { open: true, opens: '12:00', closes: '20:00' };
/** Until the admin edits them: 12:00 to 20:00, closed on Sundays (and, as always, on holidays). */
export const DEFAULT_HOURS: BusinessHours = [
  { ...WORKDAY, open: false },
  WORKDAY,
  WORKDAY,
  WORKDAY,
  WORKDAY,
  WORKDAY,
  WORKDAY,
];

/** Minutes after midnight of `HH:MM`. */
export const clockMinutes = (time: string): number => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
};
