// @vitest-environment jsdom
import { jaMember, type ImportRow } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { MemberTable } from './member-table';

/* CSVインポート on a member table (product.md §2.8): the preview's errors per cell, 取り込む, first passwords. */

const t = jaMember.memberImport;
const e = jaMember.members.errors;
const PASSWORDS = '\uFEFFID,初回パスワード\r\nimp-1,K7QM-3XZP-A9D2-HT4W-N6BE\r\n';
let previewRows: ImportRow[] = [];
let asked: { url: string; body: Record<string, unknown> }[] = [];
let downloads: string[] = [];

const row = (line: number, id: string, errors: ImportRow['errors'] = {}): ImportRow => ({
  line,
  cells: { name: `取込 ${line}`, name_kana: 'とりこみ', id, rank: '一般', introducer: '' },
  errors,
});

beforeEach(() => {
  setSession({ uid: 1, role: 3, rank: 0, name: 'スタッフ', session: 's', image: null });
  asked = [];
  downloads = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      asked.push({ url, body });
      if (url.endsWith('/members/import/preview')) {
        const errorCount = previewRows.filter((item) => Object.keys(item.errors).length > 0).length;
        return Promise.resolve(
          Response.json({ rows: previewRows, count: previewRows.length, error_count: errorCount }),
        );
      }
      if (url.endsWith('/members/import'))
        return Promise.resolve(
          Response.json({ count: 1, file_name: 'men-first-passwords.csv', csv: PASSWORDS }),
        );
      return Promise.resolve(Response.json({ rows: [], total: 0 }));
    }),
  );
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/menlist']}>
        <MemberTable kind="men" label="男性会員" openUid={null} onOpen={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const choose = (text: string) => {
  fireEvent.click(screen.getByRole('button', { name: t.open }));
  const input = screen.getByLabelText(t.file);
  fireEvent.change(input, { target: { files: [new File([text], 'members.csv', { type: 'text/csv' })] } });
};

describe('CSVインポート', () => {
  it('lists every row with the error of each bad cell, and does not offer 取り込む while one is bad', async () => {
    previewRows = [
      row(2, 'imp-1'),
      row(3, 'imp-1', { id: t.errors.duplicateInFile(2), name_kana: e.kanaInvalid }),
    ];
    choose('名前,ふりがな,ID,ランク,紹介者\r\n');
    const table = await screen.findByRole('table', { name: t.file });
    const bad = within(table).getByRole('row', { name: /^3 / });
    expect(within(bad).getByText(t.errors.duplicateInFile(2))).toBeTruthy();
    expect(within(bad).getByText(e.kanaInvalid)).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText(t.summary(2, 1))).toBeTruthy();
    expect((screen.getByRole('button', { name: t.submit }) as HTMLButtonElement).disabled).toBe(true);
    // The file went as base64 of its bytes, for the kind of the table.
    const sent = asked.find((call) => call.url.endsWith('/members/import/preview'))!.body;
    expect(sent.kind).toBe('men');
    const bytes = Uint8Array.from(atob(String(sent.file)), (char) => char.charCodeAt(0));
    expect(new TextDecoder().decode(bytes)).toBe('名前,ふりがな,ID,ランク,紹介者\r\n');
  });

  it('imports a clean file and offers the first passwords once, as a download', async () => {
    previewRows = [row(2, 'imp-1')];
    choose('名前,ふりがな,ID,ランク,紹介者\r\n取込,,imp-1,一般,\r\n');
    const submit = await screen.findByRole('button', { name: t.submit });
    expect(screen.getByText(t.summary(1, 0))).toBeTruthy();
    fireEvent.click(submit);
    fireEvent.click(await screen.findByRole('button', { name: t.passwordsDownload }));
    expect(downloads).toEqual(['men-first-passwords.csv']);
    expect(screen.getByText(t.done(1))).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.submit })).toBeNull();
    const imported = asked.filter((call) => call.url.endsWith('/members/import'));
    expect(imported).toHaveLength(1);
  });
});
