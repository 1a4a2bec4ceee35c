// Chat socket figures: delivery latency and throughput with many connected clients at a fixed send rate,
// and memory per idle authenticated connection, each next to a bare `ws` server in the same run.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { Inspector } from './inspector.js';
import { freePort } from '../server/src/test/process.js';
import { collectGarbage } from '../server/src/lib/memory-relief.js';
import { benchEnv, repoRoot, spawnServer } from './lib.js';

// Kept importable from here, where the benches first found them.
export { durableCommitFloor, scratchDatabase } from './postgres.js';

interface Person {
  uid: number;
  session: string;
  conversation: number;
}
export interface Club {
  members: Person[];
  staff: Person[];
}

export interface SocketFigures {
  label: string;
  clients: number;
  sent: number;
  acked: number;
  delivered: number;
  seconds: number;
  p50: number;
  p99: number;
  /** RSS growth per idle authenticated connection, after a warm-up round and a full GC. */
  rssPerConnection: number;
  /** JS heap + external memory growth per idle connection, after a full GC. */
  retainedPerConnection: number;
  /** Share of all cores busy during the load (server, database, load generator and the rest). */
  machineBusy: number;
  /** The server's event-loop delay during the load (ms). */
  loopDelay: { p50: number; p99: number; max: number };
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export async function waitHealthy(url: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/healthz`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}

/** Opens one authenticated socket and resolves when the server says it is live (`ready`). */
export function connect(
  url: string,
  origin: string,
  session: string,
  onMessage: (frame: Record<string, unknown>) => void,
) {
  return new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(url, { origin, perMessageDeflate: false });
    const timer = setTimeout(() => reject(new Error('socket did not become ready')), 30_000);
    socket.on('open', () =>
      socket.send(
        JSON.stringify({ type: 'session', session, endpoint: null, conversation_id: null, last_id: null }),
      ),
    );
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (frame.type === 'ready') {
        clearTimeout(timer);
        resolve(socket);
      } else onMessage(frame);
    });
    socket.on('error', reject);
  });
}

/** Busy and total jiffies of all cores (/proc/stat), to tell how much of the machine a load used. */
function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** Closes sockets and waits until the server has answered each close. */
async function closeAll(sockets: WebSocket[]) {
  await Promise.all(
    sockets.map((socket) => {
      const closed = once(socket, 'close');
      socket.close();
      return closed;
    }),
  );
}

/** Sends `total` messages at `rate` a second from random members, counting from `start`; resolves once sent. */
async function sendAtRate(
  memberSockets: WebSocket[],
  members: Person[],
  total: number,
  rate: number,
  start: number,
): Promise<number> {
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      for (; sent < due; sent += 1) {
        const index = Math.floor(Math.random() * memberSockets.length);
        const member = members[index] as Person;
        memberSockets[index]?.send(
          JSON.stringify({
            type: 'text',
            conversation_id: member.conversation,
            conversation_type: 'staff',
            message: `計測 t=${performance.now().toFixed(3)}`,
            image: [],
            reply: null,
            announce: false,
            client_id: randomUUID(),
          }),
        );
      }
      if (sent >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  return sent;
}

/** A club connected to one server, every socket live, carrying loads one after another. */
export interface LoadSession {
  /** Memory kept per idle connection (measured as the session opened). */
  rssPerConnection: number;
  retainedPerConnection: number;
  /** One load of `rate` a second for `seconds`, once `seconds` is more than 1 s of a warm-up (not counted). */
  run(load: { rate: number; seconds: number }, warmUp?: boolean): Promise<SocketFigures>;
  close(): void;
}

/**
 * Connects every member and staff socket and measures idle memory: every socket is connected and closed
 * once first, so one-time growth (code, caches, the database's own memory) is not counted per connection;
 * then the server's memory after a full GC, before and after connecting them all.
 */
export async function openSession(
  label: string,
  wsUrl: string,
  origin: string,
  inspectPort: number,
  club: Club,
): Promise<LoadSession> {
  const latencies: number[] = [];
  // BENCH_TRACE=dir writes every delivery as "sent at (ms into the load), latency (ms)", to see when slow ones happen.
  const traceDir = process.env.BENCH_TRACE;
  const trace: string[] = [];
  let acked = 0;
  let delivered = 0;
  let start = 0;
  const onMessage = (frame: Record<string, unknown>) => {
    if (frame.type !== 'message') return;
    const sentAt = Number(/t=([\d.]+)/.exec(String(frame.message))?.[1]);
    if (frame.own === true) acked += 1;
    else {
      delivered += 1;
      latencies.push(performance.now() - sentAt);
      if (traceDir) trace.push(`${(sentAt - start).toFixed(1)},${(performance.now() - sentAt).toFixed(2)}`);
    }
  };
  const people = [...club.staff, ...club.members];
  const connectAll = async () => {
    const sockets: WebSocket[] = [];
    // Connect in small batches so the handshake storm itself is not what is measured.
    for (let index = 0; index < people.length; index += 50) {
      const batch = people.slice(index, index + 50);
      sockets.push(
        ...(await Promise.all(batch.map((person) => connect(wsUrl, origin, person.session, onMessage)))),
      );
    }
    return sockets;
  };
  const inspector = await Inspector.connect(inspectPort);
  await closeAll(await connectAll());
  const before = await inspector.memory();
  const sockets = await connectAll();
  const after = await inspector.memory();
  const memberSockets = sockets.slice(club.staff.length);
  /** Sends `total` messages at `rate` a second from random members, then waits (bounded) for them all. */
  const load = async (total: number, rate: number) => {
    acked = 0;
    delivered = 0;
    latencies.length = 0;
    trace.length = 0;
    start = performance.now();
    const sent = await sendAtRate(memberSockets, club.members, total, rate, start);
    const expected = total * club.staff.length;
    const drainDeadline = performance.now() + 30_000;
    while ((acked < total || delivered < expected) && performance.now() < drainDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return sent;
  };
  let runs = 0;
  return {
    rssPerConnection: (after.rss - before.rss) / people.length,
    retainedPerConnection: (after.retained - before.retained) / people.length,
    async run({ rate, seconds }, warmUp = true) {
      // One second of the same load first, not counted: code is compiled and connections and statements
      // are ready, in every server alike.
      if (warmUp) await load(rate, rate);
      // This process's own garbage, collected now: a full collection of it in the middle of the load (its
      // heap grows with every run before) held every delivery it was timing for a fifth of a second.
      collectGarbage();
      runs += 1;
      const profileDir = process.env.BENCH_PROFILE;
      if (profileDir) await inspector.startProfile();
      await inspector.startLoopDelay();
      const cpuBefore = machineCpu();
      const sent = await load(rate * seconds, rate);
      const elapsed = (performance.now() - start) / 1000;
      const loopDelay = await inspector.loopDelay();
      const cpuAfter = machineCpu();
      const machineBusy = (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total);
      const name = `${label.replace(/\W+/g, '-')}${runs > 1 ? `-${runs}` : ''}`;
      if (profileDir) {
        const file = join(profileDir, `${name}.cpuprofile`);
        writeFileSync(file, await inspector.stopProfile());
        console.log(`CPU profile of the load: ${file}`);
      }
      if (traceDir) writeFileSync(join(traceDir, `${name}.csv`), trace.join('\n'));
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        label,
        clients: people.length,
        sent,
        acked,
        delivered,
        seconds: elapsed,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        rssPerConnection: (after.rss - before.rss) / people.length,
        retainedPerConnection: (after.retained - before.retained) / people.length,
        loopDelay,
        machineBusy,
      };
    },
    close() {
      inspector.close();
      for (const socket of sockets) socket.terminate();
    },
  };
}

/** Connects the club, carries one load after a warm-up, and disconnects (openSession). */
export async function drive(
  label: string,
  wsUrl: string,
  origin: string,
  inspectPort: number,
  club: Club,
  load: { rate: number; seconds: number },
): Promise<SocketFigures> {
  const session = await openSession(label, wsUrl, origin, inspectPort, club);
  try {
    return await session.run(load);
  } finally {
    session.close();
  }
}

/** Seeds members, staff and their sessions into the database `env` names (bench/seed-club.ts). */
export function seedClub(env: NodeJS.ProcessEnv, sizes: { members: number; staff: number }): Club {
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'bench/seed-club.ts'), String(sizes.members), String(sizes.staff)],
    { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, cwd: repoRoot },
  );
  if (seed.status !== 0) throw new Error(`seeding failed: ${seed.stderr}`);
  return JSON.parse(seed.stdout.trim().split('\n').pop() ?? '{}') as Club;
}

/** The built server on `env`'s port, with an inspector port for memory and loop-delay readings. */
export async function startInspectedServer(
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; origin: string; wsUrl: string; inspectPort: number }> {
  const origin = `http://127.0.0.1:${env.PORT}`;
  const inspectPort = await freePort();
  const child = spawnServer(env, [`--inspect=127.0.0.1:${inspectPort}`]);
  await waitHealthy(origin).catch(async (error: unknown) => {
    await stop(child);
    throw error;
  });
  return { child, origin, wsUrl: `ws://127.0.0.1:${env.PORT}/ws/chat`, inspectPort };
}

/** Seeds a fresh database (embedded, or the PostgreSQL at databaseUrl) and measures the real server. */
export async function enishiFigures(
  label: string,
  sizes: { members: number; staff: number },
  load: { rate: number; seconds: number },
  databaseUrl?: string,
): Promise<{ figures: SocketFigures; club: Club }> {
  const env = benchEnv(await freePort(), databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  const club = seedClub(env, sizes);
  const server = await startInspectedServer(env);
  try {
    const figures = await drive(label, server.wsUrl, server.origin, server.inspectPort, club, load);
    return { figures, club };
  } finally {
    await stop(server.child);
  }
}

/** KB per connection; a dash where it was not measured (several instances). */
const perConnection = (bytes: number) => (Number.isNaN(bytes) ? '—' : (bytes / 1024).toFixed(1));

export function printSocketFigures(rows: SocketFigures[]) {
  const columns = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(26) : cell.padStart(10))).join(' ');
  console.log(
    columns(['', 'clients', 'msg/s', 'p50 ms', 'p99 ms', 'loop p99', 'CPU busy', 'KB/conn', 'RSS KB']) +
      '   (msg/s: stored and acked; p50/p99: send to delivery at the other clients; loop p99: server ' +
      'event-loop delay; CPU busy: all cores, load generator included; KB/conn: heap+external per idle connection after GC; RSS KB: RSS growth per idle ' +
      'connection, noisy)',
  );
  for (const row of rows) {
    console.log(
      columns([
        row.label,
        String(row.clients),
        (row.acked / row.seconds).toFixed(0),
        row.p50.toFixed(1),
        row.p99.toFixed(1),
        row.loopDelay.p99.toFixed(1),
        `${(row.machineBusy * 100).toFixed(0)}%`,
        perConnection(row.retainedPerConnection),
        perConnection(row.rssPerConnection),
      ]) + `   (sent ${row.sent}, acked ${row.acked}, delivered ${row.delivered})`,
    );
  }
}
