import { ja } from './ja.js';
import { jaDeskHours } from './ja-desk-hours.js';
import { DEFAULT_HOURS, type BusinessHours } from './business-hours.js';

/*
 * The desk's hours in words (product.md §9.3), from the admin's hours: in the auto-reply, the calendar's
 * preview and the course page. Apart from auto-reply.ts, so a screen that only states the hours does not
 * carry the holiday table.
 */

const fill = (template: string, values: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** Weekdays in the order the club reads a week: Monday first, Sunday last. */
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

/** Weekdays as the reply names them: three or more in a row as 月〜金, others as 土・日. */
function dayList(days: number[]): string {
  const w = ja.talk.weekdays;
  const t = jaDeskHours;
  const positions = days.map((day) => WEEK_ORDER.indexOf(day)).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < positions.length;) {
    let j = i;
    while (j + 1 < positions.length && positions[j + 1] === positions[j]! + 1) j += 1;
    const names = positions.slice(i, j + 1).map((position) => w[WEEK_ORDER[position]!]!);
    parts.push(
      names.length >= 3 ? fill(t.run, { from: names[0]!, to: names.at(-1)! }) : names.join(t.daySeparator),
    );
    i = j + 1;
  }
  return parts.join(t.daySeparator);
}

/**
 * The desk's hours in words, from the admin's hours: `12:00〜20:00（日曜・祝日休み）` when every open day
 * keeps the same hours, else `月〜金 12:00〜20:00、土 10:00〜17:00（日曜・祝日休み）`. Holidays always close.
 */
export function deskHoursText(hours: BusinessHours = DEFAULT_HOURS): string {
  const t = jaDeskHours;
  const groups = new Map<string, number[]>();
  for (const day of WEEK_ORDER) {
    const hoursOfDay = hours[day];
    if (!hoursOfDay?.open) continue;
    const span = fill(t.span, { opens: hoursOfDay.opens, closes: hoursOfDay.closes });
    groups.set(span, [...(groups.get(span) ?? []), day]);
  }
  const open =
    groups.size === 1
      ? [...groups.keys()][0]!
      : [...groups]
          .map(([span, days]) => fill(t.group, { days: dayList(days), span }))
          .join(t.groupSeparator);
  const closed = WEEK_ORDER.filter((day) => !hours[day]?.open).map((day) =>
    fill(t.closedDay, { day: ja.talk.weekdays[day]! }),
  );
  return open + fill(t.closed, { days: [...closed, t.holidays].join(t.daySeparator) });
}
