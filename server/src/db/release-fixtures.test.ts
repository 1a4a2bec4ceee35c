import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { LOOKUPS, PROFILE_FIELD_NAMES, PROFILE_FIELDS, type LookupItem } from '@enishi/contract';
import { countRows, listTables } from '../backup/snapshot.js';
import { createPostgresDatabase, ENGINES, openCreatedDatabase, type Engine } from '../test/database.js';
import { freePort, startServerProcess } from '../test/process.js';
import { newDataDir, pgliteEmpty } from '../test/template-database.js';
import { openDatabase, MIGRATIONS_FOLDER, type Database, type DatabaseHandle } from './client.js';
import { lastAppliedMigration, readMigrations } from './migrations.js';
import { rowsOf } from './raw.js';

/*
 * Upgrades keep everything (docs/releases.md): the database each earlier release made (its own code ran
 * its migrations and `npm run demo` on PostgreSQL, dumped as SQL by scripts/release-fixture.sh) opens with
 * the current migrations on both engines, every row kept.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const releases = readdirSync(FIXTURES)
  .filter((name) => /^release-[0-9a-f]{7}\.sql$/.test(name))
  .sort();
const LATEST = readMigrations(MIGRATIONS_FOLDER).at(-1)!.when;
const WELCOME = 'ご入会ありがとうございます。担当の森です。';

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A database of `engine` holding a release's dump, not yet upgraded. */
async function loadRelease(engine: Engine, dump: string): Promise<DatabaseHandle> {
  if (engine === 'pglite') {
    // Into a copy of the run's empty data directory, not a new database of its own (initdb costs seconds).
    const handle = await openDatabase({ pgliteCopyOf: pgliteEmpty() });
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    await client.exec(dump);
    await client.exec('RESET ALL'); // the dump empties search_path for its session
    return handle;
  }
  const created = await createPostgresDatabase();
  const loader = postgres(created.url, { max: 1, onnotice: () => {} });
  await loader.unsafe(dump);
  await loader.end();
  return openCreatedDatabase(created);
}

/**
 * Stored profile codes that no code table knows (product.md §9.5), as `field=code`: none once the migrations
 * have moved the old codes (0012, 0014).
 */
async function unknownCodes(db: Database): Promise<string[]> {
  const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`select * from member_profiles`));
  const tables = LOOKUPS as Record<string, LookupItem[]>;
  const unknown: string[] = [];
  for (const row of rows) {
    for (const field of PROFILE_FIELD_NAMES) {
      const spec = PROFILE_FIELDS[field];
      if (!('lookup' in spec) || !tables[spec.lookup]) continue;
      const value = row[field] as number | number[] | null;
      for (const code of Array.isArray(value) ? value : value === null ? [] : [value]) {
        if (!tables[spec.lookup]!.some((item) => item.code === code && item.label !== ''))
          unknown.push(`${field}=${code}`);
      }
    }
  }
  return unknown;
}

async function tableCounts(db: Database) {
  const counts = await countRows(db, await listTables(db));
  delete counts['drizzle.__drizzle_migrations'];
  return counts;
}

/** What the demo club of every release has: its owner, its people, and the staff's welcome in a desk talk. */
async function keyValues(db: Database) {
  const one = async (query: ReturnType<typeof sql>) =>
    rowsOf<Record<string, unknown>>(await db.execute(query))[0];
  return {
    owner: (await one(sql`select login_id from users where role = 2 order by id limit 1`))?.login_id,
    people: Number((await one(sql`select count(*) as n from users`))?.n),
    welcome: Number(
      (await one(sql`select count(*) as n from messages where body like ${`%${WELCOME}%`}`))?.n,
    ),
  };
}

describe.each(ENGINES)('databases of earlier releases on %s', { timeout: 90_000 }, (engine) => {
  it.each(releases)('%s upgrades with every row kept', async (release) => {
    const database = await loadRelease(engine, readFileSync(path.join(FIXTURES, release), 'utf8'));
    try {
      const before = await tableCounts(database.db);
      const values = await keyValues(database.db);
      expect(values).toEqual({ owner: 'demo-owner', people: 13, welcome: 10 });

      await database.migrate();
      expect(await lastAppliedMigration(database.db)).toBe(LATEST);
      const after = await tableCounts(database.db);
      for (const [table, rows] of Object.entries(before))
        expect({ table, rows: after[table] }).toEqual({ table, rows });
      expect(await keyValues(database.db)).toEqual(values);
      expect(await unknownCodes(database.db)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('a DATA_DIR of the oldest release', () => {
  it('opens with the new server, every row kept', async () => {
    const dataDir = newDataDir('enishi-release-');
    folders.push(dataDir);
    const embedded = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    const client = (embedded.db as unknown as { $client: PGlite }).$client;
    await client.exec(readFileSync(path.join(FIXTURES, releases[0]!), 'utf8'));
    const last = await lastAppliedMigration(embedded.db);
    await embedded.close();
    const upgrades = readMigrations(MIGRATIONS_FOLDER).filter((migration) => migration.when > last!);

    const server = await startServerProcess({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      OWNER_ID: 'demo-owner',
    });
    try {
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
      // The start names what it upgraded, in one line.
      expect(upgrades.length).toBeGreaterThan(0);
      expect(server.log()).toContain(
        `migrations ran: ${upgrades.map((migration) => migration.tag).join(', ')}"`,
      );
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const reopened = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      expect(await lastAppliedMigration(reopened.db)).toBe(LATEST);
      expect(await keyValues(reopened.db)).toEqual({ owner: 'demo-owner', people: 13, welcome: 10 });
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
