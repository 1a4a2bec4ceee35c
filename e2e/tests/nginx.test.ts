import type { ChildProcess } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DeploySandbox, installEdge, PUBLIC_ADDRESS, startUnit } from '../../scripts/deploy-sandbox.mjs';
import { repoRoot } from '../lib/server.js';

/*
 * nginx as a server runs it (docs/operations.md, "nginx, coturn and certificates"): deploy/install-edge.sh installs
 * deploy/nginx/enishi.conf byte for byte into Debian's /etc/nginx (raising two limits in its nginx.conf), and nginx
 * listens on the real ports 80 and 443 in a sandbox with this machine's /etc and /var overlaid and a network of
 * its own (scripts/deploy-sandbox.mjs). Behind it, the built server on 127.0.0.1:8081 as enishi@8081 runs it;
 * coturn from its unit, for the certificate renewal. Thousands of chat sockets at once come from lib/socket-crowd.mjs.
 */

const name = 'enishi.test';
const crowdScript = join(repoRoot, 'e2e/lib/socket-crowd.mjs');
/**
 * Chat sockets held through nginx at once, two connections each, for each of its workers (one a core): more than
 * Debian's nginx.conf lets a worker hold (768 connections, about 380 sockets), a sixteenth of install-edge.sh's.
 */
const CROWD_PER_WORKER = 500;
const dataDir = mkdtempSync(join(tmpdir(), 'enishi-nginx-test-'));
let sandbox: DeploySandbox;
let nginx: ChildProcess;
let instance: ChildProcess;
let instanceLog = '';
let coturn: ChildProcess | undefined;
const turnSecret = randomBytes(24).toString('base64');

/** curl from inside the sandbox, as a browser out there would reach the server's public address. */
async function curl(url: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const output = await sandbox.check('curl', [
    '-sk',
    '--resolve',
    `${name}:80:${PUBLIC_ADDRESS}`,
    '--resolve',
    `${name}:443:${PUBLIC_ADDRESS}`,
    '-D',
    '-',
    url,
  ]);
  const [head = '', ...body] = output.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return {
    status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(statusLine)?.[1]),
    headers,
    body: body.join('\r\n\r\n'),
  };
}

/** The first line `child` writes to its stdout. */
async function firstLine(child: ChildProcess): Promise<string> {
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    if (output.includes('\n')) return output.slice(0, output.indexOf('\n'));
  }
  throw new Error(`exited without a line: ${output}`);
}

/** The SHA-256 fingerprint of the certificate served on `port` of the public address. */
async function servedCertificate(port: number): Promise<string> {
  const pem = await sandbox.check('sh', [
    '-c',
    `openssl s_client -connect ${PUBLIC_ADDRESS}:${port} -servername ${name} </dev/null 2>/dev/null | openssl x509`,
  ]);
  return new X509Certificate(pem).fingerprint256;
}

const installedCertificate = () =>
  new X509Certificate(readFileSync(sandbox.hostPath('/etc/enishi/tls/fullchain.pem'))).fingerprint256;

async function waitUntil(what: () => string, check: () => Promise<boolean>, seconds = 10): Promise<void> {
  for (let attempt = 0; attempt < seconds * 10; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what()}: not within ${seconds} s`);
}

beforeAll(async () => {
  sandbox = await DeploySandbox.create();
  await installEdge(sandbox, { name, turnSecret });

  // One instance where enishi@8081 listens (embedded database: this test needs one only).
  instance = sandbox.spawn(process.execPath, [join(repoRoot, 'server/dist/main.js')], {
    env: {
      PATH: process.env.PATH,
      PORT: '8081',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: `https://${name}`,
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  instance.stdout!.on('data', (chunk: Buffer) => (instanceLog += chunk.toString()));
  instance.stderr!.on('data', (chunk: Buffer) => (instanceLog += chunk.toString()));

  // The instance first: a connection nginx finds refused takes the instance out of its upstream for 5 s (in that
  // worker), so a socket opened in those 5 s would be refused with a 502.
  await waitUntil(
    () => `the instance (${instanceLog.slice(-2000)})`,
    async () => (await sandbox.run('curl', ['-sf', 'http://127.0.0.1:8081/readyz'])).code === 0,
    // The embedded database's first start (migrations) on a busy machine.
    120,
  );

  // nginx as Debian's unit starts it (its pid file, /run/nginx.pid, is what `nginx -s reload` signals).
  nginx = sandbox.spawn('nginx', ['-g', 'daemon off; master_process on;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let nginxLog = '';
  nginx.stderr!.on('data', (chunk: Buffer) => (nginxLog += chunk.toString()));
  await sandbox.check('install', ['-d', '-o', 'turnserver', '-g', 'turnserver', '/run/enishi-coturn']);
  const started = await startUnit(sandbox, join(repoRoot, 'deploy/systemd/enishi-coturn.service'));
  if (started.failed !== undefined) throw new Error(`coturn: ${started.failed}`);
  coturn = started.child;

  await waitUntil(
    () => `the instance behind nginx (nginx: ${nginxLog}; instance: ${instanceLog.slice(-2000)})`,
    async () => (await curl(`https://${name}/readyz`).catch(() => ({ status: 0 }))).status === 200,
  );
  await waitUntil(
    () => 'coturn on 5349',
    async () => (await sandbox.run('ss', ['-Hlnt'])).output.includes(`${PUBLIC_ADDRESS}:5349`),
  );
}, 180_000);

afterAll(async () => {
  for (const child of [coturn, nginx, instance]) {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 40_000);

describe('nginx as installed', () => {
  test('serves certbot challenges from the webroot over http and sends everything else to https', async () => {
    const token = randomBytes(16).toString('base64url');
    await sandbox.check('sh', [
      '-c',
      `install -d /var/www/enishi-acme/.well-known/acme-challenge &&
       printf '%s' '${token}.key' > /var/www/enishi-acme/.well-known/acme-challenge/${token}`,
    ]);
    const challenge = await curl(`http://${name}/.well-known/acme-challenge/${token}`);
    expect(challenge.status).toBe(200);
    expect(challenge.body).toBe(`${token}.key`);
    // A token certbot did not write: not found, not the app's page, not a redirect.
    expect((await curl(`http://${name}/.well-known/acme-challenge/unknown`)).status).toBe(404);

    const other = await curl(`http://${name}/talkrooms/staff?tab=1`);
    expect(other.status).toBe(301);
    expect(other.headers.location).toBe(`https://${name}/talkrooms/staff?tab=1`);
  });

  test('its access log carries the request id the instance logs as reqId', async () => {
    // /healthz and /readyz are not logged by the instances (health checks); a call is.
    const reply = await curl(`https://${name}/api/config?probe=1`);
    const id = reply.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await waitUntil(
      () => `a request line of ${id} in the instance's log`,
      async () => instanceLog.includes(`"reqId":"${id}"`),
    );
    const line = instanceLog
      .split('\n')
      .find((each) => each.includes(`"reqId":"${id}"`) && each.includes('"request"'));
    expect(JSON.parse(line!)).toMatchObject({ reqId: id, path: '/api/config', status: reply.status });
    // nginx logs a request once it has answered, which may be after the instance logged it.
    const logged = () =>
      readFileSync(sandbox.hostPath('/var/log/nginx/enishi.access.log'), 'utf8')
        .split('\n')
        .find((each) => each.includes(`rid=${id}`));
    await waitUntil(
      () => `a line of ${id} in nginx's access log`,
      async () => logged() !== undefined,
    );
    expect(logged()).toContain(`"GET /api/config?probe=1 HTTP/2.0" ${reply.status} `);
  });

  test("certbot's deploy hook puts a renewed certificate in place, and nginx and coturn serve it", async () => {
    const before = installedCertificate();
    expect(await servedCertificate(443)).toBe(before);
    expect(await servedCertificate(5349)).toBe(before);

    // What certbot leaves after a renewal: a new pair in the lineage's folder.
    const lineage = `/etc/letsencrypt/live/${name}`;
    await sandbox.check('sh', [
      '-c',
      `install -d -m 0700 ${lineage} && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
         -days 90 -subj /CN=${name} -keyout ${lineage}/privkey.pem -out ${lineage}/fullchain.pem 2>/dev/null`,
    ]);
    await sandbox.check('/etc/letsencrypt/renewal-hooks/deploy/enishi.sh', [], {
      env: { PATH: process.env.PATH, RENEWED_LINEAGE: lineage },
    });
    const renewed = installedCertificate();
    expect(renewed).not.toBe(before);
    expect(renewed).toBe(
      new X509Certificate(readFileSync(sandbox.hostPath(`${lineage}/fullchain.pem`))).fingerprint256,
    );
    const modes = await sandbox.check('stat', [
      '-c',
      '%n %U:%G %a',
      '/etc/enishi/tls/fullchain.pem',
      '/etc/enishi/tls/privkey.pem',
    ]);
    expect(modes.trim().split('\n')).toEqual([
      '/etc/enishi/tls/fullchain.pem root:turnserver 644',
      '/etc/enishi/tls/privkey.pem root:turnserver 640',
    ]);
    await waitUntil(
      () => 'nginx serving the renewed certificate',
      async () => (await servedCertificate(443)) === renewed,
    );
    await waitUntil(
      () => 'coturn serving the renewed certificate',
      async () => (await servedCertificate(5349)) === renewed,
    );
    // Reloaded, not restarted: the same processes serve.
    expect(nginx.exitCode).toBeNull();
    expect(coturn!.exitCode).toBeNull();
  });

  test(`holds ${CROWD_PER_WORKER} chat sockets a worker at once, both connections of each`, async () => {
    const workers = await sandbox.check('pgrep', ['-P', String(nginx.pid), '-f', '^nginx: worker process$']);
    const count = CROWD_PER_WORKER * workers.trim().split('\n').length;
    const input = { url: `wss://${PUBLIC_ADDRESS}/ws/chat`, name, count, atOnce: 100, seconds: 20 };
    const crowd = sandbox.spawn(process.execPath, [crowdScript, JSON.stringify(input)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      // Within 20 s (1,000: 2 to 6 s on a busy 2-core machine); each socket stays connected 35 s (socket-crowd.mjs).
      const opening = JSON.parse(await firstLine(crowd)) as { opened: number; first?: string };
      expect(opening.first, `${opening.opened} open when one failed`).toBeUndefined();
      expect(opening.opened).toBe(count);
      // What nginx holds now: every socket's connection from the phone and its connection to the instance.
      const connections = (await sandbox.check('ss', ['-Htn', 'state', 'established']))
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s+/));
      const fromPhones = connections.filter(([, , local]) => local === `${PUBLIC_ADDRESS}:443`);
      const toInstance = connections.filter(([, , , peer]) => peer === '127.0.0.1:8081');
      expect(fromPhones.length).toBeGreaterThanOrEqual(count);
      expect(toInstance.length).toBeGreaterThanOrEqual(count);
    } finally {
      crowd.stdin!.end();
      if (crowd.exitCode === null) await once(crowd, 'exit');
    }
    // Nor did nginx say it ran out of connections (an alert once it has none to take back: running short, it
    // drops connections still in their TLS handshake with a warning Debian's error_log level does not keep, which
    // the crowd's count shows) or files, or could not take the files install-edge.sh gives it.
    const errors = await sandbox.check('cat', ['/var/log/nginx/error.log']);
    expect(errors).not.toMatch(/worker_connections are not enough|Too many open files|setrlimit/);
  });
});
