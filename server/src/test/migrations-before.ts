import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from '../db/client.js';
import { createPostgresDatabase, type Engine } from './database.js';
import { pgliteEmpty } from './template-database.js';

/* A database as an earlier release left it, for the tests of one migration's data changes (server/src/db). */

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A copy of the migrations folder with only the migrations before the one numbered `idx`. */
async function migrationsBefore(idx: number): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'enishi-migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
  journal.entries = journal.entries.filter((entry) => entry.idx < idx);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

/**
 * A database of `engine` migrated up to the migration before the one numbered `idx`, made before the tests
 * of the surrounding describe and dropped after them.
 */
export function databaseBefore(idx: number, engine: Engine): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  let drop: () => Promise<void> = async () => {};
  let folder: string | undefined;
  beforeAll(async () => {
    folder = await migrationsBefore(idx);
    if (engine === 'pglite') {
      handle = await openDatabase({ pgliteCopyOf: pgliteEmpty() });
      await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
      return;
    }
    const created = await createPostgresDatabase();
    drop = created.drop;
    handle = await openDatabase({ databaseUrl: created.url });
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder: folder });
  });
  afterAll(async () => {
    await handle?.close();
    await drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return () => handle!;
}
