import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './process.js';

/*
 * A PostgreSQL and a Redis of a test's own, on spare ports, which the test may stop and start again (the
 * outage tests). PostgreSQL refuses to run as root: as root (CI) it runs as the `postgres` user.
 */

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const START_TIMEOUT_MS = 30_000;

/** Runs a command to completion (as `postgres` when this process is root); rejects with its output. */
async function run(command: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const child = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}: ${output}`);
}

export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust). */
  url: string;
  /** Stops the server at once (`pg_ctl stop -m immediate`: as a crash, sessions cut mid-query). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data (if stopped); resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  remove(): Promise<void>;
}

/** initdb in a temporary folder and a server on a spare port of 127.0.0.1. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = await mkdtemp(path.join(tmpdir(), 'enishi-pg-'));
  const data = path.join(dir, 'data');
  if (process.getuid?.() === 0) {
    await chown(dir, Number(await idOf('-u')), Number(await idOf('-g')));
  }
  await chmod(dir, 0o700);
  await run(`${PG_BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const ctl = (...args: string[]) => run(`${PG_BIN}/pg_ctl`, ['-D', data, '-s', ...args]);
  const start = () =>
    ctl('-o', options, '-l', path.join(dir, 'log'), '-w', '-t', String(START_TIMEOUT_MS / 1000), 'start');
  let running = false;
  const own: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await ctl('-m', 'immediate', '-w', 'stop');
      running = false;
    },
    start: async () => {
      if (running) return;
      await start();
      running = true;
    },
    remove: async () => {
      if (running) await own.stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}

async function idOf(flag: '-u' | '-g'): Promise<string> {
  const child = spawn('id', [flag, 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'exit');
  return out.trim();
}

export interface OwnRedis {
  url: string;
  /** Kills redis-server (SIGKILL: connections cut, nothing kept). */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port (if stopped); resolves once it accepts connections. */
  start(): Promise<void>;
}

/** redis-server on a spare port of 127.0.0.1, keeping nothing on disk. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}/0`,
    stop: async () => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    start: async () => {
      if (child && child.exitCode === null && child.signalCode === null) return;
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await listening(child, /Ready to accept connections/);
    },
  };
  await own.start();
  return own;
}

/** Resolves when the child prints `ready` on stdout; rejects if it exits or takes too long. */
async function listening(child: ChildProcess, ready: RegExp): Promise<void> {
  let out = '';
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (ready.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited (${code}) before it was ready: ${out}`)));
      timer = setTimeout(() => reject(new Error(`not ready in time: ${out}`)), START_TIMEOUT_MS);
    });
  } finally {
    clearTimeout(timer);
  }
}
