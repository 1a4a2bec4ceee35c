import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/process.js';
import { HAPROXY_CONFIG, haproxyEnvironment } from './balancer.js';

/*
 * deploy/haproxy.cfg as shipped takes the chat sockets docs/capacity.md sizes for (10,000 at the 100,000-member
 * club's peak): HAProxy started with it byte for byte (the instances need not run) says in `show info`, on its
 * master socket, how many connections it will hold. Needs the Debian package haproxy.
 */

/** The hard limit on open files this process (and so HAProxy, started from it) has. */
function hardFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((each) => each.startsWith('Max open files'));
  const hard = line?.trim().split(/\s+/)[4];
  return hard === 'unlimited' ? Infinity : Number(hard);
}

/** A command on HAProxy's master socket (`@1`: its worker); resolves with the whole answer. */
async function masterCommand(socketPath: string, command: string): Promise<string> {
  const socket = createConnection(socketPath);
  let answer = '';
  socket.setEncoding('utf8').on('data', (text: string) => (answer += text));
  socket.end(`${command}\n`);
  await once(socket, 'close');
  return answer;
}

describe('deploy/haproxy.cfg as shipped', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'enishi-haproxy-'));
  const master = path.join(dir, 'master.sock');
  let haproxy: ChildProcess;
  let info: Record<string, string> = {};

  beforeAll(async () => {
    const env = haproxyEnvironment(await freePort(), [await freePort(), await freePort()]);
    haproxy = spawn('haproxy', ['-W', '-db', '-S', master, '-f', HAPROXY_CONFIG], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    haproxy.stderr!.setEncoding('utf8').on('data', (text: string) => (said += text));
    for (let attempt = 0; attempt < 100 && !info.Maxconn; attempt += 1) {
      if (haproxy.exitCode !== null) throw new Error(`haproxy exited: ${said}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await masterCommand(master, '@1 show info').catch(() => '');
      info = Object.fromEntries(answer.split('\n').map((line) => line.split(': ', 2) as [string, string]));
    }
    if (!info.Maxconn) throw new Error(`no answer on haproxy's master socket: ${said}`);
  }, 30_000);

  afterAll(async () => {
    if (haproxy?.exitCode === null) {
      haproxy.kill('SIGTERM');
      await once(haproxy, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds as many connections as its open files allow, two files each, up to 20,000', () => {
    // 40,000 files where the hard limit HAProxy starts under allows them (a server's), else that limit (CI's).
    const files = Math.min(40_000, hardFileLimit());
    expect(Number(info['Ulimit-n'])).toBeGreaterThanOrEqual(files - 1);
    expect(Number(info.Maxconn)).toBeGreaterThanOrEqual(Math.floor(files / 2) - 50);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'gives root up once started: its worker runs as the haproxy user, shut in /var/lib/haproxy',
    async () => {
      const worker = /^(\d+)\s+worker\b/m.exec(await masterCommand(master, 'show proc'))?.[1];
      expect(worker).toBeDefined();
      const status = readFileSync(`/proc/${worker}/status`, 'utf8');
      const haproxyUid = execFileSync('id', ['-u', 'haproxy'], { encoding: 'utf8' }).trim();
      // Real, effective, saved and filesystem uid: none is root any more.
      expect(/^Uid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/)).toEqual(Array(4).fill(haproxyUid));
      expect(readlinkSync(`/proc/${worker}/root`)).toBe('/var/lib/haproxy');
    },
  );

  it('lets its frontend take every one of them (its own limit is the global one)', async () => {
    const [header = '', ...rows] = (await masterCommand(master, '@1 show stat')).trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const frontend = rows.map((row) => row.split(',')).find((row) => row[1] === 'FRONTEND');
    expect(frontend?.[0]).toBe('enishi');
    expect(Number(frontend![columns.indexOf('slim')])).toBe(Number(info.Maxconn));
  });
});
