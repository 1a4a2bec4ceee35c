// The install drill's steps inside the fresh Debian container (scripts/drill.mjs starts it; `npm run drill`).
// It does what docs/operations.md tells an operator to do, with the doc's own commands where the doc has one
// to run as written: deploy/install.sh, then the services by their installed units' own lines (systemd does
// not run here), then the club through nginx over https, the documented backup as the enishi user, a restore
// into a fresh database, and (DRILL_FROM) an upgrade from an older release. Every step is timed; the first
// failure of a step the others need stops the drill, and the summary names the failed step.
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';

import { backup, backupByUnit, restore } from './drill-backup.mjs';
import { NAME, alive, api, listening, request, stunBinding, waitReady } from './drill-net.mjs';
import { APP, children, log, seconds, sh, startUnit, stopUnit } from './drill-units.mjs';

const OWNER = { id: 'owner', password: 'Drill-owner-1' };
const MEMBER = { id: 'drill-taro', password: 'Drill-taro-1' };
const results = [];
// apt and npm reach their registries through the host's proxy (a Unix socket, forwarded below).
const proxyEnv = {
  http_proxy: 'http://127.0.0.1:3128',
  https_proxy: 'http://127.0.0.1:3128',
  HTTP_PROXY: 'http://127.0.0.1:3128',
  HTTPS_PROXY: 'http://127.0.0.1:3128',
  no_proxy: '127.0.0.1,localhost',
  NO_PROXY: '127.0.0.1,localhost',
};

class StepFailed extends Error {}

/** Runs one timed step; `needed` steps stop the drill when they fail, the others are reported and skipped. */
async function step(name, fn, { needed = true } = {}) {
  const t0 = Date.now();
  log(`── ${name}`);
  try {
    const note = await fn();
    results.push({ name, ok: true, ms: Date.now() - t0 });
    log(`   ok (${seconds(Date.now() - t0)})${note ? `: ${note}` : ''}`);
    return true;
  } catch (error) {
    results.push({ name, ok: false, ms: Date.now() - t0, why: error.message });
    log(`   FAILED (${seconds(Date.now() - t0)}): ${error.message}`);
    if (needed) throw new StepFailed(name);
    return false;
  }
}

// ── the drill ─────────────────────────────────────────────────────────────────────────────────────────────

// apt and npm go out through the host's proxy (a Unix socket mounted here): 127.0.0.1:3128 leads to it.
const forwarder = net.createServer((client) => {
  const upstream = net.connect('/drill/proxy/proxy.sock');
  client.pipe(upstream).pipe(client);
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
});
forwarder.listen(3128, '127.0.0.1');
await once(forwarder, 'listening');

const installEnv = {
  ...proxyEnv,
  ENISHI_NAME: NAME,
  ENISHI_CERT: 'self-signed',
  ENISHI_OWNER_ID: OWNER.id,
  ENISHI_OWNER_PASSWORD: OWNER.password,
  ENISHI_NODE_TARBALL: process.env.DRILL_NODE_TARBALL,
  ENISHI_NPM_TARBALL: process.env.DRILL_NPM_TARBALL,
  ...(process.env.DRILL_EXTRA_CA ? { NODE_EXTRA_CA_CERTS: process.env.DRILL_EXTRA_CA } : {}),
};
const instances = {};
let messageText = '';
let memberUid = 0;
let backupFile = null;

async function startInstances() {
  for (const port of [8081, 8082]) {
    instances[port] = await startUnit(`enishi@${port}.service`);
    await waitReady(port, instances[port]);
  }
}

/** The member's talk with the staff desk, as the member reads it. */
async function memberReads(text, opts) {
  const session = (await api('login', { id: MEMBER.id, password: MEMBER.password }, opts)).session;
  const talks = await api('conversations', { ssid: session, type: 'staff', search: '', page: 0 }, opts);
  const talk = talks.rows[0];
  if (!talk) throw new Error(`the member has no talk with staff: ${JSON.stringify(talks)}`);
  const messages = await api('messages', { ssid: session, id: talk.conversation_id ?? talk.id }, opts);
  const all = JSON.stringify(messages);
  if (!all.includes(text)) throw new Error(`the message is not in the member's talk: ${all.slice(0, 300)}`);
}

async function startServices() {
  await sh('sh', [
    '-c',
    'pg_lsclusters -h | while read v c _; do pg_ctlcluster "$v" "$c" status >/dev/null || pg_ctlcluster "$v" "$c" start; done',
  ]);
  if (!(await listening(6379))) await startUnit('redis-server.service');
  // nginx: Debian's unit forks (Type=forking); already running, it reloads.
  const nginxPid = Number(fs.existsSync('/run/nginx.pid') ? fs.readFileSync('/run/nginx.pid', 'utf8') : 0);
  if (nginxPid > 0 && alive(nginxPid)) {
    await sh('nginx', ['-t', '-q']);
    await sh('nginx', ['-s', 'reload']);
  } else {
    await startUnit('nginx.service', { forking: true });
  }
  // coturn relays from the server's own address and refuses to start with loopback only, which is all the
  // container's network has: a veth pair inside it stands for the server's network card (TEST-NET-1).
  await sh('sh', [
    '-c',
    'ip link show drill0 >/dev/null 2>&1 || { ip link add drill0 type veth peer name drill1 && ip addr add 192.0.2.10/24 dev drill0 && ip link set drill1 up && ip link set drill0 up; }',
  ]);
  const coturn = await startUnit('enishi-coturn.service');
  await startInstances();
  await stunBinding(3478);
  return `coturn answers STUN on 3478 (pid ${coturn.pid}); enishi@8081 pid ${instances[8081].pid}, enishi@8082 pid ${instances[8082].pid}`;
}

async function checkClub({ first }) {
  const ready = await request({ urlPath: '/readyz' });
  if (ready.status !== 200) throw new Error(`https://${NAME}/readyz answered ${ready.status} ${ready.text}`);
  const plain = await request({ tls: false, urlPath: '/login' });
  if (plain.status !== 301 || plain.headers.location !== `https://${NAME}/login`)
    throw new Error(
      `http://${NAME}/login answered ${plain.status} ${plain.headers.location ?? ''}, not 301 to https`,
    );
  const owner = await api('login', { id: OWNER.id, password: OWNER.password });
  if (first) {
    const added = await api('adduser', {
      ssid: owner.session,
      id: MEMBER.id,
      name: '訓練 太郎',
      pass: MEMBER.password,
      rank: 1,
      role: 101,
      introducer: '',
    });
    memberUid = added.rows[0].uid;
    messageText = `訓練のメッセージ ${new Date().toISOString()}`;
    await api('messages/send', { ssid: owner.session, users: [memberUid], message: messageText, image: [] });
  }
  await memberReads(messageText);
  return `readyz ${ready.text}; http → https; owner logged in (role ${owner.role})${first ? `; sent to member ${memberUid}` : ''}; the member read "${messageText}"`;
}

/** A backup step (scripts/drill-backup.mjs) whose file is kept for the restore. */
function keeping(takeBackup) {
  return async () => {
    const made = await takeBackup();
    backupFile = made.file;
    return made.note;
  };
}

/** docs/operations.md, "Upgrades": backup, check out and install the new release, restart one at a time. */
async function upgrade() {
  await sh('git', ['-C', APP, 'fetch', '--quiet']);
  await sh('git', ['-C', APP, 'checkout', '--quiet', 'drill']);
  await sh(`${APP}/deploy/install.sh`, [], {
    env: installEnv,
    show: /^install(-edge)?:|error/i,
    tail: 40,
    timeoutS: 1200,
  });
  for (const port of [8081, 8082]) {
    await stopUnit(instances[port]);
    instances[port] = await startUnit(`enishi@${port}.service`);
    await waitReady(port, instances[port]);
  }
  if (fs.existsSync('/run/nginx.pid')) await sh('nginx', ['-s', 'reload']);
  return `now at ${(await sh('git', ['-C', APP, 'log', '-1', '--format=%h'])).trim()}`;
}

let failed = false;
try {
  await step('operator: git, and the repository at /opt/enishi', async () => {
    await sh('sh', ['-c', 'apt-get update -q && apt-get install -y -q git ca-certificates'], {
      env: proxyEnv,
    });
    const branch = process.env.DRILL_FROM || 'drill';
    await sh('git', ['clone', '--quiet', '/srv/enishi.git', APP]);
    await sh('git', ['-C', APP, 'checkout', '--quiet', branch]);
    return `checked out ${(await sh('git', ['-C', APP, 'log', '-1', '--format=%h %s'])).trim().slice(0, 90)}`;
  });
  await step('deploy/install.sh', async () => {
    await sh(`${APP}/deploy/install.sh`, [], {
      env: installEnv,
      show: /^== install|^install(-edge)?:|^node v|^kept|^the first owner/i,
      tail: 40,
      timeoutS: 1200,
    });
  });
  await step(
    'services by their units (PostgreSQL, Redis, nginx, enishi-coturn, enishi@8081, enishi@8082)',
    startServices,
  );
  await step('the club through nginx over https', () => checkClub({ first: true }));
  const backedUp = await step('backup: the documented command, as enishi', keeping(backup), {
    needed: false,
  });
  if (!backedUp)
    await step(
      "backup, not as documented: backup.js as enishi in the unit's environment (for the restore)",
      keeping(backupByUnit),
      {
        needed: false,
      },
    );
  if (backupFile)
    await step(
      'restore into a fresh database (the restore drill)',
      () => restore(backupFile, (opts) => memberReads(messageText, opts)),
      { needed: false },
    );
  if (!process.env.DRILL_FROM)
    log('── upgrade: not drilled (DRILL_FROM=<an older commit with deploy/install.sh> drills it)');
  else {
    await step('upgrade to the release under test (docs/operations.md, "Upgrades")', upgrade);
    await step('the club after the upgrade', () => checkClub({ first: false }));
  }
} catch (error) {
  if (!(error instanceof StepFailed)) log(`drill error: ${error.stack}`);
}
failed = results.some((r) => !r.ok);

for (const child of children.toReversed()) await stopUnit(child).catch(() => {});
forwarder.close();
console.log('\nstep                                                                  time  result');
for (const r of results)
  console.log(
    `${r.name.slice(0, 68).padEnd(68)} ${seconds(r.ms).padStart(8)}  ${r.ok ? 'ok' : `FAILED: ${r.why.split('\n')[0]}`}`,
  );
process.exit(failed ? 1 : 0);
