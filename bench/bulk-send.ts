// One bulk send (一括送信) to every member of a large club, with part of them connected over the chat socket.
// Seeds a fresh embedded database, starts the built server on 127.0.0.1, and measures how long the send
// takes to be stored and to reach every connected recipient. Bounded in members, sockets and time.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { openDatabase } from '../server/src/db/client.js';
import { conversations, users } from '../server/src/db/schema.js';
import { systemClock } from '../server/src/lib/clock.js';
import { hashPassword } from '../server/src/lib/passwords.js';
import { SessionRepository } from '../server/src/repositories/session-repository.js';
import { SessionService } from '../server/src/services/session-service.js';
import { startEnishi } from './lib.js';

export interface BulkSendOptions {
  /** Members of the group, all of them recipients. */
  members?: number;
  /** How many of them hold a chat socket open during the send. */
  connected?: number;
  /** The whole measurement gives up after this. */
  timeoutMs?: number;
}

export interface BulkSendResult {
  members: number;
  connected: number;
  seedMs: number;
  connectMs: number;
  /** From the request to its reply, which the server sends once every copy is committed. */
  storedMs: number;
  /** From the request until the last connected recipient had the message frame. */
  deliveredMs: number;
  deliveredP50Ms: number;
  /** Copies found in the database afterwards, and in how many distinct desk talks. */
  copies: number;
  talks: number;
}

const CHUNK = 500;
const CONNECT_CONCURRENCY = 50;
const TEXT = '【一括送信ベンチ】今月のイベントのお知らせです。';

export function deadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Seeds the staff member and `members` men with one shared password hash (one Argon2 run, not thousands),
 * each man with his desk talk as UserRepository.create makes it, in batched inserts; and sessions for the
 * staff member and the connected men.
 */
export async function seed(dataDir: string, members: number, connected: number) {
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  try {
    await database.migrate();
    const db = database.db;
    const passwordHash = await hashPassword('Bench-pass.1');
    const now = new Date();
    const [staff] = await db
      .insert(users)
      .values({
        loginId: 'bench-owner',
        name: '計測オーナー',
        passwordHash,
        role: 2,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id });

    const uids: number[] = [];
    for (let start = 0; start < members; start += CHUNK) {
      const count = Math.min(CHUNK, members - start);
      const rows = await db
        .insert(users)
        .values(
          Array.from({ length: count }, (_, i) => ({
            loginId: `bench-man-${start + i}`,
            name: `計測 ${start + i}`,
            passwordHash,
            role: 101,
            rank: [1, 2, 3, 4, 6][(start + i) % 5]!,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: users.id });
      await db.insert(conversations).values(
        rows.map((row) => ({
          kind: 'desk' as const,
          memberId: row.id,
          lastActivityAt: now,
          createdAt: now,
        })),
      );
      uids.push(...rows.map((row) => row.id));
    }

    const sessions = new SessionService(new SessionRepository(db), systemClock);
    const staffSession = await sessions.start(staff!.id, 'bench');
    const memberSessions: string[] = [];
    for (const uid of uids.slice(0, connected)) memberSessions.push(await sessions.start(uid, 'bench'));
    return { uids, staffSession, memberSessions };
  } finally {
    await database.close();
  }
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

async function countCopies(dataDir: string): Promise<{ copies: number; talks: number }> {
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  try {
    const result = await database.db.execute<{ copies: number; talks: number }>(
      sql`select count(*)::int as copies, count(distinct m.conversation_id)::int as talks
          from messages m join conversations c on c.id = m.conversation_id
          where c.kind = 'desk' and m.body = ${TEXT}`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
      copies: number;
      talks: number;
    }[];
    return rows[0] ?? { copies: 0, talks: 0 };
  } finally {
    await database.close();
  }
}

/** Seeds, starts the built server (`npm run build` first), sends once, prints the figures and returns them. */
export async function benchBulkSend(options: BulkSendOptions = {}): Promise<BulkSendResult> {
  const members = Math.min(options.members ?? 5000, 20_000);
  const connected = Math.min(options.connected ?? 500, 1000, members);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'enishi-bench-bulk-'));

  let started = performance.now();
  const seeded = await seed(dataDir, members, connected);
  const seedMs = performance.now() - started;

  const server = await startEnishi([], { DATA_DIR: dataDir });
  const origin = server.url;
  const sockets: Awaited<ReturnType<typeof connect>>[] = [];
  let result: BulkSendResult;
  try {
    started = performance.now();
    for (let i = 0; i < seeded.memberSessions.length; i += CONNECT_CONCURRENCY) {
      const batch = seeded.memberSessions.slice(i, i + CONNECT_CONCURRENCY);
      sockets.push(
        ...(await Promise.all(batch.map((session) => connect(server.url, origin, session, 30_000)))),
      );
    }
    const connectMs = performance.now() - started;

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
    const times = sockets.map((socket) => socket.receivedAt()! - sentAt).sort((a, b) => a - b);
    result = {
      members,
      connected,
      seedMs,
      connectMs,
      storedMs,
      deliveredMs: times.at(-1) ?? 0,
      deliveredP50Ms: times[Math.floor(times.length / 2)] ?? 0,
      copies: 0,
      talks: 0,
    };
  } finally {
    for (const socket of sockets) socket.ws.terminate();
    await server.stop();
  }
  Object.assign(result, await countCopies(dataDir));

  const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
  console.log(`\nBulk send (${members} members, ${connected} of them connected over the chat socket)`);
  console.log(`${'seed members (batched inserts)'.padEnd(34)} ${ms(result.seedMs)}`);
  console.log(`${`open ${connected} chat sockets`.padEnd(34)} ${ms(result.connectMs)}`);
  console.log(`${`stored for all ${members} (reply)`.padEnd(34)} ${ms(result.storedMs)}`);
  console.log(
    `${`received by all ${connected} connected`.padEnd(34)} ${ms(result.deliveredMs)}   (p50 ${result.deliveredP50Ms.toFixed(0)} ms)`,
  );
  console.log(
    `${'copies in desk talks'.padEnd(34)} ${String(result.copies).padStart(6)} in ${result.talks} talks`,
  );
  return result;
}

// `tsx bench/bulk-send.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchBulkSend({
    members: Number(process.env.BENCH_MEMBERS ?? 5000),
    connected: Number(process.env.BENCH_CONNECTED ?? 500),
  });
}
