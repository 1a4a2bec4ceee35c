// The install drill's toolbox inside the container (scripts/drill-inside.mjs): commands with their output kept
// under /drill/out, and installed systemd units started by their own lines, since systemd does not run there.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

const OUT = '/drill/out';
const started = Number(process.env.DRILL_STARTED) || Date.now();
/** Where the operator checks out the repository (docs/operations.md), and where deploy/install.sh runs. */
export const APP = '/opt/enishi';
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const children = [];

export function log(text) {
  console.log(`[drill ${seconds(Date.now() - started).padStart(8)}] ${text}`);
}

// ── commands ──────────────────────────────────────────────────────────────────────────────────────────────

export const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
let logSeq = 0;

/**
 * Runs a command to its end, its output to a log file under /drill/out (shown when it fails, and the lines
 * matching `show` as they come). Resolves with the output; rejects naming the exit code and the log.
 */
export function sh(cmd, args, { env = {}, cwd = '/', show, tail = 30, timeoutS = 900 } = {}) {
  const file = path.join(OUT, `${String(++logSeq).padStart(2, '0')}-${path.basename(cmd)}.log`);
  const sink = fs.createWriteStream(file);
  sink.write(`$ ${[cmd, ...args].join(' ')}\n`);
  const child = spawn(cmd, args, {
    cwd,
    env: { PATH, HOME: '/root', LANG: 'C.UTF-8', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const take = (chunk) => {
    const text = chunk.toString();
    sink.write(text);
    output += text;
    if (output.length > 4_000_000) output = output.slice(-2_000_000);
    if (show) {
      const lines = (partial + text).split('\n');
      partial = lines.pop();
      for (const line of lines) if (show.test(line)) log(`   ${line}`);
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(error));
    let finished = false;
    const finish = (code, signal) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      sink.end();
      if (code === 0) return resolve(output);
      const last = output.trimEnd().split('\n').slice(-tail);
      for (const line of last) log(`   | ${line}`);
      reject(new Error(`${cmd} ${args.join(' ').slice(0, 120)} exited ${code ?? signal} (log: ${file})`));
    };
    // A daemon it started (nginx, PostgreSQL) may keep the output pipes open: the exit decides, and the
    // output still in the pipes is read for a moment.
    child.on('exit', (code, signal) => {
      const grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, 2000);
      child.on('close', () => {
        clearTimeout(grace);
        finish(code, signal);
      });
    });
  });
}

// ── units: systemd's own lines, run without systemd ─────────────────────────────────────────────────────────

/** systemd's word splitting of a command line: quotes, backslashes, `$$`; `$VAR` splits, `${VAR}` does not. */
export function splitCommand(line, env) {
  const words = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i])) i++;
    if (i >= line.length) break;
    let word = '';
    let quoted = false;
    let lone = null;
    const begin = i;
    while (i < line.length && !/\s/.test(line[i])) {
      const c = line[i];
      if (c === '"' || c === "'") {
        const end = line.indexOf(c, i + 1);
        word += line.slice(i + 1, end).replace(/\\(.)/g, '$1');
        quoted = true;
        i = end + 1;
      } else if (c === '\\') {
        word += line[i + 1];
        i += 2;
      } else {
        word += c;
        i++;
      }
    }
    const raw = line.slice(begin, i);
    const bare = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(raw);
    if (bare && !quoted) lone = bare[1];
    if (lone !== null) {
      words.push(...(env[lone] ?? '').split(/\s+/).filter(Boolean));
      continue;
    }
    word = word.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, k) => env[k] ?? '').replace(/\$\$/g, '$');
    words.push(word);
  }
  return words;
}

/** An EnvironmentFile read as systemd reads it: KEY=VALUE lines, whole-value quotes removed, nothing else. */
export function readEnvironmentFile(file) {
  const env = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let value = m[2];
    if (/^"(.*)"$/.test(value) || /^'(.*)'$/.test(value)) value = value.slice(1, -1);
    env[m[1]] = value;
  }
  return env;
}

/** The [Service] section of an installed unit, with its instance name put in. */
export function readUnit(unit) {
  const [template, instance] = /^(.+@)(.+)\.service$/.exec(unit)?.slice(1) ?? [
    unit.replace(/\.service$/, ''),
    '',
  ];
  const name = instance ? `${template}.service` : unit;
  const file = [`/etc/systemd/system/${name}`, `/lib/systemd/system/${name}`].find((f) => fs.existsSync(f));
  if (!file) throw new Error(`${name} is not installed`);
  const service = { env: {}, envFiles: [], pre: [], start: null, file };
  let section = '';
  const lines = fs.readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n');
  for (const raw of lines) {
    const line = raw.trim();
    if (/^\[.*\]$/.test(line)) section = line;
    if (section !== '[Service]' || !line.includes('=') || /^[#;]/.test(line)) continue;
    const key = line.slice(0, line.indexOf('='));
    const value = line
      .slice(key.length + 1)
      .replace(/%i/g, instance)
      .replace(/%%/g, '%');
    if (key === 'Environment') {
      for (const pair of splitCommand(value, {}))
        service.env[pair.split('=')[0]] = pair.slice(pair.indexOf('=') + 1);
    } else if (key === 'EnvironmentFile') service.envFiles.push(value);
    else if (key === 'ExecStartPre') service.pre.push(value);
    else if (key === 'ExecStart') service.start = value;
    else service[key] = value;
  }
  return service;
}

/** The environment a unit's process gets: systemd's few own variables, Environment=, then EnvironmentFile=. */
export function unitEnvironment(service) {
  const user = service.User ?? 'root';
  const home = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`))
    ?.split(':')[5];
  const env = { PATH, LANG: 'C.UTF-8', USER: user, LOGNAME: user, HOME: home ?? '/', ...service.env };
  for (const entry of service.envFiles) {
    const optional = entry.startsWith('-');
    const file = optional ? entry.slice(1) : entry;
    if (fs.existsSync(file)) Object.assign(env, readEnvironmentFile(file));
    else if (!optional) throw new Error(`${service.file}: EnvironmentFile ${file} is missing`);
  }
  return env;
}

/** The argv that runs `words` as the unit's user and group, with exactly `env`. */
export function asUnitUser(service, env, words) {
  const prefix = /^[-@:+!]+/.exec(words[0])?.[0] ?? '';
  const argv = [words[0].slice(prefix.length), ...words.slice(1)];
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  if (!service.User || service.User === 'root') return ['env', ['-i', ...vars, ...argv]];
  return [
    'setpriv',
    [
      `--reuid=${service.User}`,
      `--regid=${service.Group ?? service.User}`,
      '--init-groups',
      'env',
      '-i',
      ...vars,
      ...argv,
    ],
  ];
}

async function prepareDirectories(service) {
  const own = `${service.User ?? 'root'}:${service.Group ?? service.User ?? 'root'}`;
  for (const [key, base, mode] of [
    ['RuntimeDirectory', '/run', service.RuntimeDirectoryMode ?? '0755'],
    ['StateDirectory', '/var/lib', service.StateDirectoryMode ?? '0755'],
  ]) {
    for (const name of (service[key] ?? '').split(/\s+/).filter(Boolean)) {
      const dir = path.join(base, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.chmodSync(dir, Number.parseInt(mode, 8));
      await sh('chown', [own, dir]);
    }
  }
}

/**
 * Starts an installed unit by its own lines: ExecStartPre= (each to its end), then ExecStart= as the unit's
 * User/Group in WorkingDirectory with its Environment=/EnvironmentFile=. Not applied (systemd does that, not
 * this drill): the sandbox (SystemCallFilter=, Protect*=, namespaces), capabilities, Restart=.
 */
export async function startUnit(unit, { overrides = {}, forking = false } = {}) {
  const service = readUnit(unit);
  await prepareDirectories(service);
  const env = { ...unitEnvironment(service), ...overrides };
  const cwd = service.WorkingDirectory ?? '/';
  for (const line of service.pre) {
    const [cmd, args] = asUnitUser(service, env, splitCommand(line, env));
    await sh(cmd, args, { cwd });
  }
  const [cmd, args] = asUnitUser(service, env, splitCommand(service.start, env));
  if (forking || service.Type === 'forking') return sh(cmd, args, { cwd });
  const file = path.join(OUT, `${unit}.log`);
  const logFd = fs.openSync(file, 'a');
  const child = spawn(cmd, args, { cwd, env: {}, stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);
  child.unit = unit;
  child.logFile = file;
  children.push(child);
  child.on('exit', (code, signal) => log(`   (${unit} exited ${code ?? signal}; its log: ${file})`));
  return child;
}

export async function stopUnit(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await once(child, 'exit');
  clearTimeout(timer);
}

export function tailOf(file, n = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '(no log)';
  }
}
