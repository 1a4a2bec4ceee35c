// One bulk send (一括送信) to every member of a large club, with part of them connected over the chat socket.
// Seeds a fresh database (the embedded PGlite, and a scratch PostgreSQL database when a URL is given), starts
// the built server on 127.0.0.1, and measures how long the send takes to be stored and to reach every
// connected recipient, next to baselines from the same run: one plain statement inserting as many rows into a
// scratch table of the same database, and a ws ping answered over the same sockets. Bounded in members,
// sockets and time.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { openDatabase } from '../server/src/db/client.js';
import { rowsOf } from '../server/src/db/raw.js';
import { cpuMs, startEnishi } from './lib.js';
import { scratchDatabase } from './postgres.js';
import { seed, TEXT, type Where } from './bulk-seed.js';

export interface BulkSendOptions {
  /** Members of the group, all of them recipients. */
  members?: number;
  /** How many of them hold a chat socket open during the send. */
  connected?: number;
  /** Also on a scratch database of this PostgreSQL (the embedded PGlite is always measured). */
  postgresUrl?: string | undefined;
  /** The PostgreSQL run's server uses this Redis (emptied first), as several instances would. */
  redisUrl?: string | undefined;
  /** The whole measurement of one engine gives up after this. */
  timeoutMs?: number;
}

export interface BulkSendResult {
  engine: string;
  members: number;
  connected: number;
  seedMs: number;
  connectMs: number;
  /** Baseline: one plain statement inserting `members` rows into a scratch table of the same database. */
  plainInsertMs: number;
  /** Baseline: from sending a ws ping on every connected socket until the last pong (the same sockets). */
  pingMs: number;
  /** From the request to its reply, which the server sends once every copy is committed. */
  storedMs: number;
  /** From the request until the last connected recipient had the message frame. */
  deliveredMs: number;
  deliveredP50Ms: number;
  /** CPU time the server process (all its threads, PGlite's included) spent from the request to the last frame. */
  serverCpuMs: number;
  /** Copies found in the database afterwards, and in how many distinct desk talks. */
  copies: number;
  talks: number;
}

const CONNECT_CONCURRENCY = 50;
const MAX_MEMBERS = 20_000;
/** The container allows 20,000 descriptors per process: 5,000 sockets here and 5,000 in the server fit. */
const MAX_CONNECTED = 5000;

export function deadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A chat socket that records when the bench message arrives. */
async function connect(url: string, origin: string, session: string, timeoutMs: number) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/chat`, { origin, perMessageDeflate: false });
  let receivedAt: number | null = null;
  let resolveReceived: () => void = () => {};
  const received = new Promise<void>((resolve) => (resolveReceived = resolve));
  const ready = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; message?: string };
      if (frame.type === 'ready') resolve();
      if (frame.type === 'message' && frame.message === TEXT && receivedAt === null) {
        receivedAt = performance.now();
        resolveReceived();
      }
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`socket closed (${code})`)));
  });
  await deadline(
    new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    }),
    timeoutMs,
    'socket open',
  );
  ws.send(JSON.stringify({ type: 'session', session, endpoint: null, conversation_id: null, last_id: null }));
  await deadline(ready, timeoutMs, 'socket ready');
  return { ws, received, receivedAt: () => receivedAt };
}

async function countCopies(where: Where): Promise<{ copies: number; talks: number }> {
  const database = await openDatabase(where);
  try {
    const result = await database.db.execute(
      sql`select count(*)::int as copies, count(distinct m.conversation_id)::int as talks
          from messages m join conversations c on c.id = m.conversation_id
          where c.kind = 'desk' and m.body = ${TEXT}`,
    );
    return rowsOf<{ copies: number; talks: number }>(result)[0] ?? { copies: 0, talks: 0 };
  } finally {
    await database.close();
  }
}

/** Connects the sessions' sockets into `sockets`, CONNECT_CONCURRENCY at a time. */
async function connectAll(
  sockets: Awaited<ReturnType<typeof connect>>[],
  memberSessions: string[],
  url: string,
  origin: string,
): Promise<void> {
  for (let i = 0; i < memberSessions.length; i += CONNECT_CONCURRENCY) {
    const batch = memberSessions.slice(i, i + CONNECT_CONCURRENCY);
    sockets.push(...(await Promise.all(batch.map((session) => connect(url, origin, session, 30_000)))));
  }
}

/** One engine: seeds, starts the built server (`npm run build` first), sends once, returns the figures. */
async function measure(
  engine: string,
  where: Where,
  env: NodeJS.ProcessEnv,
  members: number,
  connected: number,
  timeoutMs: number,
): Promise<BulkSendResult> {
  let started = performance.now();
  const seeded = await seed(where, members, connected);
  const seedMs = performance.now() - started;

  const server = await startEnishi([], env);
  const origin = server.url;
  const sockets: Awaited<ReturnType<typeof connect>>[] = [];
  let result: Omit<BulkSendResult, 'copies' | 'talks'>;
  try {
    started = performance.now();
    await connectAll(sockets, seeded.memberSessions, server.url, origin);
    const connectMs = performance.now() - started;

    // Baseline for delivery: the same sockets, the server's ws answering a ping with no code of ours.
    started = performance.now();
    await deadline(
      Promise.all(
        sockets.map(({ ws }) => new Promise<void>((resolve) => ws.once('pong', () => resolve()).ping())),
      ),
      timeoutMs,
      'pings',
    );
    const pingMs = performance.now() - started;

    const cpuBefore = cpuMs(server.child.pid!);
    const sentAt = performance.now();
    const reply = await deadline(
      fetch(`${server.url}/api/messages/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ssid: seeded.staffSession,
          users: seeded.uids,
          message: TEXT,
          image: [],
          type: 1,
        }),
      }),
      timeoutMs,
      'bulk send',
    );
    const storedMs = performance.now() - sentAt;
    const body = (await reply.json()) as { status?: string; count?: number; error?: string };
    if (!reply.ok || body.count !== members)
      throw new Error(`bulk send failed: ${reply.status} ${JSON.stringify(body)}`);

    await deadline(Promise.all(sockets.map((socket) => socket.received)), timeoutMs, 'delivery');
    const serverCpuMs = cpuMs(server.child.pid!) - cpuBefore;
    const times = sockets.map((socket) => socket.receivedAt()! - sentAt).sort((a, b) => a - b);
    result = {
      engine,
      members,
      connected,
      seedMs,
      connectMs,
      plainInsertMs: seeded.plainInsertMs,
      pingMs,
      storedMs,
      deliveredMs: times.at(-1) ?? 0,
      deliveredP50Ms: times[Math.floor(times.length / 2)] ?? 0,
      serverCpuMs,
    };
  } finally {
    for (const socket of sockets) socket.ws.terminate();
    await server.stop();
  }
  // Once the server has let go of the database (PGlite takes one process at a time).
  return { ...result, ...(await countCopies(where)) };
}

function print(result: BulkSendResult): void {
  const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
  const line = (name: string, value: string) => console.log(`${name.padEnd(40)} ${value}`);
  console.log(
    `\nBulk send on ${result.engine} (${result.members} members, ${result.connected} of them connected over the chat socket)`,
  );
  line('seed members (batched inserts)', ms(result.seedMs));
  line(`open ${result.connected} chat sockets`, ms(result.connectMs));
  line(`stored for all ${result.members} (reply)`, ms(result.storedMs));
  line(`  baseline: one plain ${result.members}-row insert`, ms(result.plainInsertMs));
  line(
    `received by all ${result.connected} connected`,
    `${ms(result.deliveredMs)}   (p50 ${result.deliveredP50Ms.toFixed(0)} ms)`,
  );
  line(`  baseline: ws ping to all ${result.connected}`, ms(result.pingMs));
  line('server CPU meanwhile (all threads)', ms(result.serverCpuMs));
  line('copies in desk talks', `${String(result.copies).padStart(6)} in ${result.talks} talks`);
}

/** Seeds, starts the built server, sends once per engine, prints the figures and returns them. */
export async function benchBulkSend(options: BulkSendOptions = {}): Promise<BulkSendResult[]> {
  const members = Math.min(options.members ?? MAX_MEMBERS, MAX_MEMBERS);
  const connected = Math.min(options.connected ?? MAX_CONNECTED, MAX_CONNECTED, members);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const results: BulkSendResult[] = [];

  const dataDir = mkdtempSync(join(tmpdir(), 'enishi-bench-bulk-'));
  const embedded = { pgliteDir: join(dataDir, 'db') };
  results.push(await measure('PGlite', embedded, { DATA_DIR: dataDir }, members, connected, timeoutMs));
  print(results.at(-1)!);

  if (options.postgresUrl) {
    const scratch = await scratchDatabase(options.postgresUrl);
    try {
      const env: NodeJS.ProcessEnv = { DATABASE_URL: scratch.url };
      if (options.redisUrl) {
        const redis = new Redis(options.redisUrl);
        await redis.flushdb();
        await redis.quit();
        env.REDIS_URL = options.redisUrl;
      }
      const engine = options.redisUrl ? 'PostgreSQL + Redis' : 'PostgreSQL';
      const where = { databaseUrl: scratch.url };
      results.push(await measure(engine, where, env, members, connected, timeoutMs));
      print(results.at(-1)!);
    } finally {
      await scratch.drop();
    }
  } else console.log('\nBulk send on PostgreSQL: skipped (needs BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  return results;
}

// `tsx bench/bulk-send.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchBulkSend({
    members: Number(process.env.BENCH_MEMBERS ?? MAX_MEMBERS),
    connected: Number(process.env.BENCH_CONNECTED ?? MAX_CONNECTED),
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    redisUrl:
      process.env.BENCH_REDIS_URL ??
      (process.env.TEST_REDIS_URL && new URL('/13', process.env.TEST_REDIS_URL).toString()),
  });
}
