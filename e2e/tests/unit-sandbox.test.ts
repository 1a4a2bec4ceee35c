import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../server/src/test/database.js';
import { freePort } from '../../server/src/test/process.js';
import { testRedisUrl } from '../../server/src/test/redis.js';
import { cachedNode, nodeMajor } from '../lib/node-releases.js';
import { repoRoot } from '../lib/server.js';
import { readServiceUnit, syscallPolicy, type ServiceUnit } from '../lib/systemd-unit.js';

/*
 * The shipped unit (deploy/systemd/enishi@.service, read byte for byte) runs the server under its own
 * sandbox, as far as this machine reproduces it without booting systemd: its SystemCallFilter= (each set
 * expanded by this machine's systemd-analyze, applied with libseccomp, default action from
 * SystemCallErrorNumber=), NoNewPrivileges=, the empty CapabilityBoundingSet=/AmbientCapabilities=, UMask=, an
 * unprivileged user (nobody stands in for User=enishi), its Environment= lines, WorkingDirectory= (this
 * checkout stands in for /opt/enishi) and ExecStart=. Node 20, 22 and 24 must all reach /readyz
 * (docs/operations.md, "Installing"). ProtectSystem= and the other namespace settings are not reproduced.
 */

const UNIT_FILE = join(repoRoot, 'deploy/systemd/enishi@.service');
const SECCOMP_EXEC = join(repoRoot, 'e2e/lib/seccomp-exec.py');
/** Debian's python3 with its python3-seccomp bindings (scripts/test.mjs installs them). */
const PYTHON = '/usr/bin/python3';
const NOBODY = 65_534;
/** A Redis database number no other test file takes (server tests take 1 to 15). */
const REDIS_DB = 0;
const MAJORS = [20, 22, 24];

const unit: ServiceUnit = readServiceUnit(UNIT_FILE);
/**
 * As root, the server runs as nobody (standing in for User=enishi) when nobody can read this checkout (not
 * so under a 0700 home folder: then it runs as root, and says so).
 */
const root = process.getuid?.() === 0;
const asNobody =
  root &&
  (spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', UNIT_FILE])
    .status === 0 ||
    (console.warn('unit-sandbox: nobody cannot read the checkout; the server runs as root'), false));
let work: string;
let specFile: string;
let database: { url: string; drop(): Promise<void> } | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'enishi-unit-sandbox-'));
  chmodSync(work, 0o755); // the unprivileged user reads the filter from here
  specFile = join(work, 'seccomp.json');
  const umask = unit.last('UMask');
  writeFileSync(
    specFile,
    JSON.stringify({ ...syscallPolicy(unit), umask: umask === undefined ? null : parseInt(umask, 8) }),
  );
  if (process.env.TEST_DATABASE_URL) database = await createPostgresDatabase();
});

afterAll(async () => {
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

/** The command that runs `command` under the unit's privileges and system-call filter. */
function sandboxed(command: string[]): string[] {
  const privileges = ['setpriv', '--no-new-privs'];
  if (unit.last('NoNewPrivileges') !== 'yes') privileges.splice(1);
  if (asNobody) privileges.push('--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups');
  if (root) {
    if (unit.last('CapabilityBoundingSet') === '') privileges.push('--bounding-set=-all');
    if (unit.last('AmbientCapabilities') === '') privileges.push('--inh-caps=-all', '--ambient-caps=-all');
  }
  return [...privileges, PYTHON, SECCOMP_EXEC, specFile, ...command];
}

/** The unit's Environment= lines for instance `port` (%i), as systemd sets them. */
function unitEnvironment(port: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of unit.values('Environment')) {
    const assignment = value.replace(/^"(.*)"$/, '$1').replaceAll('%i', String(port));
    const equals = assignment.indexOf('=');
    env[assignment.slice(0, equals)] = assignment.slice(equals + 1);
  }
  return env;
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  readyz?: { status: number; body: unknown };
  log: string;
}

/** Starts the unit's ExecStart with `node`, asks /readyz once it listens, then stops it as systemd does. */
async function runInstance(node: string): Promise<Outcome> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(work, 'data-'));
  if (asNobody) chownSync(dataDir, NOBODY, NOBODY);
  const [, ...args] = unit.last('ExecStart')!.split(/\s+/);
  const command = sandboxed([node, ...args]);
  const child = spawn(command[0]!, command.slice(1), {
    cwd: repoRoot,
    env: {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin',
      ...unitEnvironment(port),
      // What /etc/enishi/enishi.env holds on a cluster.
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: testRedisUrl(REDIS_DB) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const listening = new Promise<boolean>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      log += `${line}\n`;
      if (line.includes('Server listening at')) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  let readyz: Outcome['readyz'];
  if (await listening) {
    const reply = await fetch(`http://127.0.0.1:${port}/readyz`);
    readyz = { status: reply.status, body: await reply.json() };
    child.kill(unit.last('KillSignal') as NodeJS.Signals);
  }
  const [code, signal] = await exited;
  return { code, signal, readyz, log };
}

describe('the shipped enishi@.service', () => {
  it('passes systemd-analyze verify as an instance, without a word', () => {
    const dir = mkdtempSync(join(work, 'verify-'));
    copyFileSync(UNIT_FILE, join(dir, 'enishi@8081.service'));
    const result = spawnSync('systemd-analyze', ['verify', join(dir, 'enishi@8081.service')], {
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('kills a process that makes a call outside its filter (the filter is really applied)', () => {
    const command = sandboxed([PYTHON, '-c', 'import os; os.chroot("/")']);
    const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
    expect(result.signal).toBe('SIGSYS');
  });

  const execStartNode = unit.last('ExecStart')!.split(/\s+/)[0]!;
  for (const major of MAJORS) {
    it(`starts the server under Node ${major} and answers /readyz`, async () => {
      // ExecStart's own node where it is this release (Debian's, or NodeSource's), otherwise the official build.
      const node = nodeMajor(execStartNode) === major ? execStartNode : cachedNode(major);
      expect(nodeMajor(node)).toBe(major);
      const outcome = await runInstance(node);
      expect(outcome.signal, `killed under the unit's filter:\n${outcome.log}`).toBeNull();
      expect(outcome.readyz, outcome.log).toEqual({ status: 200, body: { status: 'ok' } });
      expect(outcome.code, outcome.log).toBe(0);
    });
  }
});
