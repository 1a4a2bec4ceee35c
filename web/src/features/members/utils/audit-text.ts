import {
  PROFILE_FIELDS,
  japaneseDate,
  ja,
  jaMember,
  lookupLabel,
  ROLE_TRAITS,
  type AuditRow,
  type AuditSnapshot,
  type Lookups,
  type ProfileField,
  slotLabel,
} from '@enishi/contract';
import { japanDateTime } from '@/lib/japan-date';

/*
 * The audit log in words (product.md §2.8): every action and field by its Japanese label, values as the
 * forms show them (codes by their labels, yes/no, added/deleted), people by the names stored with the row.
 */

export type AuditLine = { field: string; before: string; after: string };

const t = jaMember.audit;

export const kindLabel = (role: number): string => jaMember.members.kinds[ROLE_TRAITS[role]?.kind ?? 'staff'];

export const actionLabel = (action: string): string => t.actions[action] ?? t.values.changed;

/** A setting confirmed despite an overlap (product.md §18.5) is an `update` row with these changes. */
const isSettingOverride = (row: AuditRow): boolean => row.changes?.overlapReason !== undefined;

/** A row's action as the log shows it: a setting confirmed despite an overlap has its own label. */
export const rowActionLabel = (row: AuditRow): string =>
  isSettingOverride(row) ? t.settingOverride.action : actionLabel(row.action);

/** Who the row is about: the name the record had when the change was made. */
export const subjectName = (row: AuditRow): string =>
  row.target.name || row.after?.name || row.before?.name || t.unknownPerson;

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** One value of a profile field as the form shows it. */
export function profileValue(field: string, value: unknown, lookups: Lookups | undefined): string {
  if (isEmpty(value)) return jaMember.profile.unset;
  const spec = PROFILE_FIELDS[field as ProfileField] as (typeof PROFILE_FIELDS)[ProfileField] | undefined;
  if (spec && 'lookup' in spec) {
    const items = lookups?.[spec.lookup] ?? [];
    const codes = Array.isArray(value) ? value : [value];
    return codes
      .map((code) => (typeof code === 'number' ? lookupLabel(items, code) || String(code) : String(code)))
      .join('・');
  }
  if (typeof value === 'boolean') return value ? t.values.yes : t.values.no;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(String).join('・');
  return t.values.changed;
}

const fieldLabel = (field: string): string =>
  (jaMember.profile.fields as Record<string, string>)[field] ??
  t.recordFields[field] ??
  jaMember.security.auditField[field] ??
  field;

/** A value of the member record (the form's fields). */
function recordValue(field: keyof AuditSnapshot, snapshot: AuditSnapshot): string {
  const value = snapshot[field];
  if (field === 'rank') return ja.ranks[snapshot.rank] || jaMember.profile.unset;
  if (field === 'role') return ja.roles[snapshot.role] ?? kindLabel(snapshot.role);
  if (field === 'image') return value ? t.values.yes : t.values.no;
  return isEmpty(value) ? jaMember.profile.unset : String(value);
}

const RECORD_FIELDS: (keyof AuditSnapshot)[] = [
  'id',
  'name',
  'name_kana',
  'role',
  'rank',
  'introducer',
  'image',
];

function recordLines(row: AuditRow): AuditLine[] {
  const { before, after } = row;
  const lines: AuditLine[] = [];
  // A registration or a deletion shows the record it made or removed; any other change only what changed.
  const whole = row.action === 'add' || row.action === 'delete';
  for (const field of RECORD_FIELDS) {
    // Rank means nothing for women and staff.
    if (field === 'rank' && !ROLE_TRAITS[(after ?? before)?.role ?? 0]?.ranked) continue;
    const was = before ? recordValue(field, before) : '';
    const now = after ? recordValue(field, after) : '';
    if (whole ? (was || now) && field !== 'image' : was !== now) {
      lines.push({ field: fieldLabel(field), before: was, after: now });
    }
  }
  // A picture replaced by another is あり both before and after: the row still says the picture changed.
  if (row.action === 'image' && !(before && after && before.image !== after.image)) {
    lines.push({ field: fieldLabel('image'), before: '', after: t.values.changed });
  }
  if (row.password_reset)
    lines.push({ field: t.recordFields.password!, before: '', after: t.values.changed });
  return lines;
}

function changeLines(row: AuditRow, lookups: Lookups | undefined): AuditLine[] {
  return Object.entries(row.changes ?? {}).map(([field, [before, after]]) => {
    if (field === 'photo') {
      return {
        field: fieldLabel(field),
        before: '',
        after: isEmpty(after) ? t.values.photoDeleted : t.values.photoAdded,
      };
    }
    if (field === 'order') return { field: fieldLabel(field), before: '', after: t.values.reordered };
    return {
      field: fieldLabel(field),
      before: profileValue(field, before, lookups),
      after: profileValue(field, after, lookups),
    };
  });
}

/**
 * A message taken back (送信取消, product.md §15.4): which talk, the original words and how many pictures it
 * had (or which stamp it was); only the audit log keeps them.
 */
function unsendLines(row: AuditRow): AuditLine[] {
  const u = jaMember.unsend;
  const [talk, talkId] = row.changes?.talk ?? [];
  const [message] = row.changes?.message ?? [];
  const [images] = row.changes?.images ?? [];
  const count = Array.isArray(images) ? images.length : 0;
  const lines: AuditLine[] = [
    { field: u.auditFields.talk!, before: `${String(talk ?? '')} (ID ${String(talkId ?? '')})`, after: '' },
    {
      field: u.auditFields.message!,
      before: typeof message === 'string' ? message : '',
      after: u.auditUnsent,
    },
  ];
  if (count > 0)
    lines.push({ field: u.auditFields.images!, before: u.auditImages(count), after: u.auditUnsent });
  const [stamp] = row.changes?.stamp ?? [];
  if (typeof stamp === 'number')
    lines.push({ field: u.auditFields.stamp!, before: `ID ${stamp}`, after: u.auditUnsent });
  return lines;
}

/** One setting as the audit row keeps it: No.12 12月1日(火) 19:00 山田 太郎さん・佐藤 花子さん. */
function settingText(value: unknown): string {
  const { id, at, man, woman } = (value ?? {}) as { id?: number; at?: string; man?: string; woman?: string };
  return t.settingOverride.value(id ?? 0, slotLabel(at ?? ''), man ?? '', woman ?? '');
}

/** A setting confirmed despite an overlap: which, the confirmed settings it meets, and why. */
function settingOverrideLines(row: AuditRow): AuditLine[] {
  const o = t.settingOverride;
  const [, setting] = row.changes?.setting ?? [];
  const [, overlaps] = row.changes?.overlaps ?? [];
  const [, reason] = row.changes?.overlapReason ?? [];
  return [
    { field: o.setting, before: '', after: settingText(setting) },
    {
      field: o.overlaps,
      before: '',
      after: (Array.isArray(overlaps) ? overlaps : []).map(settingText).join('、'),
    },
    { field: o.reason, before: '', after: typeof reason === 'string' ? reason : '' },
  ];
}

/** A desk talk's status or 担当 (product.md §2.6): statuses by their words, 担当 by name or 担当なし. */
function deskLines(row: AuditRow): AuditLine[] {
  const d = jaMember.deskTalk;
  const word = (field: string, value: unknown) =>
    field === 'desk_status'
      ? (d.statuses[String(value)] ?? String(value))
      : typeof value === 'string' && value
        ? value
        : d.assigneeNone;
  return Object.entries(row.changes ?? {}).map(([field, [before, after]]) => ({
    field: d.auditFields[field] ?? field,
    before: word(field, before),
    after: word(field, after),
  }));
}

const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

/** One weekday's hours as the audit row keeps them: 12:00〜20:00, or 休み. */
function dayHours(value: unknown): string {
  const day = value as { open?: boolean; opens?: string; closes?: string } | undefined;
  if (!day) return '';
  return day.open ? `${day.opens ?? ''}〜${day.closes ?? ''}` : jaMember.calendar.closedDay;
}

/** A closing as the audit row keeps it: 年末年始 2026年12月29日(火) 〜 2027年1月3日(日). */
function closingText(value: unknown): string {
  const closing = value as { name?: string; start?: string; end?: string } | null;
  if (!closing?.start || !closing.end) return '';
  const c = jaMember.calendar;
  return `${closing.name ?? ''} ${c.period(japaneseDate(closing.start), japaneseDate(closing.end))}`;
}

/** A change of the club's calendar (product.md §9.3): each weekday whose hours changed, or the closing. */
function calendarLines(row: AuditRow): AuditLine[] {
  const c = jaMember.calendar;
  if (row.changes?.hours) {
    const [before, after] = row.changes.hours as [unknown[], unknown[]];
    return WEEK_ORDER.map((weekday) => ({
      field: c.weekday(ja.talk.weekdays[weekday]!),
      before: dayHours(before?.[weekday]),
      after: dayHours(after?.[weekday]),
    })).filter((line) => line.before !== line.after);
  }
  const [before, after] = row.changes?.closing ?? [];
  return [{ field: c.audit.closing, before: closingText(before), after: closingText(after) }];
}

/** A CSV import (product.md §2.8): how many members it registered, and their IDs. */
function importLines(row: AuditRow): AuditLine[] {
  const [, count] = row.changes?.count ?? [];
  const [, ids] = row.changes?.ids ?? [];
  return [
    { field: jaMember.memberImport.auditCount, before: '', after: String(count ?? '') },
    { field: t.recordFields.id!, before: '', after: Array.isArray(ids) ? ids.join('、') : '' },
  ];
}

/** What changed, field by field, in words. */
export function auditLines(row: AuditRow, lookups: Lookups | undefined): AuditLine[] {
  if (row.action === 'unsend') return unsendLines(row);
  if (row.action === 'desk') return deskLines(row);
  if (row.action === 'calendar') return calendarLines(row);
  if (row.action === 'import') return importLines(row);
  if (isSettingOverride(row)) return settingOverrideLines(row);
  return row.changes ? changeLines(row, lookups) : recordLines(row);
}

/** A CSV cell: quoted, quotes doubled, and a leading = + - @ defused so a spreadsheet never runs it. */
const cell = (value: string) => `"${(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value).replace(/"/g, '""')}"`;

/**
 * The log as CSV for Excel: UTF-8 with a byte order mark, CRLF, one line per changed field (a row without
 * field changes gets one line of its own).
 */
export function auditCsv(rows: AuditRow[], lookups: Lookups | undefined): string {
  const lines = [t.csvHeader.map(cell).join(',')];
  for (const row of rows) {
    const head = [
      japanDateTime.format(new Date(row.date)),
      rowActionLabel(row),
      kindLabel(row.target.role),
      subjectName(row),
      row.actor.name || t.unknownPerson,
    ];
    const changes = auditLines(row, lookups);
    for (const change of changes.length > 0 ? changes : [{ field: '', before: '', after: '' }]) {
      lines.push([...head, change.field, change.before, change.after].map(cell).join(','));
    }
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
