import { ENTRY_TYPES, MEMBER_TABLE_PAGE_SIZES, type MemberTableSort } from '@enishi/contract';
import { useSearchParams } from 'react-router';
import type { MemberTableQuery } from '../api/member-table';
import { isSortKey, ranksOf, type TableKind } from '../utils/columns';

/**
 * A member table's filters, sort and page live in the address (product.md §2.8): `?q=` keyword, `rank`,
 * `entry` (entry type), `sort`, `order=asc`, `page` (from 1) and `size`; a default is left out. A reload or
 * coming back finds the same table; a value the table does not offer is read as its default.
 */
export interface TableAddress {
  keyword: string;
  rank: number;
  entry_type: number;
  sort: MemberTableSort;
  desc: boolean;
  page: number;
  size: MemberTableQuery['size'];
}

const DEFAULTS = { sort: 'activity' as MemberTableSort, desc: true, page: 0, size: 50 } as const;

function whole(raw: string | null, allowed: (value: number) => boolean, fallback: number): number {
  if (raw === null || !/^-?\d{1,6}$/.test(raw)) return fallback;
  const value = Number(raw);
  return allowed(value) ? value : fallback;
}

export function readTableAddress(params: URLSearchParams, kind: TableKind): TableAddress {
  const sort = params.get('sort') ?? '';
  const ranks = kind === 'staff' ? [] : ranksOf(kind).map((item) => item.code);
  const entries = kind === 'women' ? ENTRY_TYPES.map((item) => item.code) : [];
  return {
    keyword: (params.get('q') ?? '').trim().slice(0, 50),
    rank: whole(params.get('rank'), (code) => code > 0 && ranks.includes(code), 0),
    entry_type: whole(params.get('entry'), (code) => entries.includes(code), -1),
    sort: isSortKey(sort) ? sort : DEFAULTS.sort,
    desc: params.get('order') !== 'asc',
    page: whole(params.get('page'), (page) => page >= 1, 1) - 1,
    size: whole(
      params.get('size'),
      (size) => (MEMBER_TABLE_PAGE_SIZES as readonly number[]).includes(size),
      DEFAULTS.size,
    ) as TableAddress['size'],
  };
}

export function tableAddressParams(address: TableAddress): URLSearchParams {
  const params = new URLSearchParams();
  if (address.keyword) params.set('q', address.keyword);
  if (address.rank > 0) params.set('rank', String(address.rank));
  if (address.entry_type >= 0) params.set('entry', String(address.entry_type));
  if (address.sort !== DEFAULTS.sort) params.set('sort', address.sort);
  if (!address.desc) params.set('order', 'asc');
  if (address.page > 0) params.set('page', String(address.page + 1));
  if (address.size !== DEFAULTS.size) params.set('size', String(address.size));
  return params;
}

/** The table's state from the address, and a way to change it there (replacing the entry, as a search does). */
export function useTableAddress(kind: TableKind): [TableAddress, (next: TableAddress) => void] {
  const [params, setParams] = useSearchParams();
  const address = readTableAddress(params, kind);
  return [address, (next) => setParams(tableAddressParams(next), { replace: true })];
}
