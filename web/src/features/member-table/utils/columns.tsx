import {
  ENTRY_TYPES,
  MEMBER_TABLE_SORTS,
  MEN_RANKS_LABELS,
  WOMEN_RANKS,
  jaMember,
  lookupLabel,
  type MemberTableRow,
  type MemberTableSort,
} from '@enishi/contract';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { japanDateTime } from '@/lib/japan-date';

export type TableKind = 'men' | 'women' | 'staff';

const t = jaMember.table;
const helper = createColumnHelper<MemberTableRow>();

/** 最終利用: null when the member never logged in (product.md §2.8). */
export const activityText = (iso: string | null) =>
  iso ? japanDateTime.format(new Date(iso)) : t.neverLoggedIn;

/** The rank codes of a kind and their labels (men on the record, women in the profile). */
export const ranksOf = (kind: TableKind) => (kind === 'women' ? WOMEN_RANKS : MEN_RANKS_LABELS);

export const rankText = (kind: TableKind, rank: number) =>
  rank > 0 ? lookupLabel(ranksOf(kind), rank) || String(rank) : t.never;

export const entryTypeText = (code: number | null) =>
  code === null ? t.never : lookupLabel(ENTRY_TYPES, code) || String(code);

/** The data columns of a kind's table: their ids are the server's sort keys. */
export function dataColumns(kind: TableKind): ColumnDef<MemberTableRow, unknown>[] {
  const columns = [
    helper.accessor('name', { id: 'name', header: t.columns.name }),
    helper.accessor('id', { id: 'id', header: t.columns.id }),
    ...(kind === 'staff'
      ? []
      : [
          helper.accessor('rank', {
            id: 'rank',
            header: t.columns.rank,
            cell: (info) => rankText(kind, info.getValue()),
          }),
        ]),
    ...(kind === 'women'
      ? [
          helper.accessor('entry_type', {
            id: 'entry_type',
            header: t.columns.entry_type,
            cell: (info) => entryTypeText(info.getValue()),
          }),
        ]
      : []),
    helper.accessor('last_activity', {
      id: 'activity',
      header: t.columns.activity,
      cell: (info) => activityText(info.getValue()),
    }),
    ...(kind === 'staff'
      ? []
      : [
          helper.accessor('unread', {
            id: 'unread',
            header: t.columns.unread,
            cell: (info) => (info.getValue() > 0 ? info.getValue() : ''),
          }),
        ]),
  ];
  return columns as ColumnDef<MemberTableRow, unknown>[];
}

export const isSortKey = (id: string): id is MemberTableSort =>
  (MEMBER_TABLE_SORTS as readonly string[]).includes(id);
