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
 * deploy/nginx/enishi.conf byte for byte into Debian's /etc/nginx (whose nginx.conf is used unchanged), and nginx
 * listens on the real ports 80 and 443 in a sandbox with this machine's /etc and /var overlaid and a network of
 * its own (scripts/deploy-sandbox.mjs). Behind it, the built server on 127.0.0.1:8081 as enishi@8081 runs it;
 * coturn from its unit, for the certificate renewal.
 */

const name = 'enishi.test';
const dataDir = mkdtempSync(join(tmpdir(), 'enishi-nginx-test-'));
let sandbox: DeploySandbox;
let nginx: ChildProcess;
let instance: ChildProcess;
let instanceLog = '';
let coturn: ChildProcess | undefined;

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
  await installEdge(sandbox, { name, turnSecret: randomBytes(24).toString('base64') });

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
    // The embedded database's first start (migrations) on a busy machine.
    120,
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
       printf '${token}.key' > /var/www/enishi-acme/.well-known/acme-challenge/${token}`,
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
    const access = readFileSync(sandbox.hostPath('/var/log/nginx/enishi.access.log'), 'utf8');
    const logged = access.split('\n').find((each) => each.includes(`rid=${id}`));
    expect(logged).toContain(`"GET /api/config?probe=1 HTTP/2.0" ${reply.status} `);
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
});
