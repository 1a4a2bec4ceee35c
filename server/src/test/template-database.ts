import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * (test/global-setup.ts) makes them; a test file reads where they are with `inject`. So too one empty PGlite
 * data directory, as initdb leaves it: PGlite's initdb takes most of a new embedded database's start (about
 * 8 CPU s on a slow machine, against 1 to open a copy), and some twenty tests each began with one.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tar of a migrated PGlite data directory (`dumpDataDir('none')`). */
    pgliteTemplate: string | undefined;
    /** A PGlite data directory as initdb leaves it, nothing migrated. */
    pgliteEmpty: string | undefined;
    /** The same directory as a tar (`dumpDataDir('none')`), to load in memory. */
    pgliteEmptyTar: string | undefined;
    /** A migrated PostgreSQL database on the TEST_DATABASE_URL server, nobody connected to it. */
    postgresTemplate: string | undefined;
  }
}

/** Runs PGlite's initdb once, in `dir`, and writes that empty data directory's tar to `tar` too. */
export async function writePgliteEmpty(dir: string, tar: string): Promise<void> {
  const client = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  try {
    await client.waitReady;
    const archive = await client.dumpDataDir('none');
    await writeFile(tar, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** Writes a migrated PGlite's data directory to `file`: the empty one's tar (`emptyTar`), migrated. */
export async function writePgliteTemplate(file: string, emptyTar: string): Promise<void> {
  const client = new PGlite({
    extensions: PGLITE_EXTENSIONS,
    loadDataDir: new Blob([readFileSync(emptyTar)]),
  });
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
function provided<K extends 'pgliteTemplate' | 'pgliteEmpty' | 'pgliteEmptyTar' | 'postgresTemplate'>(
  key: K,
): string | undefined {
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

let emptyCopy: Blob | undefined;

/** The run's empty PGlite data directory (nothing migrated), to load in memory; undefined without a global setup. */
export function pgliteEmpty(): Blob | undefined {
  const file = provided('pgliteEmptyTar');
  if (!file) return undefined;
  emptyCopy ??= new Blob([readFileSync(file)]);
  return emptyCopy;
}

/**
 * A new DATA_DIR (a temporary folder named from `prefix`, which the caller removes) whose embedded database
 * is a copy of the run's empty one: as a new install's is after initdb, so the server or script that opens it
 * migrates it as it would there. Without a global setup, an empty folder.
 */
export function newDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const empty = provided('pgliteEmpty');
  if (empty) cpSync(empty, join(dir, 'db'), { recursive: true });
  return dir;
}

/** The run's migrated PostgreSQL database; undefined without a global setup. */
export function postgresTemplate(): string | undefined {
  return provided('postgresTemplate');
}
