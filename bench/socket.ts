// Chat socket figures: delivery latency and throughput with many connected clients at a fixed send rate,
// and memory per idle authenticated connection, each next to a bare `ws` server in the same run.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort } from '../server/src/test/process.js';
import { openSession, type Club, type SocketFigures } from './socket-load.js';
import { benchEnv, repoRoot, spawnServer } from './lib.js';

// Kept importable from here, where the benches first found them.
export { durableCommitFloor, scratchDatabase } from './postgres.js';
export { connect, openSession, type Club, type LoadSession, type SocketFigures } from './socket-load.js';

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
