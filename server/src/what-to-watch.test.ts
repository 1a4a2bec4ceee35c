import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotatedBackups } from './backup/daily-backups.js';
import { metrics } from './lib/metrics.js';
import { createPostgresDatabase } from './test/database.js';
import { freePort, REPO_ROOT, startServerProcess, type ServerProcess } from './test/process.js';
import { testRedisUrl } from './test/redis.js';

/*
 * docs/operations.md, "What to watch", is true of a fresh instance: its /metrics passes `promtool check
 * metrics`, every figure the shipped Grafana dashboard and alert rules read is there from the start, the
 * shipped rules pass `promtool check rules` and their own `promtool test rules`, and the /readyz bodies the
 * docs quote are the real ones.
 */

const TOKEN = 'what-to-watch-0123456789';
/** A Redis database number no other server test file takes (they take 1 to 15). */
const REDIS_DB = 0;
const RULES_DIR = path.join(REPO_ROOT, 'deploy/prometheus');
const RULES = path.join(RULES_DIR, 'enishi-alerts.yml');

let server: ServerProcess;
let database: { url: string; drop(): Promise<void> } | undefined;
let dataDir: string;
/** The instance's first answer to /metrics, before any other request. */
let firstScrape: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'enishi-watch-'));
  if (process.env.TEST_DATABASE_URL) database = await createPostgresDatabase();
  server = await startServerProcess({
    ...process.env,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    METRICS_TOKEN: TOKEN,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(process.env.TEST_REDIS_URL ? { REDIS_URL: testRedisUrl(REDIS_DB) } : {}),
  });
  firstScrape = await scrape();
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function scrape(): Promise<string> {
  const reply = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(reply.status).toBe(200);
  return reply.text();
}

/** Metric names a PromQL text reads (ours all start with enishi_). */
function metricNames(promql: string): string[] {
  return [...promql.matchAll(/\benishi_[a-z0-9_]+/g)].map((match) => match[0]);
}

/** Whether the exposition has a sample of `name` (not only its HELP and TYPE lines). */
function hasSample(text: string, name: string): boolean {
  return text.split('\n').some((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`));
}

describe('/metrics of a fresh instance', () => {
  it('passes promtool check metrics without a remark', () => {
    const check = spawnSync('promtool', ['check', 'metrics'], { input: firstScrape, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('has every figure a panel of the Grafana dashboard reads, at 0 where it counts', () => {
    const dashboard = readFileSync(path.join(REPO_ROOT, 'deploy/grafana-dashboard.json'), 'utf8');
    const expressions = [...dashboard.matchAll(/"expr":\s*"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!);
    const names = new Set(expressions.flatMap(metricNames));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) {
      if (name === 'enishi_redis_connected' && !process.env.TEST_REDIS_URL) continue; // only with REDIS_URL
      expect(hasSample(firstScrape, name), name).toBe(true);
    }
    // Counters start at 0: an alert's first increase is seen, not the birth of a series.
    expect(firstScrape).toContain('enishi_calls_total{outcome="timeout"} 0');
    expect(firstScrape).toContain('enishi_push_failures_total{status="0"} 0');
    expect(firstScrape).toContain(
      'enishi_http_requests_total{method="POST",route="/api/login",status="429"} 0',
    );
  });

  it('has every figure the alert rules read (the backup time once a backup is there)', () => {
    const names = new Set(metricNames(readFileSync(RULES, 'utf8')));
    names.delete('enishi_backup_last_success_timestamp_seconds'); // only with BACKUP_DIR: below
    if (!process.env.TEST_REDIS_URL) names.delete('enishi_redis_connected');
    for (const name of names) expect(hasSample(firstScrape, name), name).toBe(true);
  });
});

describe('the newest backup as a metric', () => {
  it('is the modification time of the newest daily backup in BACKUP_DIR', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'enishi-watch-backups-'));
    try {
      // Not there without BACKUP_DIR; 0 (the alert fires) while the folder holds no daily backup.
      expect(await metrics.text()).not.toContain('enishi_backup_last_success_timestamp_seconds');
      metrics.watchBackups(dir, rotatedBackups);
      expect(await metrics.text()).toMatch(/^enishi_backup_last_success_timestamp_seconds 0$/m);
      for (const [name, at] of [
        ['enishi-20261127T183000Z.backup', 1_795_800_000],
        ['enishi-20261128T183000Z.backup', 1_795_886_400],
        ['notes.txt', 1_795_900_000],
      ] as const) {
        writeFileSync(path.join(dir, name), 'x');
        utimesSync(path.join(dir, name), at, at);
      }
      expect(await metrics.text()).toMatch(/^enishi_backup_last_success_timestamp_seconds 1795886400$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the shipped alert rules (deploy/prometheus)', () => {
  it('pass promtool check rules', () => {
    const check = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toContain('SUCCESS');
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });

  it(
    'pass their promtool test rules: each alert fires when it should and not otherwise',
    { timeout: 90_000 },
    () => {
      const test = spawnSync('promtool', ['test', 'rules', 'enishi-alerts.test.yml'], {
        cwd: RULES_DIR,
        encoding: 'utf8',
      });
      expect(test.status, test.stdout + test.stderr).toBe(0);
      expect(test.stdout).toContain('SUCCESS');
    },
  );
});

/** JSON bodies the docs give for /readyz: a code span with `{` after a mention of /readyz, with its status. */
function documentedReadyzBodies(file: string): { status: number; body: Record<string, unknown> }[] {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8').replace(/\s*\n\s*/g, ' ');
  return [...text.matchAll(/\/readyz`?[^`.;]*?(?:\b(200|503) )?`(\{[^`]*\})`/g)].map((match) => ({
    status: Number(match[1] ?? 200),
    body: JSON.parse(match[2]!.replaceAll('…', '')) as Record<string, unknown>, // `[…]`: some names
  }));
}

describe('the /readyz bodies in the docs', () => {
  it('are the ones the instance answers', async () => {
    const documented = ['docs/operations.md', 'docs/product.md'].flatMap(documentedReadyzBodies);
    expect(documented.filter((each) => each.status === 200).length).toBeGreaterThan(0);
    expect(documented.filter((each) => each.status === 503).length).toBeGreaterThan(0);

    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    const readyBody = await ready.json();
    for (const each of documented.filter((doc) => doc.status === 200)) expect(each.body).toEqual(readyBody);

    if (!database) return; // the 503 needs a database this test may take away: PostgreSQL's
    await database.drop();
    database = undefined;
    const down = await fetch(`${server.baseUrl}/readyz`);
    expect(down.status).toBe(503);
    const downBody = (await down.json()) as { status: string; down: string[] };
    expect(downBody.down).toEqual(['database']);
    for (const each of documented.filter((doc) => doc.status === 503)) {
      expect(Object.keys(each.body).sort()).toEqual(Object.keys(downBody).sort());
      expect(each.body.status).toBe(downBody.status);
    }
  });
});
