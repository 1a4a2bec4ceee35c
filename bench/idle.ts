// Idle sockets on one instance (issue 29): the chat socket's load (1,000 members and 10 staff, 500 msg/s)
// without and then with many idle authenticated sockets of other members on the same server, and the memory
// each idle socket keeps (heap + external after a full GC, and RSS), in the same run.
// A process here may hold 20,000 files at most (the container's hard limit), and the server holds every
// socket as one: the idle count defaults to what fits beside the load (BENCH_IDLE).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Inspector } from './inspector.js';
import { freePort } from '../server/src/test/process.js';
import { benchEnv, repoRoot } from './lib.js';
import { drive, printSocketFigures, seedClub, startInspectedServer, stop } from './socket.js';

export interface IdleOptions {
  idle: number;
  members: number;
  rate: number;
  seconds: number;
  /** PostgreSQL to seed and serve from (a scratch database); embedded PGlite without. */
  databaseUrl?: string;
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
      `seeded in ${seedSeconds.toFixed(0)} s)`,
  );
  const server = await startInspectedServer(env);
  let idleSockets: Awaited<ReturnType<typeof openIdle>> | undefined;
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
    idleSockets = await openIdle(server.wsUrl, server.origin, idlers);
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
        `each (issue 29: at most 12 KB); ${idle} opened in ${idleSockets.seconds.toFixed(1)} s (by a process of their own); ` +
        `p99 with them ${(busy.p99 / quiet.p99).toFixed(2)}x of without (issue 29: at most 1.2x)`,
    );
  } finally {
    await idleSockets?.close();
    await stop(server.child);
  }
}
