import { jaMember, type ReportReply } from '@enishi/contract';

/*
 * The reports' tables (product.md §2.9): what each chart shows, as rows of text. The screen's tables, the
 * CSV files and the charts' axes all read these, so the three never disagree.
 */

const t = jaMember.reports;

/** Seconds as minutes with one decimal; a day without replies has none. */
export const minutes = (seconds: number | null): string =>
  seconds === null ? t.none : (seconds / 60).toFixed(1);

/** `2026-11-03` → `11/3`, as the charts' axes and the tables' first column read a day. */
export const shortDay = (day: string): string => `${Number(day.slice(5, 7))}/${Number(day.slice(8, 10))}`;

export interface ReportTable {
  key: 'replies' | 'staff' | 'messages' | 'open' | 'settings';
  title: string;
  file: string;
  header: readonly string[];
  /** The first cell of each row names it (a row header). */
  rows: string[][];
}

export function reportTables(report: ReportReply): ReportTable[] {
  return [
    {
      key: 'replies',
      ...t.replies,
      rows: report.days.map((day) => [day.day, String(day.replies), minutes(day.median), minutes(day.p90)]),
    },
    {
      key: 'staff',
      ...t.staff,
      rows: [
        ...report.staff.map((row) => [row.name, String(row.replies), minutes(row.median), minutes(row.p90)]),
        [
          t.staff.total,
          String(report.total.replies),
          minutes(report.total.median),
          minutes(report.total.p90),
        ],
      ],
    },
    {
      key: 'messages',
      ...t.messages,
      rows: report.days.map((day) => [
        day.day,
        String(day.from_members),
        String(day.from_staff),
        String(day.from_members + day.from_staff),
      ]),
    },
    {
      key: 'open',
      ...t.open,
      rows: report.days.map((day) => [day.day, String(day.open_talks)]),
    },
    {
      key: 'settings',
      ...t.settings,
      rows: report.settings.map((month) => [
        month.month,
        String(month.requested),
        String(month.arranged),
        String(month.declined),
        String(month.cancelled),
      ]),
    },
  ];
}
