import { spawn, type ChildProcess } from 'node:child_process';
import { ALLOCATOR_ENV } from '../lib/allocator.js';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { MOST_INSTANCES, startBalancer, untilHealthy, type Balancer } from './balancer.js';

/*
 * `npm run cluster`: INSTANCES built servers (default 2, at most 4) on 127.0.0.1, ports PORT+1…PORT+N, sharing
 * DATABASE_URL, REDIS_URL and DATA_DIR, with HAProxy in front on 127.0.0.1:PORT (default 8080).
 * Ctrl-C stops them all (docs/several-instances.md).
 */

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
/** Every instance started, so a failed start stops the ones already running. */
const started: ChildProcess[] = [];

function required(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) {
    console.error(`${name} is required: every instance must use the same ${name}`);
    process.exit(1);
  }
  return value;
}

/** Starts one instance and resolves once it answers /healthz; its log goes to this terminal. */
async function startInstance(port: number, env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...env, ...ALLOCATOR_ENV, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  started.push(child);
  await Promise.race([
    untilHealthy(`http://127.0.0.1:${port}`),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`instance on ${port} exited (${code})`))),
  ]);
}

let balancer: Balancer | undefined;

/** Stops the balancer, then drains each instance with SIGTERM (no accepted message is lost). */
async function stopAll(code: number): Promise<never> {
  await balancer?.stop();
  await Promise.all(
    started.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }),
  );
  process.exit(code);
}

async function main(): Promise<void> {
  required('DATABASE_URL');
  required('REDIS_URL');
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));
  const port = Number(process.env.PORT || 8080);
  const count = Number(process.env.INSTANCES || 2);
  // deploy/haproxy.cfg, used as shipped, names up to MOST_INSTANCES.
  if (!Number.isInteger(count) || count < 1 || count > MOST_INSTANCES)
    throw new Error(`INSTANCES must be 1 to ${MOST_INSTANCES}`);
  if (!Number.isInteger(port) || port < 1 || port + count > 65_535)
    throw new Error('PORT must be a free port');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${port}`,
    TRUST_PROXY: '127.0.0.1',
  };
  const ports = Array.from({ length: count }, (_, i) => port + i + 1);
  // The first one alone: it migrates the database and creates the owner before the others look.
  await startInstance(ports[0]!, env);
  await Promise.all(ports.slice(1).map((each) => startInstance(each, env)));
  balancer = await startBalancer(port, ports);
  console.log(`enishi: ${count} instances behind ${balancer.url} (Ctrl-C stops them all)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  void stopAll(1);
});
