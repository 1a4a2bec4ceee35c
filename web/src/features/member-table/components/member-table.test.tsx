// @vitest-environment jsdom
import { jaMember, type MemberTableRow } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { MemberTable } from './member-table';

/*
 * The member table (product.md §2.8): its filters, sort and page live in the address; a filter with no hits
 * says so; a member who never logged in shows 未ログイン as 最終利用.
 */

const t = jaMember.table;
let rows: MemberTableRow[] = [];
let asked: Record<string, unknown>[] = [];

function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.search}</output>;
}

function show(address: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/menlist${address}`]}>
        <MemberTable kind="men" label="男性会員" openUid={null} onOpen={() => undefined} />
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
const address = () => screen.getByTestId('address').textContent;
const lastAsked = () => asked.at(-1);

beforeEach(() => {
  setSession({ uid: 1, role: 3, rank: 0, name: 'スタッフ', session: 's', image: null });
  rows = [];
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      asked.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return Promise.resolve(Response.json({ rows, total: rows.length }));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the member table', () => {
  it('reads its filters, sort and page from the address, so a reload finds the same table', async () => {
    show('?q=田中&rank=3&sort=name&order=asc&page=2&size=25');
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(lastAsked()).toMatchObject({
      kind: 'men',
      keyword: '田中',
      rank: 3,
      entry_type: -1,
      sort: 'name',
      desc: false,
      page: 1,
      size: 25,
    });
    expect((screen.getByRole('searchbox', { name: t.keyword }) as HTMLInputElement).value).toBe('田中');
    expect((screen.getByRole('combobox', { name: t.rank }) as HTMLSelectElement).value).toBe('3');
    expect(screen.getByRole('columnheader', { name: new RegExp(t.columns.name) }).ariaSort).toBe('ascending');
  });

  it('writes a filter, a sort and a page into the address, starting again from the first page', async () => {
    show('?page=3');
    fireEvent.change(screen.getByRole('searchbox', { name: t.keyword }), { target: { value: ' 佐藤 ' } });
    fireEvent.click(screen.getByRole('button', { name: t.search }));
    await waitFor(() => expect(address()).toBe('?q=%E4%BD%90%E8%97%A4'));
    fireEvent.change(screen.getByRole('combobox', { name: t.rank }), { target: { value: '2' } });
    await waitFor(() => expect(address()).toBe('?q=%E4%BD%90%E8%97%A4&rank=2'));
    fireEvent.click(screen.getByRole('button', { name: new RegExp(t.columns.id) }));
    await waitFor(() => expect(new URLSearchParams(address() ?? '').get('sort')).toBe('id'));
    await waitFor(() => expect(lastAsked()).toMatchObject({ keyword: '佐藤', rank: 2, sort: 'id', page: 0 }));
  });

  it('reads an address it does not understand as the defaults', async () => {
    show('?rank=99&sort=password&size=7&page=-1&entry=4');
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(lastAsked()).toMatchObject({
      rank: 0,
      sort: 'activity',
      desc: true,
      page: 0,
      size: 50,
      entry_type: -1,
    });
  });

  it('says 条件に合う記録はありません for a filter with no hits, and that nobody is there without one', async () => {
    show('?q=誰もいない');
    expect(await screen.findByText(t.noMatch)).toBeTruthy();
    expect(t.noMatch).toBe('条件に合う記録はありません');
    cleanup();
    show('');
    expect(await screen.findByText(t.empty)).toBeTruthy();
  });

  it('shows 未ログイン as 最終利用 of a member who never logged in', async () => {
    const row = {
      uid: 5,
      id: 'new-man',
      name: '新人 太郎',
      name_kana: null,
      role: 101,
      rank: 1,
      entry_type: null,
      unread: 0,
    };
    rows = [
      { ...row, last_activity: null, conversation_id: 9 },
      { ...row, uid: 6, name: '常連 次郎', last_activity: '2026-11-20T01:00:00.000Z', conversation_id: 10 },
    ];
    show('');
    const newcomer = (await screen.findByRole('rowheader', { name: '新人 太郎' })).closest('tr')!;
    expect(newcomer.querySelector('.member-table__cell--activity')?.textContent).toBe('未ログイン');
    const regular = screen.getByRole('rowheader', { name: '常連 次郎' }).closest('tr')!;
    expect(regular.querySelector('.member-table__cell--activity')?.textContent).toMatch(/2026/);
  });
});
