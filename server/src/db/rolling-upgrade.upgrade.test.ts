import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../test/database.js';
import { freePort, startServerProcess, type ServerProcess } from '../test/process.js';
import { testRedisUrl } from '../test/redis.js';
import { releaseBuild } from '../test/release-build.js';
import { readReleasesDoc } from '../test/releases.js';
import { Traffic } from '../test/upgrade-traffic.js';
import { MIGRATIONS_FOLDER, openDatabase } from './client.js';
import { readMigrations, type Migration } from './migrations.js';

/*
 * A rolling upgrade (docs/releases.md): an instance of the previous release serves members on a PostgreSQL
 * database; an instance of this code starts on the same database (and Redis) and migrates it, while both
 * take logins, talk lists, message lists and messages over the chat socket (product.md). No call answers
 * 5xx, no frame is refused, and every message an instance acknowledged is in the database exactly once.
 *
 * The previous release is the last row of docs/releases.md's table (UPGRADE_FROM=<commit> picks another);
 * its build is kept under node_modules/.cache/enishi-releases. `npm run test:upgrade` runs this file.
 */

const PREVIOUS = process.env.UPGRADE_FROM ?? readReleasesDoc().releases.at(-1)!.commit;
const MEMBERS = 4;
/** Rounds (login, talk list, messages, a socket with a message) each member makes on each instance per phase. */
const ROUNDS = 5;
const PASSWORD = 'upgrade-pass-1234';
const BUILD_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * UPGRADE_MIGRATE_TO=<tag> checks a past pair of releases (docs/releases.md) instead: no instance of this
 * code starts; its migrations up to that one are applied while the previous release serves.
 */
const MIGRATE_TO = process.env.UPGRADE_MIGRATE_TO;

/** The migrations of this code (up to MIGRATE_TO) that the previous release's build does not know. */
function newerMigrations(build: string): Migration[] {
  const known = new Set(readMigrations(path.join(build, 'server/drizzle')).map((entry) => entry.tag));
  const all = readMigrations(MIGRATIONS_FOLDER);
  const last = MIGRATE_TO === undefined ? all.length : all.findIndex((entry) => entry.tag === MIGRATE_TO) + 1;
  if (last === 0) throw new Error(`UPGRADE_MIGRATE_TO: no migration ${MIGRATE_TO}`);
  return all.slice(0, last).filter((entry) => !known.has(entry.tag));
}

/** Whether a release's `/readyz` can turn 503 `schema` (docs/releases.md: releases after 1c59496). */
function knowsSchemaCheck(build: string): boolean {
  return readFileSync(path.join(build, 'server/dist/services/readiness.js'), 'utf8').includes("'schema'");
}

const folders: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  folders.forEach((folder) => rmSync(folder, { recursive: true, force: true }));
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(`a rolling upgrade from ${PREVIOUS}`, () => {
  it(
    'keeps both releases answering on one PostgreSQL: no 5xx, no message lost',
    async () => {
      const build = await releaseBuild(PREVIOUS);
      const newer = newerMigrations(build);
      const breaking = newer.some((migration) => migration.breaksPrevious);
      const database = await createPostgresDatabase();
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        const start = async (name: string, from?: string) => {
          const port = await freePort();
          const dataDir = mkdtempSync(path.join(tmpdir(), `enishi-upgrade-${name}-`));
          folders.push(dataDir);
          const env = {
            DATABASE_URL: database.url,
            REDIS_URL: testRedisUrl(3),
            DATA_DIR: dataDir,
            HOST: '127.0.0.1',
            PORT: String(port),
            PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
            OWNER_ID: 'upgrade-owner',
            OWNER_PASSWORD: PASSWORD,
            LOGIN_ATTEMPTS_PER_ADDRESS: '1000000',
          };
          const server = await startServerProcess(env, from);
          servers.push(server);
          return server;
        };

        const previous = await start('previous', build);
        const owner = await (
          await fetch(`${previous.baseUrl}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id: 'upgrade-owner', password: PASSWORD }),
          })
        ).json();
        const logins = Array.from({ length: MEMBERS }, (_, index) => `upgrade-man-${index + 1}`);
        for (const login of logins) {
          const added = await fetch(`${previous.baseUrl}/api/adduser`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              ssid: (owner as { session: string }).session,
              id: login,
              name: `上野 ${login.slice(-1)}`,
              pass: PASSWORD,
              rank: 1,
              role: 101,
              introducer: '',
            }),
          });
          expect(added.status).toBe(200);
        }

        const traffic = new Traffic(logins, PASSWORD);
        traffic.on('previous', previous);
        await traffic.more('previous', ROUNDS);

        if (MIGRATE_TO === undefined) {
          // This code's instance migrates the database the previous one is serving from.
          const current = await start('current');
          const ran = newer.map((migration) => migration.tag).join(', ') || 'none';
          expect(current.log()).toContain(`migrations ran: ${ran}"`);
          traffic.on('current', current);
          await Promise.all([traffic.more('previous', ROUNDS), traffic.more('current', ROUNDS)]);
        } else {
          // A past pair: the next release's migrations, applied while the previous release serves.
          const next = await openDatabase({ databaseUrl: database.url });
          await next.migrate({ upTo: newer.at(-1)?.when });
          await next.close();
          await traffic.more('previous', ROUNDS * 2);
        }
        await traffic.stop();

        const ready = await fetch(`${previous.baseUrl}/readyz`);
        if (breaking) {
          // Not meant to mix (docs/releases.md): a previous release that has the schema check says so, and
          // its traffic is not counted.
          if (knowsSchemaCheck(build))
            expect(await ready.json()).toEqual({ status: 'unavailable', down: ['schema'] });
          expect(traffic.failuresOf('current')).toEqual([]);
        } else {
          expect(traffic.failures).toEqual([]);
          // Releases before 2026-11-26 have no /readyz.
          if (existsSync(path.join(build, 'server/dist/services/readiness.js')))
            expect(ready.status).toBe(200);
        }

        // Every acknowledged message is stored once.
        const stored = await sql<{ client_id: string; copies: number }[]>`
          select client_id::text, count(*)::int as copies from messages
          where client_id = any(${traffic.acknowledged}::uuid[]) group by client_id`;
        const copies = new Map(stored.map((row) => [row.client_id, row.copies]));
        const lost = traffic.acknowledged.filter((clientId) => copies.get(clientId) !== 1);
        expect({ acknowledged: traffic.acknowledged.length >= MEMBERS * ROUNDS * 3, lost }).toEqual({
          acknowledged: true,
          lost: [],
        });
      } finally {
        for (const server of servers.splice(0)) {
          server.child.kill('SIGTERM');
          await server.exited;
        }
        await sql.end();
        await database.drop();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});
