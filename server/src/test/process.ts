import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ALLOCATOR_ENV } from '../lib/allocator.js';

/** The repository root, from src/test/. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/*
 * The server as its own process. Run from source with tsx (no build needed): `--conditions=source` makes
 * @enishi/contract resolve to its TypeScript source too. `npm test` builds before these tests and sets
 * TEST_SERVER_BUILD=1: the processes then run that build, as production does, at half the CPU a start (about
 * 2 s against 4 under tsx's loader, and the suite starts some forty). Unset, a stale build is never used.
 */
const FROM_BUILD = process.env.TEST_SERVER_BUILD === '1';

/** Node's arguments for a server script given by its source path (`server/src/main.ts`), from the build or not. */
export function serverScript(source: string): string[] {
  if (!FROM_BUILD) return ['--conditions=source', '--import', 'tsx', source];
  if (!/^server\/src\/.+\.ts$/.test(source)) throw new Error(`not a server script: ${source}`);
  return [source.replace(/^server\/src\//, 'server/dist/').replace(/\.ts$/, '.js')];
}
const START_TIMEOUT_MS = 60_000;

export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Runs a server script (e.g. `server/src/scripts/create-user.ts`) to completion and returns its stdout. */
export async function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, [...serverScript(script), ...args], { cwd: REPO_ROOT, env });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} exited with ${code}: ${err}`);
  return out;
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the server logged. */
  log: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `server/src/main.ts` (or, with `build`, another checkout's built `server/dist/main.js`, e.g. an
 * earlier release's) and resolves when it logs that it is listening (not by polling), which it does at log
 * level info.
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, build?: string): Promise<ServerProcess> {
  const args = build ? ['server/dist/main.js'] : serverScript('server/src/main.ts');
  const child = spawn(process.execPath, args, {
    cwd: build ?? REPO_ROOT,
    // These tests stream messages as fast as echoes return: fair use per member has tests of its own.
    env: {
      CHAT_MESSAGES_PER_SECOND: '1000000',
      CHAT_MESSAGE_BURST: '1000000',
      ...env,
      ...ALLOCATOR_ENV,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);

  const listening = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      log += `${line}\n`;
      const match = /Server listening at (http:\/\/[^"\s]+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${log}`)));
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`server did not listen in time:\n${log}`)), START_TIMEOUT_MS);
  });
  try {
    const baseUrl = await Promise.race([listening, timeout]);
    return { child, baseUrl, log: () => log, exited };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
