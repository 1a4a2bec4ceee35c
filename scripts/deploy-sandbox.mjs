// A sandbox of this machine in which deploy/'s nginx and coturn files run exactly as shipped, at their fixed
// paths and ports (80, 443, 3478, 5349, 8081, 8082), without touching the machine: a network namespace of its
// own (loopback and two veth pairs standing for a public and a private network), and a mount namespace where /etc and /var are overlays of the machine's (what is
// written lands in a temporary folder) and /run is empty. deploy/install-edge.sh installs into it as it would
// on a server; services start with their units' own lines (`unitExec`). Needs root (as CI runs).
// Used by scripts/production-layout.mjs and the e2e tests of nginx and coturn.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';

// A server's network: loopback, a public address (203.0.113.1, documentation range; 203.0.113.10 stands for a
// phone out there) and one on a private network behind it (10.20.0.1).
export const PUBLIC_ADDRESS = '203.0.113.1';
export const OUTSIDE_ADDRESS = '203.0.113.10';
export const PRIVATE_ADDRESS = '10.20.0.1';
const HOLDER = `set -e
ip link set lo up
ip link add public0 type veth peer name public1
ip addr add ${PUBLIC_ADDRESS}/24 dev public0
ip addr add ${OUTSIDE_ADDRESS}/24 dev public0
ip link add private0 type veth peer name private1
ip addr add ${PRIVATE_ADDRESS}/24 dev private0
for link in public0 public1 private0 private1; do ip link set "$link" up; done
for dir in etc var; do
  mount -t overlay overlay -o "lowerdir=/$dir,upperdir=$SANDBOX/$dir-up,workdir=$SANDBOX/$dir-work" "/$dir"
done
mount -t tmpfs -o mode=0755 tmpfs /run
echo up
exec sleep 86400`;

export class DeploySandbox {
  /** @param {import('node:child_process').ChildProcess} holder @param {string} dir */
  constructor(holder, dir) {
    this.holder = holder;
    this.dir = dir;
  }

  /** Whether this machine lets us make the namespaces (root). */
  static available() {
    return spawnSync('unshare', ['-n', '-m', '--', 'true'], { stdio: 'ignore' }).status === 0;
  }

  static async create() {
    const dir = mkdtempSync(join(tmpdir(), 'enishi-sandbox-'));
    for (const name of ['etc-up', 'etc-work', 'var-up', 'var-work']) mkdirSync(join(dir, name));
    // unshare execs sh, which execs sleep: the holder's pid is the process in the namespaces.
    const holder = spawn('unshare', ['-n', '-m', '--propagation', 'private', '--', 'sh', '-c', HOLDER], {
      env: { ...process.env, SANDBOX: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    holder.stderr.on('data', (chunk) => (output += chunk));
    const up = await Promise.race([
      once(holder.stdout, 'data').then(([chunk]) => String(chunk).includes('up')),
      once(holder, 'exit').then(() => false),
    ]);
    if (!up) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`the sandbox did not come up: ${output}`);
    }
    return new DeploySandbox(holder, dir);
  }

  /** A process inside the sandbox (both namespaces). */
  spawn(command, args, options = {}) {
    return spawn('nsenter', ['-t', String(this.holder.pid), '-n', '-m', '--', command, ...args], options);
  }

  /** Runs to the end inside the sandbox: { code, output } (stdout and stderr together). */
  async run(command, args, options = {}) {
    const child = this.spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const [code] = await once(child, 'exit');
    return { code, output };
  }

  /** Like run, but rejects with the output when the command fails. */
  async check(command, args, options = {}) {
    const { code, output } = await this.run(command, args, options);
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}):\n${output}`);
    return output;
  }

  /** The path inside the sandbox for use with nsenter-less tools: an /etc or /var file's copy-on-write view. */
  hostPath(path) {
    const match = /^\/(etc|var)\/(.*)$/.exec(path);
    if (!match) throw new Error(`only /etc and /var are sandbox folders: ${path}`);
    return join(this.dir, `${match[1]}-up`, match[2]);
  }

  close() {
    this.holder.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Splits one systemd command line into words: quotes, `$$`, `$VAR` (split into words) and `${VAR}` (one). */
function systemdWords(line, env) {
  const words = [];
  let index = 0;
  while (index < line.length) {
    while (line[index] === ' ') index += 1;
    if (index >= line.length) break;
    const quote = line[index] === "'" || line[index] === '"' ? line[index] : null;
    let word = '';
    if (quote) {
      const end = line.indexOf(quote, index + 1);
      if (end < 0) throw new Error(`unclosed quote in: ${line}`);
      word = line.slice(index + 1, end);
      index = end + 1;
    } else {
      const end = line.indexOf(' ', index);
      word = line.slice(index, end < 0 ? line.length : end);
      index = end < 0 ? line.length : end;
    }
    const whole = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(word);
    if (whole && !quote) {
      words.push(...(env[whole[1]] ?? '').split(/\s+/).filter(Boolean));
      continue;
    }
    words.push(
      word.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name) => env[name] ?? '').replaceAll('$$', '$'),
    );
  }
  return words;
}

/**
 * What systemd would run for a unit's service: `pre` (ExecStartPre lines) and `start` (ExecStart) as argument
 * lists under its User= and Group= (with `setpriv`, as systemd sets them), the variables of `env` expanded.
 */
export function unitExec(unitText, env = {}) {
  const values = (key) =>
    unitText
      .split('\n')
      .filter((line) => line.startsWith(`${key}=`))
      .map((line) => line.slice(key.length + 1));
  const [user] = values('User');
  const [group] = values('Group');
  const as = user
    ? ['setpriv', `--reuid=${user}`, `--regid=${group ?? user}`, '--init-groups', '--inh-caps=-all', '--']
    : [];
  return {
    user,
    group,
    pre: values('ExecStartPre').map((line) => [...as, ...systemdWords(line, env)]),
    start: [...as, ...systemdWords(values('ExecStart')[0], env)],
  };
}

/**
 * Starts a unit's service in the sandbox as systemd would: ExecStartPre lines in order (the first failing one
 * stops the start: `{ failed: output }`), then ExecStart in the background (`{ child, log }`, `log()` being its
 * output so far). `env` stands for the unit's EnvironmentFile.
 */
export async function startUnit(sandbox, unitPath, env = {}) {
  const exec = unitExec(readFileSync(unitPath, 'utf8'), env);
  for (const line of exec.pre) {
    const { code, output } = await sandbox.run(line[0], line.slice(1));
    if (code !== 0) return { failed: output || `exit ${code}` };
  }
  const child = sandbox.spawn(exec.start[0], exec.start.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { child, log: () => output };
}

/**
 * Forwards every connection made to `listen` to `connect`; each is `{ host, port }` or `{ path }` (a Unix
 * socket, which reaches across network namespaces: the way PostgreSQL and Redis of this machine reach the
 * sandbox, and the sandbox's nginx and instances reach this machine's 127.0.0.1). Resolves with the server once
 * it listens.
 */
export async function bridge(listen, connect) {
  const server = createServer((incoming) => {
    const outgoing = createConnection(connect);
    incoming.pipe(outgoing).pipe(incoming);
    const close = () => {
      incoming.destroy();
      outgoing.destroy();
    };
    incoming.on('error', close);
    outgoing.on('error', close);
  });
  server.listen(listen);
  await once(server, 'listening');
  return server;
}

/** The same bridge inside the sandbox (a process of its own there); resolves once it listens. */
export async function bridgeInside(sandbox, listen, connect) {
  const script = `import { bridge } from ${JSON.stringify(import.meta.url)};
    await bridge(${JSON.stringify(listen)}, ${JSON.stringify(connect)});
    console.log('listening');`;
  const child = sandbox.spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout, 'data');
  return child;
}

/**
 * The install step for nginx, coturn and the certificate as on a server (docs/operations.md): an
 * /etc/enishi/enishi.env holding TURN_SECRET, then deploy/install-edge.sh, run as root in the sandbox; resolves
 * with what the script said.
 */
export async function installEdge(sandbox, { name, turnSecret }) {
  const env = { ...process.env, TURN_SECRET: turnSecret, ENISHI_NAME: name };
  await sandbox.check(
    'sh',
    [
      '-c',
      `install -d -m 0755 /etc/enishi && printf 'TURN_SECRET=%s\\n' "$TURN_SECRET" > /etc/enishi/enishi.env`,
    ],
    { env },
  );
  return sandbox.check('sh', [new URL('../deploy/install-edge.sh', import.meta.url).pathname], { env });
}
