// Reports (product.md §2.9): a month's report over 1,000,000 messages on PostgreSQL, next to a plain
// count(*) of the same month's messages in the same run and on the same data. Seeds with INSERT ... SELECT
// generate_series (12 months of desk talks of 10,000 members and 5 staff), then times the real service.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../server/src/db/client.js';
import { rowsOf } from '../server/src/db/raw.js';
import { systemClock } from '../server/src/lib/clock.js';
import { ReportRepository } from '../server/src/repositories/report-repository.js';
import { ReportService } from '../server/src/services/report-service.js';
import type { Actor } from '../server/src/services/session-service.js';

const FIRST = '2024-12-01T00:00:00+09:00';
const MONTH = '2025-06';

export async function seed(handle: DatabaseHandle, messages: number, members: number) {
  const { db } = handle;
  await db.execute(sql`insert into users (login_id, name, password_hash, role)
    select 'bench-staff' || g, 'スタッフ' || g, 'x', 1 + g % 3 from generate_series(1, 5) g`);
  await db.execute(sql`insert into users (login_id, name, password_hash, role)
    select 'bench-m' || g, '会員' || g, 'x', case when g % 2 = 0 then 101 else 201 end
    from generate_series(1, ${members}) g`);
  await db.execute(sql`insert into conversations (kind, member_id, name)
    select 'desk', id, '' from users where role in (101, 201)`);
  // About half the messages are the members', the rest one of the staff's; spread evenly over 12 months.
  await db.execute(sql`
    with c as (
      select array_agg(id order by id) as ids, array_agg(member_id order by id) as members
      from conversations where kind = 'desk'
    ), s as (select array_agg(id order by id) as ids from users where role between 1 and 3)
    insert into messages (conversation_id, sender_id, body, created_at)
    select c.ids[k], case when abs(hashint4(g * 7)) % 2 = 0 then c.members[k]
        else s.ids[1 + abs(hashint4(g * 11)) % array_length(s.ids, 1)] end,
      'メッセージ' || g, ${FIRST}::timestamptz + (g::float8 / ${messages}) * interval '365 days'
    from generate_series(1, ${messages}) g, c, s,
      lateral (select 1 + abs(hashint4(g)) % array_length(c.ids, 1) as k) pick`);
  await db.execute(sql`
    insert into setting_requests (man_id, woman_id, preferred1, preferred2, preferred3, status, created_at, decided_at)
    select m.id, w.id, now(), now(), now(), (array['requested', 'arranged', 'declined', 'cancelled'])[1 + g % 4],
      ${FIRST}::timestamptz + (g::float8 / 5000) * interval '365 days',
      case when g % 4 = 0 then null else ${FIRST}::timestamptz + (g::float8 / 5000) * interval '365 days' + interval '3 days' end
    from generate_series(1, 5000) g
    join users m on m.login_id = 'bench-m' || (2 + 2 * (g % 100))
    join users w on w.login_id = 'bench-m' || (1 + 2 * (g % 100))`);
  await handle.db.execute(sql`vacuum analyze`);
}

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;

async function time(runs: number, work: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return { p50: median(times), max: Math.max(...times) };
}

/** A month's report next to a count(*) of that month's messages, on a scratch PostgreSQL database. */
export async function benchReports(options: {
  postgresUrl?: string | undefined;
  messages: number;
  runs?: number;
}) {
  console.log('\nReports: a month of first replies, messages, open talks and settings');
  if (!options.postgresUrl) {
    console.log('(skipped: needs BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const { scratchDatabase } = await import('./postgres.js');
  const scratch = await scratchDatabase(options.postgresUrl);
  const handle = await openDatabase({ databaseUrl: scratch.url });
  try {
    await handle.migrate();
    const started = performance.now();
    await seed(handle, options.messages, 10_000);
    const seedSeconds = (performance.now() - started) / 1000;
    const reports = new ReportService(new ReportRepository(handle.db), systemClock);
    const admin: Actor = { uid: 1, role: 1, loginId: '', rank: 0, name: '', image: null, sessionId: '' };
    const [inMonth] = rowsOf<{ count: number }>(
      await handle.db.execute(sql`select count(*)::int as count from messages
        where created_at >= '2025-06-01T00:00:00+09:00' and created_at < '2025-07-01T00:00:00+09:00'`),
    );
    const runs = options.runs ?? 20;
    console.log(
      `${options.messages.toLocaleString()} messages in 10,000 desk talks over 12 months, ${inMonth!.count.toLocaleString()} in ${MONTH} (seeded in ${seedSeconds.toFixed(0)} s), ${runs} runs each`,
    );
    const cases: [string, () => Promise<unknown>][] = [
      [
        `baseline: count(*) of ${MONTH}'s messages`,
        () =>
          handle.db.execute(sql`select count(*) from messages
            where created_at >= '2025-06-01T00:00:00+09:00' and created_at < '2025-07-01T00:00:00+09:00'`),
      ],
      [`/api/reports ${MONTH} (ReportService)`, () => reports.month(admin, MONTH)],
    ];
    for (const [name, work] of cases) {
      const figures = await time(runs, work);
      console.log(
        `${name.padEnd(44)} p50 ${figures.p50.toFixed(1).padStart(7)} ms   max ${figures.max.toFixed(1).padStart(7)} ms`,
      );
    }
  } finally {
    await handle.close();
    await scratch.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchReports({
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    messages: Number(process.env.BENCH_REPORT_MESSAGES ?? 1_000_000),
  });
}
