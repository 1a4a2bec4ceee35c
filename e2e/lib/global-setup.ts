import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../server/src/test/process.js';
import { leaksIn, readSecrets, type Secret } from './secrets.js';
import { seedUsers, serverEnv, startServer } from './server.js';
import { people } from './users.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    uids: Record<string, number>;
    /** Where the suite's server writes its log (JSON lines), and where the tests list what it must not hold. */
    serverLog: string;
    secretsFile: string;
  }
}

/**
 * One real server for the whole browser suite, on a fresh embedded database seeded with the club. At the end,
 * its log is scanned for every password, session id, push key and message text the run sent (secrets.ts):
 * a single one found fails the run (product.md §10.4).
 */
export default async function setup(project: TestProject) {
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
  const members = [people.admin, people.staff, people.man, people.woman];
  const uids = seedUsers(env, members);
  const server = await startServer(env, serverLog);
  project.provide('baseURL', server.baseURL);
  project.provide('uids', uids);
  project.provide('serverLog', serverLog);
  project.provide('secretsFile', secretsFile);
  return async () => {
    await server.stop();
    const known: Secret[] = Object.values(people).map((person) => ({
      field: 'password',
      value: person.password,
    }));
    const leaks = leaksIn(readFileSync(serverLog, 'utf8'), [...known, ...readSecrets(secretsFile)]);
    if (leaks.length > 0) {
      const where = leaks.map((leak) => `${leak.field} on line ${leak.line}`).join(', ');
      // Vitest reports an error thrown here but still exits 0: the run must fail.
      process.exitCode = 1;
      throw new Error(`The server's log (${serverLog}) holds secrets the browser sent: ${where}`);
    }
    // Kept only when it shows a leak.
    rmSync(dir, { recursive: true, force: true });
  };
}
