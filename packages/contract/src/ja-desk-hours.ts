/**
 * The desk's hours in words, derived from the admin's hours (product.md §9.3): in the auto-reply and the
 * calendar's preview. Apart from the talk's catalogue, so that only the auto-reply's chunk carries them.
 */
export const jaDeskHours = {
  /** A weekday in a list of closed days: 日曜. */
  closedDay: '{day}曜',
  holidays: '祝日',
  /** The closed days after the hours: （日曜・祝日休み）. */
  closed: '（{days}休み）',
  /** Opening hours of a group of weekdays when they differ: 月〜金 12:00〜20:00. */
  group: '{days} {span}',
  span: '{opens}〜{closes}',
  /** Three or more weekdays in a row: 月〜金. */
  run: '{from}〜{to}',
  daySeparator: '・',
  groupSeparator: '、',
} as const;
