import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../server/src/test/process.js';
import { pgliteTemplates } from '../../server/src/test/template-cache.js';
import { leaksIn, readSecrets, type Secret } from './secrets.js';
import { seedUsers, serverEnv, startServer, type RunningServer } from './server.js';
import type { SuiteServer } from './suite.js';
import { people } from './users.js';

interface Started extends SuiteServer {
  dir: string;
  server: RunningServer;
}

interface Prepared extends SuiteServer {
  dir: string;
  env: NodeJS.ProcessEnv;
}

/**
 * A fresh embedded database seeded with the club, for a server on a port of its own: the first seeded with
 * the server's CLI (synchronous, one member after another), the others copies of its data directory (the
 * same uids). All are prepared before any server starts, so that no server's wait for /healthz stands still
 * behind a seeding.
 */
async function prepare(seeded?: Prepared): Promise<Prepared> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'enishi-e2e-run-'));
  const serverLog = join(dir, 'server.log');
  const secretsFile = join(dir, 'secrets.jsonl');
  // `debug`: more than production logs, so that a leak at any level a club might choose is caught.
  const env = serverEnv(port, {
    OWNER_ID: people.owner.id,
    OWNER_PASSWORD: people.owner.password,
    LOG_LEVEL: 'debug',
  });
  const baseURL = `http://127.0.0.1:${port}`;
  if (seeded) {
    cpSync(String(seeded.env.DATA_DIR), String(env.DATA_DIR), { recursive: true });
    return { baseURL, uids: seeded.uids, serverLog, secretsFile, dir, env };
  }
  const members = [people.admin, people.staff, people.man, people.woman];
  const uids = seedUsers(env, members);
  return { baseURL, uids, serverLog, secretsFile, dir, env };
}

async function start(prepared: Prepared): Promise<Started> {
  const server = await startServer(prepared.env, prepared.serverLog);
  const { baseURL, uids, serverLog, secretsFile, dir } = prepared;
  return { baseURL, uids, serverLog, secretsFile, dir, server };
}

/**
 * One real server per worker (the files run in parallel, suite.ts gives each the server of its worker). At
 * the end, each server's log is scanned for every password, session id, push key and message text the run
 * sent (secrets.ts): a single one found fails the run (product.md §10.4).
 */
export default async function setup(project: TestProject) {
  const workers = Math.max(1, project.config.maxWorkers);
  const prepared = [await prepare()];
  while (prepared.length < workers) prepared.push(await prepare(prepared[0]));
  // The servers files start of their own begin on a copy of this, not on an initdb each (lib/server.ts): the first
  // server above began on an empty DATA_DIR, as an install does.
  project.provide('pgliteEmpty', (await pgliteTemplates()).empty);
  const starts = await Promise.allSettled(prepared.map(start));
  const started = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
  const failed = starts.find((start) => start.status === 'rejected');
  if (failed) {
    // Vitest runs no teardown for a setup that throws: the servers that did start stop here.
    await Promise.all(started.map(({ server }) => server.stop()));
    throw failed.reason;
  }
  project.provide(
    'servers',
    started.map(({ baseURL, uids, serverLog, secretsFile }) => ({ baseURL, uids, serverLog, secretsFile })),
  );
  return async () => {
    await Promise.all(started.map(({ server }) => server.stop()));
    const known: Secret[] = Object.values(people).map((person) => ({
      field: 'password',
      value: person.password,
    }));
    const sent = started.flatMap(({ secretsFile }) => readSecrets(secretsFile));
    const found = started.flatMap(({ serverLog }) =>
      leaksIn(readFileSync(serverLog, 'utf8'), [...known, ...sent]).map((leak) => ({ serverLog, leak })),
    );
    if (found.length > 0) {
      const where = found.map(({ serverLog, leak }) => `${leak.field} on line ${leak.line} of ${serverLog}`);
      // Vitest reports an error thrown here but still exits 0: the run must fail.
      process.exitCode = 1;
      throw new Error(`The servers' logs hold secrets the browser sent: ${where.join(', ')}`);
    }
    // Kept only when they show a leak.
    for (const { dir } of started) rmSync(dir, { recursive: true, force: true });
  };
}
