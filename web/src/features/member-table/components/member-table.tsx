import { ja, jaMember, type MemberTableRow } from '@enishi/contract';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
  type Table,
} from '@tanstack/react-table';
import { useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { errorMessage } from '@/lib/api-client';
import { Spinner } from '@/components/ui/spinner';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/class-names';
import { useMemberTable, type MemberTableQuery } from '../api/member-table';
import { useTableAddress, type TableAddress } from '../hooks/use-table-address';
import type { MemberExportQuery } from '../api/export-members';
import { dataColumns, isSortKey, type TableKind } from '../utils/columns';
import { SelectionBar } from './selection-bar';
import { ExportButton } from './export-button';
import { ImportPanel } from './import-panel';
import { Pager, TableFilters, type Filters } from './table-controls';
import './member-table.css';
import { Phrases } from '@/components/ui/phrases';

const t = jaMember.table;

const NO_ROWS: MemberTableRow[] = [];

/** The checkbox column: rows are chosen for a bulk send (men and women). */
function selectColumn(): ColumnDef<MemberTableRow, unknown> {
  return {
    id: 'select',
    header: ({ table }) => (
      <input
        type="checkbox"
        className="member-table__check"
        aria-label={t.selectAll}
        checked={table.getIsAllPageRowsSelected()}
        ref={(input) => {
          if (input) input.indeterminate = table.getIsSomePageRowsSelected();
        }}
        onChange={table.getToggleAllPageRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        className="member-table__check"
        aria-label={t.selectRow(row.original.name)}
        checked={row.getIsSelected()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  };
}

/**
 * A member table of the back office (product.md §2.8), in the style of react-admin: sorted by any column,
 * filtered by keyword, rank and entry type, paged on the server (10,000 members read 50 at a time), rows
 * chosen for a bulk send; a row's name opens the record beside the table.
 */
export function MemberTable({
  kind,
  label,
  openUid,
  onOpen,
}: {
  kind: TableKind;
  /** 男性会員, 女性会員, スタッフ. */
  label: string;
  openUid: number | null;
  onOpen: (row: MemberTableRow) => void;
}) {
  const [address, setAddress] = useTableAddress(kind);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const filters: Filters = { keyword: address.keyword, rank: address.rank, entry_type: address.entry_type };
  const sorting: SortingState = [{ id: address.sort, desc: address.desc }];
  const paging = { pageIndex: address.page, pageSize: address.size };
  const query: MemberTableQuery = { kind, ...address };
  const result = useMemberTable(query);
  const total = result.data?.total ?? 0;
  const columns = useMemo(
    () => (kind === 'staff' ? dataColumns(kind) : [selectColumn(), ...dataColumns(kind)]),
    [kind],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- the table keeps no state of its own here
  const table = useReactTable({
    data: result.data?.rows ?? NO_ROWS,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.uid),
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    rowCount: total,
    state: { sorting, pagination: paging, rowSelection: selection },
    onSortingChange: (update) => {
      const sort = (typeof update === 'function' ? update(sorting) : update)[0];
      if (sort && isSortKey(sort.id)) setAddress({ ...address, sort: sort.id, desc: sort.desc, page: 0 });
    },
    onPaginationChange: (update) => {
      const next = typeof update === 'function' ? update(paging) : update;
      setAddress({ ...address, page: next.pageIndex, size: next.pageSize as MemberTableQuery['size'] });
    },
    onRowSelectionChange: setSelection,
  });
  const applyFilters = (next: Filters) => setAddress({ ...address, ...next, page: 0 });
  const filtered = filters.keyword !== '' || filters.rank > 0 || filters.entry_type >= 0;

  return (
    <div className="member-table">
      {/* Keyed by the keyword: back and forward put the address's keyword in the box. */}
      <TableFilters key={filters.keyword} kind={kind} filters={filters} onApply={applyFilters} />
      {kind === 'staff' ? null : (
        <TableActions kind={kind} query={exportQuery(kind, address)}>
          <SelectionBar kind={kind} selected={selection} onClear={() => setSelection({})} />
        </TableActions>
      )}
      <div className="member-table__scroll" aria-busy={result.isFetching || undefined}>
        <table className="member-table__table">
          <caption className="visually-hidden">{t.caption(label)}</caption>
          <TableHead table={table} />
          <TableBody table={table} openUid={openUid} onOpen={onOpen} />
        </table>
        <TableStatus result={result} empty={total === 0} filtered={filtered} />
      </div>
      <Pager table={table} total={total} />
    </div>
  );
}

/** Above a men's or women's table: the selection's bulk send, CSVインポート and CSVエクスポート. */
function TableActions({
  kind,
  query,
  children,
}: {
  kind: 'men' | 'women';
  query: MemberExportQuery;
  children: ReactNode;
}) {
  const [importing, setImporting] = useState(false);
  return (
    <>
      <div className="member-table__actions">
        {children}
        <Button
          type="button"
          variant="secondary"
          aria-expanded={importing}
          onClick={() => setImporting((open) => !open)}
        >
          {jaMember.memberImport.open}
        </Button>
        <ExportButton query={query} />
      </div>
      {importing ? <ImportPanel kind={kind} onClose={() => setImporting(false)} /> : null}
    </>
  );
}

/** The export's query: the table's filters and order, every page (product.md §2.8). */
function exportQuery(kind: 'men' | 'women', address: TableAddress): MemberExportQuery {
  const { page: _page, size: _size, ...filtersAndOrder } = address;
  return { kind, ...filtersAndOrder };
}

/** While the page loads, why it failed, or that no member matches (the filters, or at all). */
function TableStatus({
  result,
  empty,
  filtered,
}: {
  result: ReturnType<typeof useMemberTable>;
  empty: boolean;
  filtered: boolean;
}) {
  return (
    <>
      {result.isPending ? <Spinner label={ja.app.loading} /> : null}
      {result.isError ? (
        <p className="notice-box" role="alert">
          <Phrases text={errorMessage(result.error)} />
        </p>
      ) : null}
      {result.isSuccess && empty ? (
        <p className="notice-box">
          <Phrases text={filtered ? t.noMatch : t.empty} />
        </p>
      ) : null}
    </>
  );
}

/** The rows: a click anywhere on one opens the member's record beside the table; the name is its button. */
function TableBody({
  table,
  openUid,
  onOpen,
}: {
  table: Table<MemberTableRow>;
  openUid: number | null;
  onOpen: (row: MemberTableRow) => void;
}) {
  return (
    <tbody>
      {table.getRowModel().rows.map((row) => (
        <tr
          key={row.id}
          data-member-row={row.original.uid}
          className={cx(row.original.uid === openUid && 'member-table__row--open')}
          aria-selected={row.getIsSelected()}
          onClick={(event: MouseEvent) => {
            // A click anywhere on the row opens it; the checkbox and the name's button do their own.
            if (!(event.target as HTMLElement).closest('input, button, a')) onOpen(row.original);
          }}
        >
          {row.getVisibleCells().map((cell) =>
            cell.column.id === 'name' ? (
              <th key={cell.id} scope="row">
                <button
                  type="button"
                  className="member-table__open"
                  aria-expanded={row.original.uid === openUid}
                  onClick={() => onOpen(row.original)}
                >
                  {row.original.name}
                </button>
                {/* The reading the table sorts 名前 by (product.md §5.7). */}
                {row.original.name_kana ? (
                  <span className="member-table__kana">{row.original.name_kana}</span>
                ) : null}
              </th>
            ) : (
              <td key={cell.id} className={`member-table__cell--${cell.column.id}`}>
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </td>
            ),
          )}
        </tr>
      ))}
    </tbody>
  );
}

function TableHead({ table }: { table: Table<MemberTableRow> }) {
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => {
            const sorted = header.column.getIsSorted();
            const sortable = isSortKey(header.column.id);
            return (
              <th
                key={header.id}
                scope="col"
                className={`member-table__head--${header.column.id}`}
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
              >
                {sortable ? (
                  <button
                    type="button"
                    className="member-table__sort"
                    onClick={header.column.getToggleSortingHandler()}
                  >
                    {flexRender(header.column.columnDef.header, header.getContext())}
                    <span aria-hidden="true" className="member-table__arrow">
                      {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '⇅'}
                    </span>
                  </button>
                ) : (
                  flexRender(header.column.columnDef.header, header.getContext())
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}
