import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOCATOR_ENV } from '../../server/src/lib/allocator.js';
import { newDataDir } from '../../server/src/test/template-database.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const serverMain = join(repoRoot, 'server/dist/main.js');
const seedScript = join(repoRoot, 'e2e/lib/seed-users.mjs');

export interface SeedUser {
  id: string;
  password: string;
  name: string;
  role: number;
  rank?: number;
}

/**
 * Creates users with the server's own CLI code (create-user's createUsersFromArgs), all in one process: the
 * embedded database is single-process, so before start. One process, not one per user: each start loads the
 * server and opens the database, seconds of CPU a time.
 */
export function seedUsers(env: NodeJS.ProcessEnv, users: SeedUser[]): Record<string, number> {
  const argvs = users.map((user) => [
    ...['--id', user.id, '--password', user.password, '--name', user.name],
    ...['--role', String(user.role), '--rank', String(user.rank ?? 0)],
  ]);
  const result = spawnSync(process.execPath, [seedScript], {
    env: { ...env, SEED_USERS: JSON.stringify(argvs) },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`create-user failed: ${result.stderr}`);
  const line = result.stdout.trim().split('\n').pop() ?? '';
  const created = JSON.parse(line) as { uid: number }[];
  return Object.fromEntries(users.map((user, index) => [user.id, created[index]!.uid]));
}

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the built server (`node server/dist/main.js`) and resolves once /healthz answers 200. With
 * `logFile`, everything it logs (JSON lines, stdout and stderr) also goes there, for the log scan.
 */
export async function startServer(env: NodeJS.ProcessEnv, logFile?: string): Promise<RunningServer> {
  const port = Number(env.PORT);
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [serverMain], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  if (logFile) {
    const file = createWriteStream(logFile, { flags: 'a' });
    child.stdout?.pipe(file, { end: false });
    child.stderr?.pipe(file, { end: false });
    child.once('exit', () => file.end());
  }
  // Two minutes, like the suite's hooks: on a busy 2-core machine a start beside the other workers' can take one.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const reply = await fetch(`${baseURL}/healthz`);
      if (reply.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (Date.now() >= deadline) {
    child.kill('SIGTERM');
    throw new Error(`server did not become healthy:\n${log}`);
  }
  return {
    baseURL,
    dataDir: String(env.DATA_DIR),
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * A new server's environment, its DATA_DIR a new folder: in a test file, with a copy of the run's empty embedded
 * database in it (lib/global-setup.ts), which the server migrates at its start.
 */
export function serverEnv(port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dataDir = newDataDir('enishi-e2e-');
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    // Every phone of the suite logs in from 127.0.0.1: the per-address cap on login attempts (30 a minute)
    // is meant for one place trying many accounts, not for a whole club's worth of devices on one address.
    LOGIN_ATTEMPTS_PER_ADDRESS: '100000',
    ...ALLOCATOR_ENV,
    ...extra,
  };
}
