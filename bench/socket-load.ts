// One club's sockets on one server and the loads they carry: delivery latency, throughput and memory per
// idle connection (bench/socket.ts runs them against the real server and a bare `ws` one).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { Inspector } from './inspector.js';
import { collectGarbage } from '../server/src/lib/memory-relief.js';

export interface Person {
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

/** What the club's sockets received during one load: acks of their own messages, deliveries and latencies. */
class Tally {
  acked = 0;
  delivered = 0;
  start = 0;
  readonly latencies: number[] = [];
  // BENCH_TRACE=dir writes every delivery as "sent at (ms into the load), latency (ms)", to see when slow ones happen.
  readonly traceDir = process.env.BENCH_TRACE;
  readonly trace: string[] = [];

  readonly onMessage = (frame: Record<string, unknown>) => {
    if (frame.type !== 'message') return;
    const sentAt = Number(/t=([\d.]+)/.exec(String(frame.message))?.[1]);
    if (frame.own === true) this.acked += 1;
    else {
      this.delivered += 1;
      this.latencies.push(performance.now() - sentAt);
      if (this.traceDir)
        this.trace.push(`${(sentAt - this.start).toFixed(1)},${(performance.now() - sentAt).toFixed(2)}`);
    }
  };

  reset() {
    this.acked = 0;
    this.delivered = 0;
    this.latencies.length = 0;
    this.trace.length = 0;
    this.start = performance.now();
  }

  /** Waits (at most 30 s) until `total` messages were acked and `expected` deliveries arrived. */
  async drain(total: number, expected: number) {
    const drainDeadline = performance.now() + 30_000;
    while ((this.acked < total || this.delivered < expected) && performance.now() < drainDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Connects everyone in small batches, so the handshake storm itself is not what is measured. */
async function connectAll(people: Person[], wsUrl: string, origin: string, tally: Tally) {
  const sockets: WebSocket[] = [];
  for (let index = 0; index < people.length; index += 50) {
    const batch = people.slice(index, index + 50);
    sockets.push(
      ...(await Promise.all(batch.map((person) => connect(wsUrl, origin, person.session, tally.onMessage)))),
    );
  }
  return sockets;
}

/** Writes the run's CPU profile and delivery trace where BENCH_PROFILE and BENCH_TRACE ask. */
async function writeRunFiles(inspector: Inspector, tally: Tally, name: string, profiled: string | undefined) {
  if (profiled) {
    const file = join(profiled, `${name}.cpuprofile`);
    writeFileSync(file, await inspector.stopProfile());
    console.log(`CPU profile of the load: ${file}`);
  }
  if (tally.traceDir) writeFileSync(join(tally.traceDir, `${name}.csv`), tally.trace.join('\n'));
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
  const tally = new Tally();
  const people = [...club.staff, ...club.members];
  const inspector = await Inspector.connect(inspectPort);
  await closeAll(await connectAll(people, wsUrl, origin, tally));
  const before = await inspector.memory();
  const sockets = await connectAll(people, wsUrl, origin, tally);
  const after = await inspector.memory();
  const memberSockets = sockets.slice(club.staff.length);
  /** Sends `total` messages at `rate` a second from random members, then waits (bounded) for them all. */
  const load = async (total: number, rate: number) => {
    tally.reset();
    const sent = await sendAtRate(memberSockets, club.members, total, rate, tally.start);
    await tally.drain(total, total * club.staff.length);
    return sent;
  };
  const rssPerConnection = (after.rss - before.rss) / people.length;
  const retainedPerConnection = (after.retained - before.retained) / people.length;
  let runs = 0;
  return {
    rssPerConnection,
    retainedPerConnection,
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
      const elapsed = (performance.now() - tally.start) / 1000;
      const loopDelay = await inspector.loopDelay();
      const cpuAfter = machineCpu();
      const machineBusy = (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total);
      await writeRunFiles(
        inspector,
        tally,
        `${label.replace(/\W+/g, '-')}${runs > 1 ? `-${runs}` : ''}`,
        profileDir,
      );
      const sorted = [...tally.latencies].sort((a, b) => a - b);
      return {
        label,
        clients: people.length,
        sent,
        acked: tally.acked,
        delivered: tally.delivered,
        seconds: elapsed,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        rssPerConnection,
        retainedPerConnection,
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
