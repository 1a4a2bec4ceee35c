import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import postgres from 'postgres';
import { inject } from 'vitest';
import { MIGRATIONS_FOLDER, PGLITE_EXTENSIONS, type Database } from '../db/client.js';
import { runMigrations } from '../db/migrations.js';
import * as schema from '../db/schema.js';

/*
 * One migrated database per test run, copied for each test file instead of migrating again (opening an empty
 * PGlite and running every migration takes seconds; loading a copy of a migrated data directory a fraction of
 * that, and PostgreSQL's CREATE DATABASE … TEMPLATE is a file copy). The run's global setup
 * (test/global-setup.ts) makes them; a test file reads where they are with `inject`.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tar of a migrated PGlite data directory (`dumpDataDir('none')`). */
    pgliteTemplate: string | undefined;
    /** A migrated PostgreSQL database on the TEST_DATABASE_URL server, nobody connected to it. */
    postgresTemplate: string | undefined;
  }
}

/** Writes a migrated PGlite's data directory to `file`. */
export async function writePgliteTemplate(file: string): Promise<void> {
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  try {
    await runMigrations(drizzle({ client, schema }) as unknown as Database, MIGRATIONS_FOLDER);
    const archive = await client.dumpDataDir('none');
    await writeFile(file, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** A migrated PostgreSQL database on `serverUrl`'s server; `drop` removes it. */
export async function createPostgresTemplate(
  serverUrl: string,
  migrate: (url: string) => Promise<void>,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `enishi_template_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** What `inject` gives outside a run with the global setup (e.g. a script): nothing. */
function provided<K extends 'pgliteTemplate' | 'postgresTemplate'>(key: K): string | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

let pgliteCopy: Blob | undefined;

/** The run's migrated PGlite data directory, read once per test file; undefined without a global setup. */
export function pgliteTemplate(): Blob | undefined {
  const file = provided('pgliteTemplate');
  if (!file) return undefined;
  pgliteCopy ??= new Blob([readFileSync(file)]);
  return pgliteCopy;
}

/** The run's migrated PostgreSQL database; undefined without a global setup. */
export function postgresTemplate(): string | undefined {
  return provided('postgresTemplate');
}
