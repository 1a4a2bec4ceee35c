import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { countQueries } from './counted-client.js';
import { lockDataDir } from './data-dir-lock.js';
import { runMigrations, type MigrateOptions } from './migrations.js';
import { openDurablePglite } from './pglite-durable.js';
import { PgliteWorkerClient } from './pglite-worker-client.js';
import * as schema from './schema.js';

/** The one database type that repositories see, whichever engine is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * What repositories are given. `ordered` runs statements in the order they are sent, pipelined on one
 * connection of its own (the message batches, see raw.ts); on PGlite, one session, it is `db` itself.
 */
export interface DatabaseConnections {
  db: Database;
  ordered: Database;
}

export interface DatabaseHandle extends DatabaseConnections {
  engine: 'pglite' | 'postgres';
  /** Applies the SQL migrations in server/drizzle that have not run yet, each in its own transaction. */
  migrate(options?: MigrateOptions): Promise<string[]>;
  close(): Promise<void>;
}

/** Extensions the schema uses, loaded into every embedded database (pg_trgm: message search). */
export const PGLITE_EXTENSIONS = { pg_trgm };

// Two levels up from src/db/ and from dist/db/ alike.
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface DatabaseOptions {
  /** Use this PostgreSQL instead of the embedded database. */
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; omitted: in memory (tests). */
  pgliteDir?: string | undefined;
  /** Run the embedded database in a worker thread, so its queries do not block the event loop. */
  pgliteWorker?: boolean | undefined;
  /**
   * In memory only: start from this copy of a data directory (PGlite's `dumpDataDir()`) instead of an empty
   * one. The tests copy one migrated database per run this way (server/src/test/database.ts).
   */
  pgliteCopyOf?: Blob | undefined;
}

/**
 * How long a connection waits before it tries PostgreSQL again after failing to reach it. A query waits
 * that long before it fails, so postgres.js's own (growing to 20 s) would hold a message for 20 s before
 * its sender heard that it was not stored, and keep the database unused that long after its return. At
 * most a quarter of a second (decision 020).
 */
const reconnectDelaySeconds = (retries: number) => Math.min(0.05 * retries, 0.25);

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // Migrations print NOTICEs such as "schema already exists, skipping"; they are not worth a log line.
    const settings = { onnotice: () => {}, backoff: reconnectDelaySeconds };
    const client = countQueries(postgres(options.databaseUrl, { max: 10, ...settings }));
    const db = drizzlePostgres({ client, schema });
    const inOrder = countQueries(postgres(options.databaseUrl, { max: 1, ...settings }));
    return {
      db,
      ordered: drizzlePostgres({ client: inOrder, schema }),
      engine: 'postgres',
      migrate: (migrateOptions) => runMigrations(db, MIGRATIONS_FOLDER, migrateOptions),
      close: async () => {
        await Promise.all([client.end({ timeout: 5 }), inOrder.end({ timeout: 5 })]);
      },
    };
  }

  if (!options.pgliteDir) return openEmbedded(options);
  await mkdir(options.pgliteDir, { recursive: true });
  const lock = lockDataDir(`${options.pgliteDir}.lock`, `The embedded database in ${options.pgliteDir}`);
  try {
    const handle = await openEmbedded(options);
    return {
      ...handle,
      close: async () => {
        await handle.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openEmbedded(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.pgliteWorker) {
    const client = await PgliteWorkerClient.open(options.pgliteDir);
    // Only the calls drizzle-orm/pglite makes are forwarded; see pglite-worker-client.ts.
    return pgliteHandle(client as unknown as PGlite);
  }
  const client = options.pgliteDir
    ? await openDurablePglite(options.pgliteDir)
    : new PGlite({ extensions: PGLITE_EXTENSIONS, loadDataDir: options.pgliteCopyOf });
  await client.waitReady;
  return pgliteHandle(client);
}

/** One PGlite (in this thread or a worker) serves both connections: it runs one query at a time anyway. */
function pgliteHandle(client: PGlite): DatabaseHandle {
  const db = drizzlePglite({ client, schema });
  return {
    db,
    ordered: db,
    engine: 'pglite',
    migrate: (options) => runMigrations(db, MIGRATIONS_FOLDER, options),
    close: () => client.close(),
  };
}

/**
 * The database the configuration names: PostgreSQL when DATABASE_URL is set, else `${DATA_DIR}/db`, run in
 * a worker thread.
 */
export function openConfiguredDatabase(config: { databaseUrl: string | undefined; dataDir: string }) {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    pgliteWorker: true,
  });
}
