// Idle sockets on one instance (issue 29): the chat socket's load (1,000 members and 10 staff, 500 msg/s)
// without and then with many idle authenticated sockets of other members on the same server, and the memory
// each idle socket keeps (heap + external after a full GC, and RSS), in the same run. Each side is measured
// IDLE_RUNS times on the same connections and compared by its median p99: one 10-second run's p99 (its 500
// slowest deliveries) swung from 0.55x to 1.75x between runs of the same build while the server's JavaScript
// thread was as busy during the load with the idle sockets as without them.
// A process here may hold 20,000 files at most (the container's hard limit), and the server holds every
// socket as one: the idle count defaults to what fits beside the load (BENCH_IDLE).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Inspector } from './inspector.js';
import { freePort } from '../server/src/test/process.js';
import { benchEnv, median, quietLoad, repoRoot } from './lib.js';
import {
  openSession,
  printSocketFigures,
  seedClub,
  startInspectedServer,
  stop,
  type Club,
  type SocketFigures,
} from './socket.js';

export interface IdleOptions {
  idle: number;
  members: number;
  rate: number;
  seconds: number;
  /** PostgreSQL to seed and serve from (a scratch database); embedded PGlite without. */
  databaseUrl?: string;
}

/** Runs of the load on each side (without and with the idle sockets); their median p99s are compared. */
const IDLE_RUNS = 3;

/** The load `IDLE_RUNS` times over one set of connections, each run labelled with its number. */
async function runs(
  label: string,
  server: { wsUrl: string; origin: string; inspectPort: number },
  club: Club,
  load: { rate: number; seconds: number },
): Promise<SocketFigures[]> {
  const session = await openSession(label, server.wsUrl, server.origin, server.inspectPort, club);
  try {
    // A first load on new connections is slower whatever else is open (the first of each side: p99 1.8 s where
    // the next were 14-290 ms): it warms up and is not counted.
    await session.run(load);
    const figures: SocketFigures[] = [];
    for (let run = 1; run <= IDLE_RUNS; run++) {
      // Opening 18,000 sockets leaves the load average high for minutes: up to 5 minutes' wait.
      console.log(`${label} ${run}/${IDLE_RUNS}: load average ${await quietLoad(300)} before`);
      figures.push({ ...(await session.run(load)), label: `${label} ${run}/${IDLE_RUNS}` });
    }
    return figures;
  } finally {
    session.close();
  }
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
        `the server holds every socket as one file: ${AIMED_IDLE} idle + ` +
        `${members + 10} loaded would not fit`
      : 'BENCH_IDLE says so';
  return `\n  (${idle}, not the issue's ${AIMED_IDLE}: ${reason})`;
}

/**
 * Opens `sessions` as idle sockets from a process of their own (bench/idle-child.ts); resolves once all are
 * ready, with the seconds it took and the way to close them.
 */
async function openIdle(wsUrl: string, origin: string, sessions: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench/idle-child.ts')], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const close = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  child.stdin.end(JSON.stringify({ wsUrl, origin, sessions }));
  const lines = createInterface({ input: child.stdout });
  const opened = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code]) => {
      throw new Error(`the idle sockets' process exited (${String(code)}) before they were open`);
    }),
  ]);
  return { seconds: Number(opened.split(' ')[1]), close };
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
  let idleSockets: Awaited<ReturnType<typeof openIdle>> | undefined;
  try {
    const load = { rate, seconds };
    const quiet = await runs('without idle sockets', server, club, load);
    const inspector = await Inspector.connect(server.inspectPort);
    const before = await inspector.memory();
    idleSockets = await openIdle(server.wsUrl, server.origin, idlers);
    const after = await inspector.memory();
    inspector.close();
    const busy = await runs(`with ${idle} idle sockets`, server, club, load);
    printSocketFigures([...quiet, ...busy]);
    const kb = (bytes: number) => (bytes / idle / 1024).toFixed(1);
    const p99 = (figures: SocketFigures[]) => median(figures.map((figure) => figure.p99));
    console.log(
      `idle socket: ${kb(after.retained - before.retained)} KB heap+external, ${kb(after.rss - before.rss)} KB RSS ` +
        `each (issue 29: at most 12 KB); ${idle} opened in ${idleSockets.seconds.toFixed(1)} s (by a process of their own); ` +
        `p99 with them ${(p99(busy) / p99(quiet)).toFixed(2)}x of without, median of ${IDLE_RUNS} runs each ` +
        `(${p99(busy).toFixed(1)} / ${p99(quiet).toFixed(1)} ms; issue 29: at most 1.2x)`,
    );
  } finally {
    await idleSockets?.close();
    await stop(server.child);
  }
}
