import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { ALLOCATOR_ENV } from '../server/src/lib/allocator.js';
import { freePort } from '../server/src/test/process.js';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface Child {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The bare Fastify baseline in its own process, so the load generator does not share its core. */
export async function startBareFastify(): Promise<Child> {
  const port = await freePort();
  const child = fork(join(repoRoot, 'bench/bare-fastify.ts'), {
    env: { ...process.env, PORT: String(port) },
    execArgv: ['--import', 'tsx'],
  });
  await once(child, 'message');
  return { url: `http://127.0.0.1:${port}`, child, stop: () => stopChild(child) };
}

/** The environment of a server under measurement: on `port`, a fresh data folder, errors only in its log. */
export function benchEnv(port: number, extraEnv: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'enishi-bench-')),
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'error',
    ...ALLOCATOR_ENV,
    ...extraEnv,
  };
}

/**
 * Starts the built server with `env`, as every bench starts it: BENCH_CPU_PROFILE=<folder> makes it write CPU
 * profiles of its threads there when it stops, BENCH_SERVER_FLAGS (say `--trace-gc`) are added to its `node`'s
 * flags after `flags`, and BENCH_SERVER_LOG=<file> takes its output (appended: a run may start several).
 */
export function spawnServer(env: NodeJS.ProcessEnv, flags: string[] = []): ChildProcess {
  const profile = process.env.BENCH_CPU_PROFILE;
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, '--cpu-prof-interval', '250'] : [];
  const extra = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const out = process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore';
  return spawn(process.execPath, [...profiling, ...flags, ...extra, join(repoRoot, 'server/dist/main.js')], {
    env,
    stdio: ['ignore', out, out],
  });
}

/** The real built server on a fresh embedded database (or DATABASE_URL when given), with seeded users. */
export async function startEnishi(
  users: { id: string; password: string; name: string; role: number }[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Child & { uids: Record<string, number> }> {
  const port = await freePort();
  const env = benchEnv(port, extraEnv);
  const uids: Record<string, number> = {};
  for (const user of users) {
    const result = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'server/dist/scripts/create-user.js'),
        '--id',
        user.id,
        '--password',
        user.password,
        '--name',
        user.name,
        '--role',
        String(user.role),
      ],
      { env, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(result.stderr);
    uids[user.id] = (JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as { uid: number }).uid;
  }
  const child = spawnServer(env);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('server did not start');
    const ok = await fetch(`${url}/healthz`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, uids, stop: () => stopChild(child) };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** A fixed-duration closed-loop load: `connections` clients each sending the next request on reply. */
export async function load(
  url: string,
  body: unknown,
  { connections = 20, seconds = 5 }: { connections?: number; seconds?: number } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Gzipped bytes of the JS a first visit of `page` loads: the entry script and its modulepreloads. */
export function initialJsGzip(
  distDir: string,
  page = 'index.html',
): { files: number; raw: number; gzip: number } {
  const html = readFileSync(join(distDir, page), 'utf8');
  const sources = [
    ...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g),
  ].map((match) => match[1] ?? '');
  let raw = 0;
  let gzip = 0;
  for (const source of sources) {
    const bytes = readFileSync(join(distDir, source.replace(/^\//, '')));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: sources.length, raw, gzip };
}

/** Builds bench/hello (a hello-world React app) with the web app's own Vite and React plugin. */
export function buildHelloWorld(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'enishi-hello-'));
  const script = `
    import { build } from 'vite';
    import react from '@vitejs/plugin-react';
    await build({ root: ${JSON.stringify(join(repoRoot, 'bench/hello'))}, logLevel: 'error', plugins: [react()],
      build: { outDir: ${JSON.stringify(outDir)}, emptyOutDir: true } });`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(repoRoot, 'web'),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`hello-world build failed: ${result.stderr}`);
  return outDir;
}

export function directorySize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? directorySize(path) : statSync(path).size;
  }
  return total;
}

/** CPU time (user and system, all its threads) a process has used so far, from /proc (Linux), in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The load averages over 1, 5 and 15 minutes, as /proc/loadavg gives them. */
export const loadAverage = (): string =>
  readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * Waits (up to `limitSeconds`) until the 1-minute load average is under 1.0, for a measured run begins only on a
 * quiet machine (issue 48: a run begun above 1.0 does not count), and says what it was when the run begins.
 */
export async function quietLoad(limitSeconds = 120): Promise<string> {
  const deadline = Date.now() + limitSeconds * 1000;
  while (Number(loadAverage().split(' ')[0]) >= 1 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 2000));
  return loadAverage();
}

/** The middle value (the upper middle of an even count); NaN for none. */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** The value at fraction `p` (0 to 1) of an ascending list. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Runs a call `count` times one after another (each must answer 200): its p50 and p99 in ms. */
export async function timed(
  count: number,
  run: () => Promise<number> | number,
): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const status = await run();
    times.push(performance.now() - start);
    if (status !== 200) throw new Error(`status ${status}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}
