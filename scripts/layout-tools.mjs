// The production layout's toolbox (scripts/production-layout.mjs): Debian's nginx and coturn when missing,
// free ports, the environment files' and unit's lines as systemd reads them, and waiting for a part to answer.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';

export const NGINX = '/usr/sbin/nginx';
const TURNSERVER = '/usr/bin/turnserver';
const STARTUP_MS = 60_000;

export const log = (text) => console.log(`[layout] ${text}`);

export function ensurePackages() {
  const missing = [];
  if (!existsSync(NGINX)) missing.push('nginx');
  if (!existsSync(TURNSERVER)) missing.push('coturn');
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing Debian packages: sudo apt-get install -y ${missing.join(' ')}`);
  }
  log(`installing ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...missing],
  ]) {
    if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) throw new Error('apt-get failed');
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** KEY=VALUE lines of an environment file (the systemd EnvironmentFile format, without quoting). */
export function envFile(text) {
  const env = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  return env;
}

/** The unit's own Environment= lines (the allocator thresholds, HOST, PORT=%i). */
export function unitEnvironment(text, port) {
  const env = {};
  for (const line of text.split('\n')) {
    const match = /^Environment=([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2].replaceAll('%i', String(port));
  }
  return env;
}

/** GET over https trusting the installed certificate (made for another name); the status, 0: no answer. */
export function httpsStatus(url, ca) {
  return new Promise((resolve) => {
    const req = request(url, { ca, checkServerIdentity: () => undefined, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export async function waitFor(what, check, child) {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not come up within ${STARTUP_MS / 1000} s`);
}

/** Whether a GET of `url` answers 2xx within 2 s (a request that never settles would hold up waitFor's deadline). */
export async function httpOk(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** host:port of a URL (postgres:, redis:), for the bridge into the sandbox. */
export function endpoint(url) {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}
