import { randomBytes, X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DeploySandbox,
  OUTSIDE_ADDRESS,
  PRIVATE_ADDRESS,
  PUBLIC_ADDRESS,
  installEdge,
  startUnit,
} from '../../scripts/deploy-sandbox.mjs';
import { iceServersFor } from '../../server/src/lib/ice-servers.js';
import { repoRoot } from '../lib/server.js';

/*
 * coturn as a server runs it (docs/operations.md, "Calls: coturn"): deploy/install-edge.sh installs
 * deploy/coturn/turnserver.conf and the unit byte for byte, and coturn starts with the unit's own ExecStartPre and
 * ExecStart lines as its user, in a sandbox with this machine's /etc and /var overlaid, its own network (a public
 * and a private address) and the real ports 3478 and 5349 (scripts/deploy-sandbox.mjs). A small TURN client
 * (lib/turn-probe.mjs) asks it for allocations and relays, with the credentials /api/config hands out.
 */

const unit = join(repoRoot, 'deploy/systemd/enishi-coturn.service');
const probe = join(repoRoot, 'e2e/lib/turn-probe.mjs');
const server = `${PUBLIC_ADDRESS}:3478`;
const secret = randomBytes(24).toString('base64');
let sandbox: DeploySandbox;
let stopCoturn: () => Promise<void> = async () => {};

interface ProbeResult {
  unauthenticated: 'ok' | 'timeout' | number;
  allocate?: 'ok' | 'timeout' | number;
  permissions: Record<string, 'ok' | 'timeout' | number>;
  relayed?: boolean;
}

async function ask(input: object): Promise<ProbeResult> {
  const output = await sandbox.check(process.execPath, [probe, JSON.stringify({ server, ...input })]);
  return JSON.parse(output) as ProbeResult;
}

/** The TURN credential of one user exactly as GET /api/config makes it (server/src/lib/ice-servers.ts). */
function credential(turnSecret: string, now = Date.now()): { username: string; password: string } {
  const [entry] = iceServersFor(
    { servers: [{ urls: [`turn:${server}?transport=udp`] }], turnSecret, turnTtlSeconds: 3600 },
    42,
    now,
  );
  return { username: entry!.username!, password: entry!.credential! };
}

async function waitUntil(what: () => string, check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what()}: not within 10 s`);
}

const listening = async () => {
  const { output } = await sandbox.run('ss', ['-Hlntu']);
  return output.includes(`${PUBLIC_ADDRESS}:3478`) && output.includes(`${PUBLIC_ADDRESS}:5349`);
};

/** Starts enishi-coturn from its unit; resolves with the pre-start failure, if any. */
async function startCoturn(): Promise<string | null> {
  await sandbox.check('install', ['-d', '-o', 'turnserver', '-g', 'turnserver', '/run/enishi-coturn']);
  const started = await startUnit(sandbox, unit);
  if (started.failed !== undefined) return started.failed;
  const { child, log } = started;
  stopCoturn = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  };
  await waitUntil(() => `coturn listening on 3478 and 5349 (its log:\n${log()})`, listening);
  return null;
}

beforeAll(async () => {
  sandbox = await DeploySandbox.create();
  await installEdge(sandbox, { name: 'turn.enishi.test', turnSecret: secret });
  expect(await startCoturn()).toBeNull();
}, 120_000);

afterAll(async () => {
  await stopCoturn();
  sandbox?.close();
});

describe('coturn as installed', () => {
  test('refuses an allocation without credentials; allocates with /api/config credentials; relays to the public only', async () => {
    // A phone out there that echoes what the relay sends it.
    const echo = sandbox.spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:dgram').createSocket('udp4');
         s.on('message', (m, r) => s.send(m, r.port, r.address));
         s.bind(40000, ${JSON.stringify(OUTSIDE_ADDRESS)}, () => console.log('ready'));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await once(echo.stdout!, 'data');
    try {
      const result = await ask({
        ...credential(secret),
        peers: [OUTSIDE_ADDRESS, '127.0.0.1', PRIVATE_ADDRESS, '192.168.1.10', '172.16.0.1'],
        echo: `${OUTSIDE_ADDRESS}:40000`,
      });
      expect(result.unauthenticated).toBe(401);
      expect(result.allocate).toBe('ok');
      expect(result.permissions).toEqual({
        [OUTSIDE_ADDRESS]: 'ok',
        '127.0.0.1': 403,
        [PRIVATE_ADDRESS]: 403,
        '192.168.1.10': 403,
        '172.16.0.1': 403,
      });
      expect(result.relayed).toBe(true);
    } finally {
      echo.kill();
    }
  });

  test('refuses a credential made with another secret or already expired', async () => {
    expect((await ask({ ...credential('another secret of enough length'), peers: [] })).allocate).toBe(401);
    const expired = credential(secret, Date.now() - 2 * 3600_000);
    expect((await ask({ ...expired, peers: [] })).allocate).toBe(401);
  });

  test('serves turns: on 5349 with the certificate at /etc/enishi/tls', async () => {
    const installed = new X509Certificate(readFileSync(sandbox.hostPath('/etc/enishi/tls/fullchain.pem')));
    const served = await sandbox.check(process.execPath, [
      '-e',
      `const socket = require('node:tls').connect({ host: ${JSON.stringify(PUBLIC_ADDRESS)}, port: 5349,
         rejectUnauthorized: false }, () => { console.log(socket.getPeerX509Certificate().fingerprint256); socket.end(); });`,
    ]);
    expect(served.trim()).toBe(installed.fingerprint256);
  });

  test('does not start when its user cannot read its file (it would relay for anyone)', async () => {
    await stopCoturn();
    try {
      // The old doc's folder (0750 root:enishi): coturn's user could not reach its file.
      await sandbox.check('chmod', ['0700', '/etc/enishi']);
      expect(await startCoturn()).toMatch(
        /turnserver cannot read \/etc\/enishi\/turnserver\.conf; not starting/,
      );
      await sandbox.check('chmod', ['0755', '/etc/enishi']);
      await sandbox.check('chmod', ['0600', '/etc/enishi/tls/privkey.pem']);
      expect(await startCoturn()).toMatch(/cannot read \/etc\/enishi\/tls\/privkey\.pem/);
    } finally {
      await sandbox.check('chmod', ['0755', '/etc/enishi']);
      await sandbox.check('chmod', ['0640', '/etc/enishi/tls/privkey.pem']);
    }
    expect(await startCoturn()).toBeNull();
    expect((await ask({ peers: [] })).unauthenticated).toBe(401);
  });
});
