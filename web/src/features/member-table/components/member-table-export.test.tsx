// @vitest-environment jsdom
import { jaMember } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { currentToasts } from '@/lib/toast';
import { MemberTable } from './member-table';

/* CSVエクスポート on a member table (product.md §2.8): the table's filters and order, every page, downloaded. */

const t = jaMember.table;
const CSV = '\uFEFF名前,ふりがな,ID,ランク,紹介者\r\n';
let exportAsked: Record<string, unknown>[] = [];
let downloads: { name: string; bytes: Promise<ArrayBuffer> }[] = [];

beforeEach(() => {
  setSession({ uid: 1, role: 3, rank: 0, name: 'スタッフ', session: 's', image: null });
  exportAsked = [];
  downloads = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      if (!url.endsWith('/members/export')) return Promise.resolve(Response.json({ rows: [], total: 0 }));
      exportAsked.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return Promise.resolve(Response.json({ file_name: 'men-members.csv', csv: CSV, count: 120 }));
    }),
  );
  let blob: Blob | undefined;
  URL.createObjectURL = vi.fn((made: Blob) => {
    blob = made;
    return 'blob:csv';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, bytes: blob!.arrayBuffer() });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CSVエクスポート', () => {
  it('exports the filters and order of the address, every page, as the file the server names', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/menlist?q=田中&rank=3&sort=name&order=asc&page=2&size=25']}>
          <MemberTable kind="men" label="男性会員" openUid={null} onOpen={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: t.exportCsv }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(exportAsked).toEqual([
      { ssid: 's', kind: 'men', keyword: '田中', rank: 3, entry_type: -1, sort: 'name', desc: false },
    ]);
    expect(downloads[0]!.name).toBe('men-members.csv');
    // The byte order mark survives into the file, so Excel reads it as UTF-8.
    const bytes = new Uint8Array(await downloads[0]!.bytes);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(CSV);
    await waitFor(() => expect(currentToasts().map((shown) => shown.message)).toContain(t.exported(120)));
  });

  it('is not offered on the staff table', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/staff/list']}>
          <MemberTable kind="staff" label="スタッフ" openUid={null} onOpen={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.queryByRole('button', { name: t.exportCsv })).toBeNull();
  });
});
