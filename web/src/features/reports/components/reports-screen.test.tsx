// @vitest-environment jsdom
import { jaMember, type ReportReply } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { ReportsScreen } from './reports-screen';

// jsdom has no canvas to draw on: the chart is a named image here; e2e/tests/reports.test.ts draws the real one.
vi.mock('./report-chart', () => ({
  ReportChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

/* Reports (product.md §2.9): each chart's table says its figures, and CSVダウンロード saves that table. */

const t = jaMember.reports;
const day = (date: string, extra: Partial<ReportReply['days'][number]> = {}) => ({
  day: date,
  replies: 0,
  median: null,
  p90: null,
  from_members: 0,
  from_staff: 0,
  open_talks: 0,
  ...extra,
});
const REPORT: ReportReply = {
  month: '2025-03',
  days: [
    day('2025-03-01', { replies: 1, median: 5400, p90: 5400, from_staff: 1, open_talks: 1 }),
    day('2025-03-02', { from_members: 3, from_staff: 2, open_talks: 2 }),
  ],
  staff: [{ uid: 7, name: '青木 二郎', replies: 2, median: 2400, p90: 3360 }],
  total: { replies: 5, median: 1200, p90: 4680 },
  settings: [{ month: '2025-03', requested: 3, arranged: 1, declined: 0, cancelled: 1 }],
};
let asked: Record<string, unknown>[] = [];
let downloads: { name: string; bytes: Promise<ArrayBuffer> }[] = [];

beforeEach(() => {
  setSession({ uid: 1, role: 1, rank: 0, name: '管理者', session: 's', image: null });
  asked = [];
  downloads = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      asked.push(body);
      if (url === '/api/reports' && body.month !== '2025-02') return Promise.resolve(Response.json(REPORT));
      return Promise.resolve(Response.json({ error: t.errors.badMonth }, { status: 400 }));
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
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ReportsScreen />
    </QueryClientProvider>,
  );
  fireEvent.change(screen.getByLabelText(t.month), { target: { value: '2025-03' } });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const tableOf = async (title: string) => within(await screen.findByRole('table', { name: title }));
const rowText = (table: ReturnType<typeof within>, name: string) =>
  table.getByRole('rowheader', { name }).closest('tr')!.textContent;

describe('reports', () => {
  it('shows each chart with a table of its figures, minutes with one decimal', async () => {
    const replies = await tableOf(t.replies.title);
    expect(rowText(replies, '2025-03-01')).toBe('2025-03-01190.090.0');
    expect(rowText(replies, '2025-03-02')).toBe(`2025-03-020${t.none}${t.none}`);
    const staff = await tableOf(t.staff.title);
    expect(rowText(staff, '青木 二郎')).toBe('青木 二郎240.056.0');
    expect(rowText(staff, t.staff.total)).toBe(`${t.staff.total}520.078.0`);
    expect(rowText(await tableOf(t.messages.title), '2025-03-02')).toBe('2025-03-02325');
    expect(rowText(await tableOf(t.open.title), '2025-03-02')).toBe('2025-03-022');
    expect(rowText(await tableOf(t.settings.title), '2025-03')).toBe('2025-033101');
    for (const title of [t.replies.title, t.staff.title, t.messages.title, t.open.title, t.settings.title])
      expect(screen.getByRole('img', { name: t.chartLabel(title) })).toBeTruthy();
    expect(asked.at(-1)).toEqual({ ssid: 's', month: '2025-03' });
  });

  it('downloads a table as CSV for Excel: a byte order mark, CRLF, the header row', async () => {
    await tableOf(t.staff.title);
    fireEvent.click(screen.getByRole('button', { name: t.csvOf(t.staff.title) }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.name).toBe('first-replies-by-staff-2025-03.csv');
    const bytes = new Uint8Array(await downloads[0]!.bytes);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
      '\uFEFFスタッフ,返信数,中央値(分),90パーセンタイル(分)\r\n青木 二郎,2,40.0,56.0\r\n全体,5,20.0,78.0\r\n',
    );
  });

  it('shows the server’s Japanese refusal of a month', async () => {
    fireEvent.change(screen.getByLabelText(t.month), { target: { value: '2025-02' } });
    expect((await screen.findByRole('alert')).textContent).toBe(t.errors.badMonth);
  });
});
