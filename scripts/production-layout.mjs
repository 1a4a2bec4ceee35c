#!/usr/bin/env node
// `npm run layout`: the production layout of docs/operations.md on this one machine, on 127.0.0.1 only:
// nginx terminating TLS with a self-signed certificate, two instances, a fresh PostgreSQL database on the
// local server, Redis, and coturn. It runs the files in deploy/ as they are, rewriting only the lines marked
// "layout:" (addresses, ports, paths, secrets). Ctrl-C (or SIGTERM) stops everything and drops the database.
//
// Needs `npm run build` first; installs Debian's nginx and coturn when missing (as root, like npm test).
// Environment: LAYOUT_PORT (https port; default a free one), LAYOUT_POSTGRES (default
// postgres://postgres@127.0.0.1:5432), LAYOUT_REDIS (default redis://127.0.0.1:6379/5), LAYOUT_DIR (where
// configuration, certificate, data and logs go; kept when given, else a temporary folder removed at the end).
// When everything answers through https it prints one line `LAYOUT_READY {json}` (what the browser test reads).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

const root = fileURLToPath(new URL('..', import.meta.url));
const deploy = (file) => join(root, 'deploy', file);
const NGINX = '/usr/sbin/nginx';
const TURNSERVER = '/usr/bin/turnserver';
const STARTUP_MS = 60_000;

const log = (text) => console.log(`[layout] ${text}`);

function ensurePackages() {
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

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Replaces each line marked `# layout: <mark>` by what `rewrite(mark, line)` gives (null drops it). */
function rewriteLayout(text, rewrite) {
  const lines = [];
  for (const line of text.split('\n')) {
    const mark = /#\s*layout:\s*([\w-]+)\s*$/.exec(line)?.[1];
    if (!mark) {
      lines.push(line);
      continue;
    }
    const bare = line.replace(/\s*#\s*layout:.*$/, '');
    const next = rewrite(mark, bare);
    if (next === undefined) throw new Error(`no rewrite for layout line "${mark}"`);
    if (next !== null) lines.push(...[next].flat());
  }
  return lines.join('\n');
}

/** KEY=VALUE lines of an environment file (the systemd EnvironmentFile format, without quoting). */
function envFile(text) {
  const env = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  return env;
}

/** The unit's own Environment= lines (the allocator thresholds, HOST, PORT=%i). */
function unitEnvironment(text, port) {
  const env = {};
  for (const line of text.split('\n')) {
    const match = /^Environment=([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2].replaceAll('%i', String(port));
  }
  return env;
}

function selfSignedCertificate(dir) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  if (result.status !== 0) throw new Error('openssl could not make a certificate');
  return { cert, key };
}

/** GET over https trusting the layout's certificate; resolves with the status (0: no answer). */
function httpsStatus(url, ca, headers = {}) {
  return new Promise((resolve) => {
    const req = request(url, { ca, headers, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function waitFor(what, check, child) {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not come up within ${STARTUP_MS / 1000} s`);
}

async function httpOk(url) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

function start(name, command, args, options, logPath) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const sink = logPath;
  const write = (chunk) => writeFileSync(sink, chunk, { flag: 'a' });
  child.stdout.on('data', write);
  child.stderr.on('data', write);
  child.on('exit', (code, signal) => {
    if (!stopping) log(`${name} exited (${signal ?? code}); its log: ${sink}`);
  });
  return child;
}

let stopping = false;
const children = [];
let database = null;
let runDir = null;
let keepDir = false;

async function stopAll() {
  if (stopping) return;
  stopping = true;
  // nginx first (no new requests), then the instances drain, then coturn; the database goes last.
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await once(child, 'exit');
    clearTimeout(timer);
  }
  if (database) {
    const admin = postgres(database.adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${database.name}" with (force)`).catch(() => undefined);
    await admin.end({ timeout: 5 });
  }
  if (runDir && !keepDir) rmSync(runDir, { recursive: true, force: true });
}

async function main() {
  if (!existsSync(join(root, 'server/dist/main.js')) || !existsSync(join(root, 'web/dist/index.html'))) {
    throw new Error('the app is not built: npm run build');
  }
  ensurePackages();

  keepDir = Boolean(process.env.LAYOUT_DIR);
  runDir = process.env.LAYOUT_DIR ?? mkdtempSync(join(tmpdir(), 'enishi-layout-'));
  mkdirSync(runDir, { recursive: true });
  // nginx's workers (nobody) write request bodies under tmp/.
  chmodSync(runDir, 0o755);
  mkdirSync(join(runDir, 'tmp'), { recursive: true });
  chmodSync(join(runDir, 'tmp'), 0o777);
  const dataDir = join(runDir, 'data');
  mkdirSync(dataDir, { recursive: true });

  const httpsPort = Number(process.env.LAYOUT_PORT ?? (await freePort()));
  const instancePorts = [await freePort(), await freePort()];
  const turnPort = await freePort();
  const turnTlsPort = await freePort();
  const relayBase = 40_000 + Math.floor(Math.random() * 200) * 100;
  const origin = `https://127.0.0.1:${httpsPort}`;
  const { cert, key } = selfSignedCertificate(runDir);
  const ca = readFileSync(cert);

  // A fresh database on the local PostgreSQL.
  const adminUrl = new URL(process.env.LAYOUT_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432');
  adminUrl.pathname = '/postgres';
  const name = `enishi_layout_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end({ timeout: 5 });
  database = { adminUrl: adminUrl.toString(), name };
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${name}`;
  log(`database ${name}`);

  // coturn with deploy/coturn/turnserver.conf. Everything is on 127.0.0.1 here, so the rule against relaying
  // to this machine and private networks is left out, and its database of users is the run's own.
  const turnSecret = randomBytes(24).toString('base64url');
  const turnConf = rewriteLayout(readFileSync(deploy('coturn/turnserver.conf'), 'utf8'), (mark) => {
    const lines = {
      secret: `static-auth-secret=${turnSecret}`,
      realm: 'realm=localhost',
      port: `listening-port=${turnPort}`,
      'tls-port': `tls-listening-port=${turnTlsPort}`,
      ip: 'listening-ip=127.0.0.1',
      'relay-ip': 'relay-ip=127.0.0.1',
      cert: `cert=${cert}`,
      key: `pkey=${key}`,
      'min-port': `min-port=${relayBase}`,
      'max-port': `max-port=${relayBase + 99}`,
      deny: null,
    };
    return lines[mark];
  });
  const turnConfPath = join(runDir, 'turnserver.conf');
  writeFileSync(turnConfPath, `${turnConf}\nuserdb=${join(runDir, 'turndb')}\n`);
  const turn = start(
    'coturn',
    TURNSERVER,
    ['-c', turnConfPath, `--pidfile=${join(runDir, 'turnserver.pid')}`, '--log-file=stdout'],
    {},
    join(runDir, 'coturn.log'),
  );
  children.push(turn);

  // The instances: deploy/enishi.env.example with this machine's values, and the unit's Environment= lines.
  const shared = envFile(readFileSync(deploy('enishi.env.example'), 'utf8'));
  const unit = readFileSync(deploy('systemd/enishi@.service'), 'utf8');
  const owner = { id: 'owner', password: `Owner.${randomBytes(6).toString('hex')}` };
  const metricsToken = randomBytes(24).toString('base64url');
  const iceServers = [
    {
      urls: [
        `stun:127.0.0.1:${turnPort}`,
        `turn:127.0.0.1:${turnPort}?transport=udp`,
        `turn:127.0.0.1:${turnPort}?transport=tcp`,
      ],
    },
  ];
  const instanceEnv = (port) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...shared,
    PUBLIC_ORIGIN: origin,
    TRUST_PROXY: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: process.env.LAYOUT_REDIS ?? 'redis://127.0.0.1:6379/5',
    DATA_DIR: dataDir,
    OWNER_ID: owner.id,
    OWNER_PASSWORD: owner.password,
    VAPID_PUBLIC_KEY: '',
    VAPID_PRIVATE_KEY: '',
    VAPID_SUBJECT: 'mailto:office@enishi.invalid',
    TURN_SECRET: turnSecret,
    ICE_SERVERS: JSON.stringify(iceServers),
    METRICS_TOKEN: metricsToken,
    BACKUP_DIR: '',
    BACKUP_PASSPHRASE: '',
    ...unitEnvironment(unit, port),
  });
  // The first instance runs the migrations of a new database before the second starts.
  for (const [index, port] of instancePorts.entries()) {
    const instance = start(
      `instance ${index + 1}`,
      process.execPath,
      [join(root, 'server/dist/main.js')],
      { env: instanceEnv(port), cwd: root },
      join(runDir, `instance-${index + 1}.log`),
    );
    children.push(instance);
    await waitFor(`instance ${index + 1}`, () => httpOk(`http://127.0.0.1:${port}/readyz`), instance);
    log(`instance ${index + 1} on 127.0.0.1:${port}`);
  }

  // nginx with deploy/nginx/enishi.conf in a main configuration of its own (no system nginx is touched).
  const site = rewriteLayout(readFileSync(deploy('nginx/enishi.conf'), 'utf8'), (mark, line) => {
    if (mark === 'instance') {
      const port = instancePorts[line.includes(':8081') ? 0 : 1];
      return line.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`);
    }
    const lines = {
      http: null,
      https: line.includes('[::]') ? null : `    listen 127.0.0.1:${httpsPort} ssl http2;`,
      name: '    server_name 127.0.0.1 localhost;',
      cert: `    ssl_certificate ${cert};`,
      key: `    ssl_certificate_key ${key};`,
      access: `    access_log ${join(runDir, 'nginx-access.log')};`,
    };
    return lines[mark];
  });
  // The redirecting server block lost its listen lines: with none, it would take port 80; drop it whole.
  const sitePath = join(runDir, 'enishi-site.conf');
  writeFileSync(
    sitePath,
    site.replace(/# Plain http only sends people to https\.\nserver \{[\s\S]*?\n\}\n/, ''),
  );
  const tmp = join(runDir, 'tmp');
  const nginxConf = join(runDir, 'nginx.conf');
  writeFileSync(
    nginxConf,
    [
      'worker_processes 1;',
      `pid ${join(runDir, 'nginx.pid')};`,
      `error_log ${join(runDir, 'nginx-error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '    include /etc/nginx/mime.types;',
      `    client_body_temp_path ${tmp}/body;`,
      `    proxy_temp_path ${tmp}/proxy;`,
      `    fastcgi_temp_path ${tmp}/fastcgi;`,
      `    uwsgi_temp_path ${tmp}/uwsgi;`,
      `    scgi_temp_path ${tmp}/scgi;`,
      `    include ${sitePath};`,
      '}',
      '',
    ].join('\n'),
  );
  const test = spawnSync(NGINX, ['-t', '-q', '-p', runDir, '-c', nginxConf], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t: ${test.stderr}`);
  const nginx = start(
    'nginx',
    NGINX,
    ['-p', runDir, '-c', nginxConf, '-g', 'daemon off;'],
    {},
    join(runDir, 'nginx.log'),
  );
  children.push(nginx);
  await waitFor('nginx', async () => (await httpsStatus(`${origin}/readyz`, ca)) === 200, nginx);

  const ready = {
    origin,
    owner,
    metricsToken,
    instances: instancePorts.map((port) => `http://127.0.0.1:${port}`),
    turn: `127.0.0.1:${turnPort}`,
    database: name,
    dir: runDir,
    certificate: cert,
  };
  log(`ready: ${origin} (owner ${owner.id} / ${owner.password}); Ctrl-C stops everything`);
  console.log(`LAYOUT_READY ${JSON.stringify(ready)}`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    stopAll().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}

main().catch(async (error) => {
  console.error(`[layout] ${error instanceof Error ? error.message : String(error)}`);
  await stopAll().catch(() => undefined);
  process.exit(1);
});
