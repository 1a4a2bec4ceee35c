#!/usr/bin/env node
// `npm run layout`: the production layout of docs/operations.md on this one machine: nginx terminating TLS,
// two instances, a fresh PostgreSQL database on the local server, Redis, and coturn. deploy/'s files are used
// exactly as shipped: deploy/install-edge.sh installs nginx's site, coturn's file and unit and the certificate
// hook into a sandbox of this machine (scripts/deploy-sandbox.mjs: its own network, /etc and /var overlaid), where
// nginx, the instances and coturn listen on their real ports (80, 443, 8081, 8082, 3478, 5349) without touching
// the machine's. PostgreSQL and Redis of this machine are bridged in; nginx's 443 and the instances are bridged
// out to free ports on 127.0.0.1. Ctrl-C (or SIGTERM) stops everything and drops the database.
//
// Needs `npm run build` first and root (namespaces); installs Debian's nginx and coturn when missing.
// Environment: LAYOUT_PORT (the https port on 127.0.0.1; default a free one), LAYOUT_POSTGRES (default
// postgres://postgres@127.0.0.1:5432), LAYOUT_REDIS (default redis://127.0.0.1:6379/5), LAYOUT_DIR (where the
// data and logs go; kept when given, else a temporary folder removed at the end).
// When everything answers through https it prints one line `LAYOUT_READY {json}` (what the browser test reads).
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import {
  bridge,
  bridgeInside,
  DeploySandbox,
  installEdge,
  PUBLIC_ADDRESS,
  startUnit,
} from './deploy-sandbox.mjs';
import {
  endpoint,
  ensurePackages,
  envFile,
  freePort,
  httpOk,
  httpsStatus,
  log,
  NGINX,
  unitEnvironment,
  waitFor,
} from './layout-tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const deploy = (file) => join(root, 'deploy', file);
// The instances' ports: nginx's upstream (deploy/nginx/enishi.conf) and the units enishi@8081, enishi@8082.
const INSTANCE_PORTS = [8081, 8082];

/** A process in the sandbox whose output goes to `logPath`. */
function start(name, command, args, options, logPath) {
  return watch(
    name,
    sandbox.spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] }),
    logPath,
  );
}

function watch(name, child, logPath) {
  const write = (chunk) => writeFileSync(logPath, chunk, { flag: 'a' });
  child.stdout.on('data', write);
  child.stderr.on('data', write);
  child.on('exit', (code, signal) => {
    if (!stopping) log(`${name} exited (${signal ?? code}); its log: ${logPath}`);
  });
  children.push(child);
  return child;
}

let stopping = false;
const children = [];
const servers = [];
let sandbox = null;
let database = null;
let runDir = null;
let keepDir = false;

async function stopAll() {
  if (stopping) return;
  stopping = true;
  // nginx first (no new requests), then the instances drain, then coturn and the bridges; the database last.
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await once(child, 'exit');
    clearTimeout(timer);
  }
  for (const server of servers) server.close();
  if (sandbox) {
    // nginx's logs, kept with the instances' (the sandbox's folder goes).
    for (const file of ['enishi.access.log', 'error.log']) {
      const path = sandbox.hostPath(`/var/log/nginx/${file}`);
      if (existsSync(path) && runDir) copyFileSync(path, join(runDir, `nginx-${file}`));
    }
    sandbox.close();
  }
  if (database) {
    const admin = postgres(database.adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${database.name}" with (force)`).catch(() => undefined);
    await admin.end({ timeout: 5 });
  }
  if (runDir && !keepDir) rmSync(runDir, { recursive: true, force: true });
}

/** A fresh database on the local PostgreSQL: its name, the admin URL and the app's URL. */
async function createDatabase() {
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
  return { name, adminUrl, databaseUrl };
}

/** PostgreSQL and Redis at their usual addresses inside, through Unix sockets to this machine's. */
async function bridgeServices(adminUrl, redisUrl) {
  for (const [service, url] of [
    ['postgres', adminUrl],
    ['redis', redisUrl],
  ]) {
    const path = join(sandbox.dir, `${service}.sock`);
    servers.push(await bridge({ path }, endpoint(url)));
    children.push(await bridgeInside(sandbox, endpoint(url), { path }));
  }
}

/** coturn from its unit. */
async function startCoturn() {
  await sandbox.check('install', ['-d', '-o', 'turnserver', '-g', 'turnserver', '/run/enishi-coturn']);
  const turn = await startUnit(sandbox, deploy('systemd/enishi-coturn.service'));
  if (turn.failed !== undefined) throw new Error(`coturn did not start: ${turn.failed}`);
  watch('coturn', turn.child, join(runDir, 'coturn.log'));
}

/**
 * An instance's environment by its port: deploy/enishi.env.example with this machine's values, and the unit's
 * Environment= lines.
 */
function instanceEnvironment({
  origin,
  databaseUrl,
  redisUrl,
  dataDir,
  owner,
  turnSecret,
  turnAt,
  metricsToken,
}) {
  const shared = envFile(readFileSync(deploy('enishi.env.example'), 'utf8'));
  const unit = readFileSync(deploy('systemd/enishi@.service'), 'utf8');
  const iceServers = [
    { urls: [`stun:${turnAt}`, `turn:${turnAt}?transport=udp`, `turn:${turnAt}?transport=tcp`] },
  ];
  return (port) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...shared,
    PUBLIC_ORIGIN: origin,
    TRUST_PROXY: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl,
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
}

/** The instances, one after the other; the URL of each as this machine reaches it. */
async function startInstances(instanceEnv) {
  // Each instance reachable from this machine too (metrics, checks): a free port on 127.0.0.1.
  const instances = [];
  // The first instance runs the migrations of a new database before the second starts.
  for (const [index, port] of INSTANCE_PORTS.entries()) {
    const path = join(sandbox.dir, `instance-${port}.sock`);
    children.push(await bridgeInside(sandbox, { path }, { host: '127.0.0.1', port }));
    const outside = await freePort();
    servers.push(await bridge({ host: '127.0.0.1', port: outside }, { path }));
    const instance = start(
      `instance ${index + 1}`,
      process.execPath,
      [join(root, 'server/dist/main.js')],
      { env: instanceEnv(port), cwd: root },
      join(runDir, `instance-${index + 1}.log`),
    );
    instances.push(`http://127.0.0.1:${outside}`);
    await waitFor(`instance ${index + 1}`, () => httpOk(`${instances[index]}/readyz`), instance);
    log(`instance ${index + 1} on 127.0.0.1:${port} in the sandbox, ${instances[index]} here`);
  }
  return instances;
}

/** nginx as Debian's unit runs it: Debian's nginx.conf (two limits raised), the installed site; 443 bridged out. */
async function startNginx(origin, httpsPort, ca) {
  const nginx = start(
    'nginx',
    NGINX,
    ['-g', 'daemon off; master_process on;'],
    {},
    join(runDir, 'nginx.log'),
  );
  const httpsPath = join(sandbox.dir, 'https.sock');
  children.push(await bridgeInside(sandbox, { path: httpsPath }, { host: '127.0.0.1', port: 443 }));
  servers.push(await bridge({ host: '127.0.0.1', port: httpsPort }, { path: httpsPath }));
  await waitFor('nginx', async () => (await httpsStatus(`${origin}/readyz`, ca)) === 200, nginx);
}

async function main() {
  if (!existsSync(join(root, 'server/dist/main.js')) || !existsSync(join(root, 'web/dist/index.html'))) {
    throw new Error('the app is not built: npm run build');
  }
  ensurePackages();
  if (!DeploySandbox.available())
    throw new Error('the layout runs nginx and coturn in namespaces: run it as root');

  keepDir = Boolean(process.env.LAYOUT_DIR);
  runDir = process.env.LAYOUT_DIR ?? mkdtempSync(join(tmpdir(), 'enishi-layout-'));
  mkdirSync(runDir, { recursive: true });
  const dataDir = join(runDir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const httpsPort = Number(process.env.LAYOUT_PORT ?? (await freePort()));
  const origin = `https://127.0.0.1:${httpsPort}`;

  const { name, adminUrl, databaseUrl } = await createDatabase();
  const redisUrl = process.env.LAYOUT_REDIS ?? 'redis://127.0.0.1:6379/5';

  sandbox = await DeploySandbox.create();
  await bridgeServices(adminUrl, redisUrl);

  // The install step for nginx, coturn and the certificate, as on a server (docs/operations.md).
  const turnSecret = randomBytes(24).toString('base64url');
  await installEdge(sandbox, { name: 'localhost', turnSecret });
  const ca = readFileSync(sandbox.hostPath('/etc/enishi/tls/fullchain.pem'));
  await startCoturn();

  const owner = { id: 'owner', password: `Owner.${randomBytes(6).toString('hex')}` };
  const metricsToken = randomBytes(24).toString('base64url');
  const turnAt = `${PUBLIC_ADDRESS}:3478`;
  const instances = await startInstances(
    instanceEnvironment({ origin, databaseUrl, redisUrl, dataDir, owner, turnSecret, turnAt, metricsToken }),
  );
  await startNginx(origin, httpsPort, ca);

  const ready = {
    origin,
    owner,
    metricsToken,
    instances,
    turn: turnAt,
    database: name,
    dir: runDir,
    certificate: sandbox.hostPath('/etc/enishi/tls/fullchain.pem'),
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
