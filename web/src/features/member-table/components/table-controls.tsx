import { ENTRY_TYPES, MEMBER_TABLE_PAGE_SIZES, jaMember, type MemberTableRow } from '@enishi/contract';
import type { Table } from '@tanstack/react-table';
import { useId, useState, type FormEvent } from 'react';
import type { TableAddress } from '../hooks/use-table-address';
import { ranksOf, type TableKind } from '../utils/columns';

/** The member table's controls (product.md §2.8): the filters above it and the pager below. */

const t = jaMember.table;

export type Filters = Pick<TableAddress, 'keyword' | 'rank' | 'entry_type'>;

export function TableFilters({
  kind,
  filters,
  onApply,
}: {
  kind: TableKind;
  filters: Filters;
  onApply: (filters: Filters) => void;
}) {
  const id = useId();
  const [keyword, setKeyword] = useState(filters.keyword);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...filters, keyword: keyword.trim() });
  };
  return (
    <form role="search" aria-label={t.filters} className="member-table__filters" onSubmit={submit}>
      <div className="member-table__filter">
        <label htmlFor={`${id}-keyword`}>{t.keyword}</label>
        <input
          id={`${id}-keyword`}
          type="search"
          maxLength={50}
          className="member-table__input"
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
        />
      </div>
      {kind === 'staff' ? null : (
        <div className="member-table__filter">
          <label htmlFor={`${id}-rank`}>{t.rank}</label>
          <select
            id={`${id}-rank`}
            className="member-table__input"
            value={filters.rank}
            onChange={(event) => onApply({ ...filters, rank: Number(event.target.value) })}
          >
            <option value={0}>{t.any}</option>
            {ranksOf(kind)
              .filter((item) => item.code > 0)
              .map((item) => (
                <option key={item.code} value={item.code}>
                  {item.label}
                </option>
              ))}
          </select>
        </div>
      )}
      {kind === 'women' ? (
        <div className="member-table__filter">
          <label htmlFor={`${id}-entry`}>{t.entryType}</label>
          <select
            id={`${id}-entry`}
            className="member-table__input"
            value={filters.entry_type}
            onChange={(event) => onApply({ ...filters, entry_type: Number(event.target.value) })}
          >
            <option value={-1}>{t.any}</option>
            {ENTRY_TYPES.map((item) => (
              <option key={item.code} value={item.code}>
                {item.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <button type="submit" className="btn btn--secondary member-table__apply">
        <span className="btn__label">{t.search}</span>
      </button>
    </form>
  );
}

export function Pager({ table, total }: { table: Table<MemberTableRow>; total: number }) {
  const { pageIndex, pageSize } = table.getState().pagination;
  const pages = Math.max(1, table.getPageCount());
  const pageId = useId();
  return (
    <nav className="member-table__pager" aria-label={t.pageOf(pageIndex + 1, pages)}>
      <p className="member-table__total" role="status">
        {t.total(total)}
      </p>
      <label className="member-table__size">
        <span>{t.pageSize}</span>
        <select
          className="member-table__input"
          value={pageSize}
          onChange={(event) => table.setPagination({ pageIndex: 0, pageSize: Number(event.target.value) })}
        >
          {MEMBER_TABLE_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      {/* At the first or last page, the page line (1 / 1 ページ) says why 前へ or 次へ is greyed out. */}
      <button
        type="button"
        className="btn btn--quiet"
        disabled={!table.getCanPreviousPage()}
        aria-describedby={table.getCanPreviousPage() ? undefined : pageId}
        onClick={() => table.previousPage()}
      >
        <span className="btn__label">{t.previous}</span>
      </button>
      <span id={pageId} className="member-table__page">
        {t.pageOf(pageIndex + 1, pages)}
      </span>
      <button
        type="button"
        className="btn btn--quiet"
        disabled={!table.getCanNextPage()}
        aria-describedby={table.getCanNextPage() ? undefined : pageId}
        onClick={() => table.nextPage()}
      >
        <span className="btn__label">{t.next}</span>
      </button>
    </nav>
  );
}
