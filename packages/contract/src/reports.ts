import { z } from 'zod';
import { ssid } from './common.js';
import { reports as jaReports } from './ja-member/reports.js';

/*
 * Reports (レポート, product.md §2.9): how fast the desk answers, how many messages a day, how many desk talks
 * stay open overnight, and the setting requests of each month. The admin and the owner (report.view).
 */

/** A report's month, `YYYY-MM` in Japan time. */
export const REPORT_MONTH = /^(20\d\d)-(0[1-9]|1[0-2])$/;
/** How many months the settings' series covers, ending with the report's month. */
export const REPORT_SETTING_MONTHS = 12;

// POST /api/reports {ssid, month: 'YYYY-MM'} -> ReportReply (report.view)
export const ReportBody = z
  .object({
    ssid,
    month: z.string({ error: jaReports.errors.badMonth }).regex(REPORT_MONTH, jaReports.errors.badMonth),
  })
  .strict();
export type ReportBody = z.input<typeof ReportBody>;

/** First replies: how many, and the median and 90th percentile of their waits in seconds (null: none). */
const ReplyFigures = z.object({
  replies: z.number(),
  median: z.number().nullable(),
  p90: z.number().nullable(),
});
export type ReplyFigures = z.infer<typeof ReplyFigures>;

export const ReportDay = ReplyFigures.extend({
  /** A Japan date, `YYYY-MM-DD`; the month's days up to today. */
  day: z.string(),
  /** Messages in desk talks that day: the members' and the staff's. */
  from_members: z.number(),
  from_staff: z.number(),
  /** Desk talks whose latest message at 23:59:59 that day was the member's. */
  open_talks: z.number(),
});
export type ReportDay = z.infer<typeof ReportDay>;

export const ReportStaff = ReplyFigures.extend({ uid: z.number(), name: z.string() });
export type ReportStaff = z.infer<typeof ReportStaff>;

export const ReportSettingMonth = z.object({
  month: z.string(),
  requested: z.number(),
  arranged: z.number(),
  declined: z.number(),
  cancelled: z.number(),
});
export type ReportSettingMonth = z.infer<typeof ReportSettingMonth>;

export const ReportReply = z.object({
  month: z.string(),
  days: z.array(ReportDay),
  /** Staff who sent a first reply that month, by reading order of their names. */
  staff: z.array(ReportStaff),
  /** The whole month's first replies. */
  total: ReplyFigures,
  /** The REPORT_SETTING_MONTHS months ending with this one, oldest first. */
  settings: z.array(ReportSettingMonth),
});
export type ReportReply = z.infer<typeof ReportReply>;
