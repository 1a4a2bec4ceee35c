// Message search (product.md §11.6) over a large message table, next to a plain read of a talk's newest page
// in the same run and on the same data. Seeds with one INSERT ... SELECT generate_series, then times the
// real statements (DeskService.search and MessageRepository.page) one after another. Bounded in rows and runs.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../server/src/db/client.js';
import { systemClock } from '../server/src/lib/clock.js';
import { ConversationRepository } from '../server/src/repositories/conversation-repository.js';
import { DeskRepository } from '../server/src/repositories/desk-repository.js';
import { MessageRepository } from '../server/src/repositories/message-repository.js';
import { UserRepository } from '../server/src/repositories/user-repository.js';
import { ConversationService } from '../server/src/services/conversation-service.js';
import { DeskService } from '../server/src/services/desk-service.js';
import type { Actor } from '../server/src/services/session-service.js';

export interface SearchBenchOptions {
  messages: number;
  members?: number;
  runs?: number;
}

// Words the seeded messages are made of; `鰻重の予約` is rare (one message in 20,000).
const WORDS = [
  '今日は',
  '明日の',
  '週末に',
  '東京駅で',
  '銀座の',
  'カフェ',
  'レストラン',
  'お見合い',
  'よろしくお願いします',
  'ありがとうございます',
  '了解です',
  '確認します',
  '楽しみにしています',
  'お待ちしております',
  '写真を送ります',
  'セッティング',
  '日程',
  '調整',
  'ご連絡',
  'プロフィール',
];

async function seed(handle: DatabaseHandle, messages: number, members: number) {
  const { db } = handle;
  await db.execute(sql`insert into users (login_id, name, password_hash, role)
    select 'bench-staff', '計測スタッフ', 'x', 3`);
  await db.execute(sql`insert into users (login_id, name, password_hash, role)
    select 'bench-m' || g, '会員' || g, 'x', 101 from generate_series(1, ${members}) g`);
  await db.execute(sql`insert into conversations (kind, member_id, name)
    select 'desk', id, '' from users where role = 101`);
  // The index is built once after the rows, as a restore would; the row count is what it is measured on.
  await db.execute(sql`drop index if exists messages_body_trgm_idx`);
  const words = sql.raw(`(array[${WORDS.map((word) => `'${word}'`).join(',')}])`);
  await db.execute(sql`
    with c as (select array_agg(id order by id) as ids from conversations where kind = 'desk')
    insert into messages (conversation_id, sender_id, body, created_at)
    select c.ids[1 + (abs(hashint4(g)) % array_length(c.ids, 1))], null,
      ${words}[1 + abs(hashint4(g * 3)) % ${WORDS.length}] || ${words}[1 + abs(hashint4(g * 5)) % ${WORDS.length}]
        || ${words}[1 + abs(hashint4(g * 7)) % ${WORDS.length}]
        || case when g % 20000 = 0 then '鰻重の予約' else '' end || g,
      now() - make_interval(secs => ${messages} - g)
    from generate_series(1, ${messages}) g, c`);
  await db.execute(sql`create index messages_body_trgm_idx on messages using gin (body gin_trgm_ops)`);
  await db.execute(sql`analyze`);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function time(runs: number, work: (run: number) => Promise<unknown>) {
  for (let i = 0; i < Math.min(5, runs); i++) await work(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function measure(label: string, handle: DatabaseHandle, options: SearchBenchOptions) {
  const members = options.members ?? 1000;
  const runs = options.runs ?? 200;
  const started = performance.now();
  await seed(handle, options.messages, members);
  const seedSeconds = (performance.now() - started) / 1000;
  const { db } = handle;
  const desk = new DeskService(
    new DeskRepository(db),
    new ConversationService(new ConversationRepository(db), new UserRepository(db), systemClock),
    systemClock,
  );
  const messages = new MessageRepository(db);
  const ids = (await db.execute(
    sql`select id, member_id from conversations where kind = 'desk' order by id`,
  )) as unknown;
  const talks = (Array.isArray(ids) ? ids : (ids as { rows: unknown[] }).rows) as {
    id: number;
    member_id: number;
  }[];
  const staffRow = await db.execute(sql`select id from users where role = 3 limit 1`);
  const staff = (Array.isArray(staffRow) ? staffRow : (staffRow as { rows: { id: number }[] }).rows)[0] as {
    id: number;
  };
  const actor = (uid: number, role: number): Actor => ({
    uid,
    role,
    loginId: '',
    rank: 0,
    name: '',
    image: null,
    sessionId: '',
  });
  const staffActor = actor(staff.id, 3);
  const talk = (run: number) => talks[run % talks.length]!;

  const cases: [string, (run: number) => Promise<unknown>][] = [
    ['plain read: a talk’s newest 50', (run) => messages.page(talk(run).id, undefined, 51)],
    ['staff, all talks, common word 東京駅で', () => desk.search(staffActor, { q: '東京駅で' })],
    ['staff, all talks, rare word 鰻重の予約', () => desk.search(staffActor, { q: '鰻重の予約' })],
    ['staff, all talks, 2 characters 鰻重', () => desk.search(staffActor, { q: '鰻重' })],
    [
      'staff, one talk, 確認します',
      (run) => desk.search(staffActor, { q: '確認します', conversation_id: talk(run).id }),
    ],
    ['member, own talks, カフェ', (run) => desk.search(actor(talk(run).member_id, 101), { q: 'カフェ' })],
  ];
  console.log(
    `\n${label}: ${options.messages.toLocaleString()} messages in ${members} talks (seeded in ${seedSeconds.toFixed(0)} s), ${runs} runs each`,
  );
  for (const [name, work] of cases) {
    const figures = await time(runs, work);
    console.log(
      `${name.padEnd(44)} p50 ${figures.p50.toFixed(1).padStart(7)} ms   p99 ${figures.p99.toFixed(1).padStart(7)} ms`,
    );
  }
}

/** Search next to a plain read on PostgreSQL (a scratch database) and, when asked, on PGlite in memory. */
export async function benchSearch(options: {
  postgresUrl?: string | undefined;
  messages: number;
  pgliteMessages: number;
  runs?: number;
}) {
  console.log('\nMessage search (pg_trgm) next to a plain read');
  if (options.postgresUrl) {
    const { scratchDatabase } = await import('./socket.js');
    const scratch = await scratchDatabase(options.postgresUrl);
    const handle = await openDatabase({ databaseUrl: scratch.url });
    try {
      await handle.migrate();
      await measure('PostgreSQL', handle, { messages: options.messages, runs: options.runs ?? 200 });
    } finally {
      await handle.close();
      await scratch.drop();
    }
  }
  if (options.pgliteMessages > 0) {
    const handle = await openDatabase({});
    try {
      await handle.migrate();
      await measure('PGlite (in memory)', handle, {
        messages: options.pgliteMessages,
        runs: options.runs ?? 200,
      });
    } finally {
      await handle.close();
    }
  }
}
