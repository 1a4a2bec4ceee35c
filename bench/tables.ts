// The back office's member tables (product.md §2.8) with 10,000 men, each with his talk with staff (a tenth
// with unread messages): (1) the server's page of 50 (/api/members/table) sorted by last activity, by name
// and by unread count, p50/p99 over sequential requests in process, next to a primary-key read
// (/api/getuser) in the same run; (2) rendering one page in jsdom with TanStack Table, next to a plain table
// of the same 50 rows and a plain list of all 10,000 (what a list without paging would draw).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { JSDOM } from 'jsdom';
import { createElement as h, type ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/db/client.js';
import { conversations, messages, users } from '../server/src/db/schema.js';
import { hashPassword } from '../server/src/lib/passwords.js';
import { percentile, timed } from './lib.js';

const CHUNK = 1000;
const ms = (value: number) => `${value.toFixed(2).padStart(7)} ms`;

async function seed(db: Awaited<ReturnType<typeof openDatabase>>['db'], men: number) {
  const hash = await hashPassword('Bench-pass.1');
  for (let start = 0; start < men; start += CHUNK) {
    const batch = Array.from({ length: Math.min(CHUNK, men - start) }, (_, i) => ({
      loginId: `bench-m-${start + i}`,
      name: `計測 太郎${start + i}`,
      passwordHash: hash,
      role: 101,
      rank: 1 + ((start + i) % 6),
    }));
    const rows = await db.insert(users).values(batch).returning({ id: users.id });
    const talks = await db
      .insert(conversations)
      .values(
        rows.map(({ id }, i) => ({
          kind: 'desk' as const,
          memberId: id,
          lastActivityAt: new Date(Date.now() - (start + i) * 60_000),
        })),
      )
      .returning({ id: conversations.id, memberId: conversations.memberId });
    const unread = talks.filter((_, i) => (start + i) % 10 === 0);
    await db
      .insert(messages)
      .values(
        unread.map((talk) => ({ conversationId: talk.id, senderId: talk.memberId, body: 'こんにちは' })),
      );
  }
  await db.insert(users).values({ loginId: 'bench-staff', name: '計測 受付', passwordHash: hash, role: 3 });
}

async function serverFigures(men: number, requests: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'enishi-bench-tables-'));
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  try {
    await database.migrate();
    await seed(database.db, men);
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'none') });
    const app = await buildApp(config, { database });
    try {
      const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });
      const login = (await post('/api/login', { id: 'bench-staff', password: 'Bench-pass.1' })).json<{
        uid: number;
        session: string;
      }>();
      const page = (sort: string) => async () =>
        (
          await post('/api/members/table', {
            ssid: login.session,
            kind: 'men',
            sort,
            desc: true,
            page: Math.floor(Math.random() * 200),
            size: 50,
          })
        ).statusCode;
      for (let i = 0; i < 10; i++) await page('activity')();
      const pk = await timed(
        requests,
        async () => (await post('/api/getuser', { ssid: login.session, uid: login.uid })).statusCode,
      );
      console.log(`${'getuser (primary key, baseline)'.padEnd(40)} p50 ${ms(pk.p50)} p99 ${ms(pk.p99)}`);
      for (const sort of ['activity', 'name', 'unread']) {
        const figures = await timed(requests, page(sort));
        console.log(
          `${`members/table, 50 of ${men}, by ${sort}`.padEnd(40)} p50 ${ms(figures.p50)} p99 ${ms(figures.p99)}`,
        );
      }
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Row = { uid: number; name: string; id: string; rank: number; activity: string; unread: number };
const KEYS = ['name', 'id', 'rank', 'activity', 'unread'] as const;
const columns: ColumnDef<Row, unknown>[] = KEYS.map((key) => ({ id: key, accessorKey: key, header: key }));

function TanStackPage({ rows }: { rows: Row[] }): ReactElement {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel() });
  return h(
    'table',
    null,
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ...table
          .getFlatHeaders()
          .map((header) => h('th', { key: header.id }, String(header.column.columnDef.header))),
      ),
    ),
    h(
      'tbody',
      null,
      ...table
        .getRowModel()
        .rows.map((row) =>
          h(
            'tr',
            { key: row.id },
            ...row
              .getVisibleCells()
              .map((cell) =>
                h(
                  'td',
                  { key: cell.id },
                  flexRender(cell.column.columnDef.cell, cell.getContext()) as string,
                ),
              ),
          ),
        ),
    ),
  );
}

const PlainTable = ({ rows }: { rows: Row[] }) =>
  h(
    'table',
    null,
    h(
      'tbody',
      null,
      ...rows.map((row) =>
        h('tr', { key: row.uid }, ...KEYS.map((key) => h('td', { key }, String(row[key])))),
      ),
    ),
  );
const PlainList = ({ rows }: { rows: Row[] }) =>
  h(
    'ul',
    null,
    ...rows.map((row) =>
      h('li', { key: row.uid }, `${row.name} ${row.id} ${row.rank} ${row.activity} ${row.unread}`),
    ),
  );

function renderFigures(men: number, frames: number) {
  const dom = new JSDOM('<!doctype html><div id="root"></div>');
  Object.assign(globalThis, { window: dom.window, document: dom.window.document });
  const all: Row[] = Array.from({ length: men }, (_, i) => ({
    uid: i + 1,
    name: `計測 太郎${i}`,
    id: `bench-m-${i}`,
    rank: 1 + (i % 6),
    activity: '2026/11/26 18:00',
    unread: i % 10 === 0 ? 1 : 0,
  }));
  const measure = (label: string, draw: (page: number) => ReactElement, count: number) => {
    const root = createRoot(dom.window.document.getElementById('root')!);
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      flushSync(() => root.render(draw(i)));
      times.push(performance.now() - start);
    }
    root.unmount();
    times.sort((a, b) => a - b);
    console.log(`${label.padEnd(40)} p50 ${ms(percentile(times, 0.5))} p99 ${ms(percentile(times, 0.99))}`);
  };
  const pageOf = (page: number) => all.slice((page % 200) * 50, (page % 200) * 50 + 50);
  measure(
    'render: TanStack table, one page of 50',
    (page) => h(TanStackPage, { rows: pageOf(page) }),
    frames,
  );
  measure('render: plain table, same 50 rows', (page) => h(PlainTable, { rows: pageOf(page) }), frames);
  measure(
    `render: plain list of all ${men} (no paging)`,
    (page) => h(PlainList, { rows: page % 2 ? all : [...all].reverse() }),
    10,
  );
}

export async function benchTables({ men = 10_000, requests = 200, frames = 200 } = {}) {
  console.log(`\nMember tables (${men} men; server in process on PGlite, render in jsdom)`);
  await serverFigures(men, requests);
  renderFigures(men, frames);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTables();
