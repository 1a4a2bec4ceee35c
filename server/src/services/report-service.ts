import {
  REPORT_SETTING_MONTHS,
  can,
  japanTime,
  type ReportReply,
  type ReportSettingMonth,
  type ReportStaff,
} from '@enishi/contract';
import { forbidden } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { ReplyGroup, ReportRepository } from '../repositories/report-repository.js';
import type { Actor } from './session-service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM` moved by `by` months. */
function addMonths(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const moved = new Date(Date.UTC(year, number - 1 + by, 1));
  return moved.toISOString().slice(0, 7);
}

/** The first instant of a Japan month. */
const monthStart = (month: string) => `${month}-01T00:00:00+09:00`;

/** The month's Japan dates up to `today` (none for a month still to come). */
function daysOf(month: string, today: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${month}-01T00:00:00Z`); ; time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    if (!day.startsWith(month) || day > today) return days;
    days.push(day);
  }
}

const figures = (group: ReplyGroup | undefined) => ({
  replies: group?.replies ?? 0,
  median: group?.median ?? null,
  p90: group?.p90 ?? null,
});

/**
 * Reports (product.md §2.9): a month's first replies (by day, by staff member, in all), desk messages and open
 * desk talks by day, and the settings of the twelve months up to it. The admin and the owner (report.view).
 */
export class ReportService {
  constructor(
    private readonly reports: ReportRepository,
    private readonly clock: Clock,
  ) {}

  async month(actor: Actor, month: string): Promise<ReportReply> {
    if (!can(actor, 'report.view')) throw forbidden();
    const today = japanTime(new Date(this.clock())).dateKey;
    const days = daysOf(month, today);
    const end = monthStart(addMonths(month, 1));
    const [talks, settings] = await Promise.all([
      this.reports.talkFigures({ start: monthStart(month), end, firstDay: `${month}-01` }),
      this.reports.settingFigures(monthStart(addMonths(month, 1 - REPORT_SETTING_MONTHS)), end),
    ]);
    const byDay = new Map(
      talks.replies.filter((group) => group.grouped === 1).map((group) => [group.day, group]),
    );
    const perDay = new Map(talks.days.map((row) => [row.day, row]));
    let open = 0;
    return {
      month,
      days: days.map((day) => {
        const counts = perDay.get(day);
        open += counts?.change ?? 0;
        return {
          day,
          ...figures(byDay.get(day)),
          from_members: counts?.members ?? 0,
          from_staff: counts?.staff ?? 0,
          open_talks: open,
        };
      }),
      staff: staffRows(talks.replies),
      total: figures(talks.replies.find((group) => group.grouped === 3)),
      settings: settingMonths(month, settings),
    };
  }
}

/** Who sent first replies, in あいうえお order of their readings, then names (a deleted account last). */
function staffRows(groups: ReplyGroup[]): ReportStaff[] {
  return groups
    .filter((group) => group.grouped === 2 && group.staff_id !== null)
    .sort(
      (a, b) =>
        Number(a.name_kana === null) - Number(b.name_kana === null) ||
        (a.name_kana ?? '').localeCompare(b.name_kana ?? '', 'ja') ||
        (a.name ?? '').localeCompare(b.name ?? '', 'ja'),
    )
    .map((group) => ({ uid: group.staff_id!, name: group.name ?? '', ...figures(group) }));
}

function settingMonths(month: string, rows: { month: string; status: string; count: number }[]) {
  const result: ReportSettingMonth[] = [];
  for (let back = REPORT_SETTING_MONTHS - 1; back >= 0; back--) {
    const key = addMonths(month, -back);
    const count = (status: string) =>
      rows.find((row) => row.month === key && row.status === status)?.count ?? 0;
    result.push({
      month: key,
      requested: count('requested'),
      arranged: count('arranged'),
      declined: count('declined'),
      cancelled: count('cancelled'),
    });
  }
  return result;
}
