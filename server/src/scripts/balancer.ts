import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_ROOT } from '../config.js';

/** The load-balancer configuration kept in the repository. */
export const HAPROXY_CONFIG = path.join(SERVER_ROOT, '../deploy/haproxy.cfg');

const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 100;

/** The repository's configuration with its listening port and instance list replaced; nothing else changes. */
export function haproxyConfig(template: string, port: number, instancePorts: number[]): string {
  const servers = instancePorts.map((each, i) => `    server instance-${i + 1} 127.0.0.1:${each}`);
  const lines = template.split('\n');
  const kept = lines.filter((line) => !/^\s*server\s/.test(line));
  const backend = kept.findIndex((line) => line.startsWith('backend instances'));
  let end = kept.findIndex((line, i) => i > backend && line.trim() === '');
  if (end < 0) end = kept.length;
  kept.splice(end, 0, ...servers);
  return kept.join('\n').replace(/^(\s*bind )\S+/m, `$1127.0.0.1:${port}`);
}

export interface Balancer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs HAProxy in the foreground on 127.0.0.1:`port` in front of the given instance ports, with a
 * configuration written to a temporary folder; resolves once /healthz answers through it.
 */
export async function startBalancer(
  port: number,
  instancePorts: number[],
  options: { quiet?: boolean } = {},
): Promise<Balancer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'enishi-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, haproxyConfig(await readFile(HAPROXY_CONFIG, 'utf8'), port, instancePorts));
  // `quiet`: tests and benches restart instances on purpose, so HAProxy's warnings (an instance DOWN, then UP)
  // are kept only to say why it would not start; the operator's `npm run cluster` shows them.
  const child = spawn('haproxy', ['-db', '-f', file], {
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
    await rm(dir, { recursive: true, force: true });
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
  return { url, stop };
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
