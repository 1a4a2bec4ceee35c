import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_VARIABLES } from './config-env.js';
import { checkConfiguration, nearMissLines } from './start-checks.js';
import { createPostgresDatabase } from './test/database.js';
import { freePort, REPO_ROOT, serverScript } from './test/process.js';

/* Configuration is checked (docs/operations.md, "Configuration"): `--check`, near misses, one-line failures. */

const work = mkdtempSync(path.join(tmpdir(), 'enishi-start-checks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function envFile(name: string, text: string): string {
  const file = path.join(work, name);
  writeFileSync(file, text);
  return file;
}

/** Runs the server's `main ARGS` (test/process.ts: from source, or the build `npm test` made); its exit and output. */
async function runMain(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [...serverScript('server/src/main.ts'), ...args], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '1048576',
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('--check of an environment file', () => {
  it(
    'passes the shipped example, byte for byte, without connecting to its database',
    { timeout: 60_000 },
    async () => {
      const result = await runMain(
        ['--check', '--env-file', path.join(REPO_ROOT, 'deploy/enishi.env.example')],
        {},
      );
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('configuration valid');
      expect(result.code).toBe(0);
    },
  );

  it('exits non-zero naming every bad variable, secrets not echoed', { timeout: 60_000 }, async () => {
    const file = envFile(
      'bad.env',
      [
        '# a club',
        'PORT=eighty',
        'ICE_SERVERS=[{"urls":"stun:turn.example.jp:3478"',
        'REDIS_ULR=redis://127.0.0.1:6379',
        'DATABASE_URL=mysql://enishi:s3cret-pw@127.0.0.1/enishi',
        '',
      ].join('\n'),
    );
    const result = await runMain(['--check', '--env-file', file], {});
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      'Invalid environment variable PORT: must be an integer from 1 to 65535 (got "eighty")',
      'Invalid environment variable DATABASE_URL: must be a postgres:// or postgresql:// URL',
      expect.stringMatching(/^Invalid environment variable ICE_SERVERS: must be JSON: /),
      'Unknown environment variable REDIS_ULR: did you mean REDIS_URL? (REDIS_URL is not set)',
    ]);
    expect(result.stderr).not.toContain('s3cret-pw');
  });

  it('reads the file as systemd does: quotes and JSON values intact', () => {
    const file = envFile(
      'quoted.env',
      [
        'ICE_SERVERS=[{"urls":["stun:turn.example.jp:3478","turns:turn.example.jp:5349?transport=tcp"]}]',
        'TURN_SECRET="a secret with spaces and # in it"',
        "OWNER_PASSWORD='pa.ss?/-1'",
        'SITE_KINDS={"enishi.example.jp":1,"*":2}',
      ].join('\n'),
    );
    expect(checkConfiguration(['--check', `--env-file=${file}`], {})).toEqual({
      code: 0,
      lines: [`${file}: configuration valid`],
    });
  });

  it('refuses an unquoted # or backslash, which systemd and node --env-file read differently', () => {
    const file = envFile('hash.env', 'TURN_SECRET=sixteen-chars-#-and-more\nPORT=8081\n');
    const result = checkConfiguration(['--check', '--env-file', file], {});
    expect(result.code).toBe(1);
    expect(result.lines[0]).toMatch(/^TURN_SECRET \(line 1\): an unquoted value with # or \\/);
  });

  it('says when the file cannot be read', () => {
    expect(checkConfiguration(['--check', '--env-file', path.join(work, 'missing.env')], {}).code).toBe(2);
  });
});

describe('near-miss variable names', () => {
  it('names the known variable an unknown one is close to', () => {
    expect(nearMissLines({ REDIS_ULR: 'x', DATABSE_URL: 'y', METRICS_TOKN: 'z', REDIS_URL: 'r' })).toEqual([
      'Unknown environment variable REDIS_ULR: did you mean REDIS_URL?',
      'Unknown environment variable DATABSE_URL: did you mean DATABASE_URL? (DATABASE_URL is not set)',
      'Unknown environment variable METRICS_TOKN: did you mean METRICS_TOKEN? (METRICS_TOKEN is not set)',
    ]);
  });

  it('leaves alone what a shell, systemd and Node set, and every known variable', () => {
    const ordinary = ['HOME', 'PATH', 'HOSTNAME', 'PWD', 'USER', 'LANG', 'TERM', 'SHELL', 'NODE_ENV'];
    const systemd = ['INVOCATION_ID', 'JOURNAL_STREAM', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_'];
    const env = Object.fromEntries([...ordinary, ...systemd, ...KNOWN_VARIABLES].map((name) => [name, 'x']));
    expect(nearMissLines(env)).toEqual([]);
  });
});

describe('a start that cannot reach a service', () => {
  it(
    'names PostgreSQL in one line (and warns about a misspelled variable first)',
    { timeout: 60_000 },
    async () => {
      const port = await freePort();
      const result = await runMain([], {
        DATA_DIR: work,
        PORT: String(await freePort()),
        DATABASE_URL: `postgres://enishi:s3cret-pw@127.0.0.1:${port}/enishi`,
        DATABSE_URL: 'postgres://typo',
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `Cannot start: PostgreSQL at 127.0.0.1:${port} (DATABASE_URL) is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`,
      );
      expect(result.stdout).toContain('Unknown environment variable DATABSE_URL: did you mean DATABASE_URL?');
      expect(result.stdout + result.stderr).not.toContain('s3cret-pw');
    },
  );

  it('names Redis in one line', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const database = process.env.TEST_DATABASE_URL ? await createPostgresDatabase() : undefined;
    try {
      const result = await runMain([], {
        DATA_DIR: mkdtempSync(path.join(work, 'data-')),
        PORT: String(await freePort()),
        ...(database ? { DATABASE_URL: database.url } : {}),
        REDIS_URL: `redis://127.0.0.1:${port}`,
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `Cannot start: Redis at 127.0.0.1:${port} (REDIS_URL) is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`,
      );
      expect(result.stdout).not.toContain('"level":50'); // no error line per retry before it
    } finally {
      await database?.drop();
    }
  });
});
