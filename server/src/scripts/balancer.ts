import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { SERVER_ROOT } from '../config.js';

/** The load-balancer configuration kept in the repository. */
export const HAPROXY_CONFIG = path.join(SERVER_ROOT, '../deploy/haproxy.cfg');

const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 100;

/** The most instances the shipped configuration names (ENISHI_INSTANCE_1 to _4). */
export const MOST_INSTANCES = 4;

/**
 * The environment that points the shipped configuration, used as it is, at `port` and the instances: its
 * variables default to the production layout's addresses. One instance is named twice (the file names two).
 * Started as root, HAProxy gives root up as in production (the haproxy user, chrooted).
 */
export function haproxyEnvironment(port: number, instancePorts: number[]): NodeJS.ProcessEnv {
  if (instancePorts.length < 1 || instancePorts.length > MOST_INSTANCES)
    throw new Error(`deploy/haproxy.cfg names 1 to ${MOST_INSTANCES} instances, not ${instancePorts.length}`);
  const named = instancePorts.length === 1 ? [instancePorts[0]!, instancePorts[0]!] : instancePorts;
  return Object.fromEntries([
    ['ENISHI_HAPROXY_BIND', `127.0.0.1:${port}`],
    ...named.map((each, i) => [`ENISHI_INSTANCE_${i + 1}`, `127.0.0.1:${each}`]),
    // Only root may become the haproxy user: anyone else runs it as themselves (the file's `user`, skipped).
    ...(process.getuid?.() === 0 ? [] : [['ENISHI_HAPROXY_KEEP_USER', '1']]),
  ]) as NodeJS.ProcessEnv;
}

export interface Balancer {
  url: string;
  /** HAProxy's process (the bench reads its CPU time: docs/capacity.md). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs HAProxy in the foreground on 127.0.0.1:`port` in front of the given instance ports, with the shipped
 * configuration byte for byte; resolves once /healthz answers through it.
 */
export async function startBalancer(
  port: number,
  instancePorts: number[],
  options: { quiet?: boolean } = {},
): Promise<Balancer> {
  const env = { ...process.env, ...haproxyEnvironment(port, instancePorts) };
  // `quiet`: tests and benches restart instances on purpose, so HAProxy's warnings (an instance DOWN, then UP)
  // are kept only to say why it would not start; the operator's `npm run cluster` shows them.
  const child = spawn('haproxy', ['-db', '-f', HAPROXY_CONFIG], {
    env,
    stdio: ['ignore', 'inherit', options.quiet ? 'pipe' : 'inherit'],
  });
  let said = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    said = (said + text).slice(-4000);
  });
  // Not events.once: that would reject on 'error' too, before the message below could name the package.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const failed = once(child, 'error').then(([error]) => {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(missing ? 'haproxy is not installed (Debian package: haproxy)' : String(error));
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child, exited);
  };
  try {
    await Promise.race([
      failed,
      untilHealthy(url),
      exited.then(() => Promise.reject(new Error(`haproxy exited: ${said.trim()}`))),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, stop };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  await exited;
}

/** Resolves once `url` answers /healthz (HAProxy says nothing when it is up): ask as a client would. */
export async function untilHealthy(url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`${url} did not answer /healthz in time`);
}
