import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { pgliteEmpty, pgliteTemplate, postgresTemplate } from './template-database.js';

export type Engine = 'pglite' | 'postgres';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** Engines the repository tests run on: always the embedded one, PostgreSQL too when TEST_DATABASE_URL is set. */
export const ENGINES: Engine[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** The engine the API tests use: the real PostgreSQL when there is one. */
export const DEFAULT_ENGINE: Engine = TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A new PostgreSQL database on the TEST_DATABASE_URL server, empty or a copy of `template` (the URL of another
 * one, which nobody may be connected to); `drop` removes it.
 */
export async function createPostgresDatabase(
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `enishi_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  const copyOf = template ? ` TEMPLATE "${new URL(template).pathname.slice(1)}"` : '';
  await admin.unsafe(`CREATE DATABASE "${name}"${copyOf}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A handle on a database made by createPostgresDatabase, which drops it on close. */
export async function openCreatedDatabase(created: {
  url: string;
  drop(): Promise<void>;
}): Promise<DatabaseHandle> {
  const handle = await openDatabase({ databaseUrl: created.url });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await created.drop();
    },
  };
}

/** An empty database of the engine, not migrated. */
export async function openEmptyDatabase(engine: Engine): Promise<DatabaseHandle> {
  return engine === 'pglite'
    ? openDatabase({ pgliteCopyOf: pgliteEmpty() })
    : openCreatedDatabase(await createPostgresDatabase());
}

/**
 * A fresh, migrated database. For PostgreSQL, a uniquely named database is created on the server that
 * TEST_DATABASE_URL names and dropped on close, so test files running in parallel never share tables. Both
 * are copies of the run's migrated template (test/template-database.ts) when there is one; `migrate()` then
 * finds nothing left to run.
 */
export async function openTestDatabase(engine: Engine = DEFAULT_ENGINE): Promise<DatabaseHandle> {
  if (engine === 'pglite') {
    const copyOf = pgliteTemplate();
    const handle = await openDatabase({ pgliteCopyOf: copyOf });
    if (!copyOf) await handle.migrate();
    return handle;
  }
  const template = postgresTemplate();
  const handle = await openCreatedDatabase(await createPostgresDatabase(template));
  if (!template) await handle.migrate();
  return handle;
}
