// Idle sockets on one instance (issue 29): the chat socket's load (1,000 members and 10 staff, 500 msg/s)
// without and then with many idle authenticated sockets of other members on the same server, and the memory
// each idle socket keeps (heap + external after a full GC, and RSS), in the same run.
// A process here may hold 20,000 files at most (the container's hard limit), and the server holds every
// socket as one: the idle count defaults to what fits beside the load (BENCH_IDLE).
import { readFileSync } from 'node:fs';
import type WebSocket from 'ws';
import { Inspector } from './inspector.js';
import { freePort } from '../server/src/test/process.js';
import { benchEnv } from './lib.js';
import { connect, drive, printSocketFigures, seedClub, startInspectedServer, stop } from './socket.js';

export interface IdleOptions {
  idle: number;
  members: number;
  rate: number;
  seconds: number;
  /** PostgreSQL to seed and serve from (a scratch database); embedded PGlite without. */
  databaseUrl?: string;
}

/** The count of idle sockets (issue 29). */
const AIMED_IDLE = 20_000;

/** The most files this process may ever hold (the hard limit; Infinity when unlimited or unreadable). */
function hardFileLimit(): number {
  const line = /^Max open files\s+\S+\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return line && line[1] !== 'unlimited' ? Number(line[1]) : Infinity;
}

/** Why fewer idle sockets than the 20,000 are opened, or nothing when it is all of them. */
function whyFewer(idle: number, members: number): string {
  if (idle >= AIMED_IDLE) return '';
  const limit = hardFileLimit();
  const reason =
    limit < AIMED_IDLE + members + 10
      ? `this machine lets a process hold ${limit} files at most (its hard limit), and ` +
        `the server and this load generator each hold every socket as one file: ${AIMED_IDLE} idle + ` +
        `${members + 10} loaded would not fit`
      : 'BENCH_IDLE says so';
  return `\n  (${idle}, not the issue's ${AIMED_IDLE}: ${reason})`;
}

/** Opens `sessions` as idle sockets, 100 at a time (the server admits a few dozen handshakes at once). */
async function openIdle(wsUrl: string, origin: string, sessions: string[]): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let index = 0; index < sessions.length; index += 100) {
    const batch = sessions.slice(index, index + 100);
    sockets.push(...(await Promise.all(batch.map((session) => connect(wsUrl, origin, session, () => {})))));
  }
  return sockets;
}

export async function benchIdle({ idle, members, rate, seconds, databaseUrl }: IdleOptions): Promise<void> {
  const env = benchEnv(await freePort(), databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  const seedStart = performance.now();
  const seeded = seedClub(env, { members: members + idle, staff: 10 });
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const club = { members: seeded.members.slice(0, members), staff: seeded.staff };
  const idlers = seeded.members.slice(members).map((member) => member.session);
  console.log(
    `\nIdle sockets (${members} members + 10 staff at ${rate} msg/s for ${seconds} s, then the same with ` +
      `${idle} idle sockets of other members open; ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}, ` +
      `seeded in ${seedSeconds.toFixed(0)} s)${whyFewer(idle, members)}`,
  );
  const server = await startInspectedServer(env);
  let sockets: WebSocket[] = [];
  try {
    const load = { rate, seconds };
    const quiet = await drive(
      'without idle sockets',
      server.wsUrl,
      server.origin,
      server.inspectPort,
      club,
      load,
    );
    const inspector = await Inspector.connect(server.inspectPort);
    const before = await inspector.memory();
    const openStart = performance.now();
    sockets = await openIdle(server.wsUrl, server.origin, idlers);
    const openSeconds = (performance.now() - openStart) / 1000;
    const after = await inspector.memory();
    inspector.close();
    const busy = await drive(
      `with ${idle} idle sockets`,
      server.wsUrl,
      server.origin,
      server.inspectPort,
      club,
      load,
    );
    printSocketFigures([quiet, busy]);
    const kb = (bytes: number) => (bytes / idle / 1024).toFixed(1);
    console.log(
      `idle socket: ${kb(after.retained - before.retained)} KB heap+external, ${kb(after.rss - before.rss)} KB RSS ` +
        `each (issue 29: at most 12 KB); ${idle} opened in ${openSeconds.toFixed(1)} s; ` +
        `p99 with them ${(busy.p99 / quiet.p99).toFixed(2)}x of without (issue 29: at most 1.2x)`,
    );
  } finally {
    for (const socket of sockets) socket.terminate();
    await stop(server.child);
  }
}
