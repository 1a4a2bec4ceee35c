import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { lastAppliedMigration } from '../db/migrations.js';
import { rowsOf } from '../db/raw.js';

const gzip = promisify(gzipCallback);

/*
 * A logical copy of the database, the same on both engines: every table of the schemas `public` and
 * `drizzle` (the migrations' record) as JSON lines (`row_to_json`, which `json_populate_recordset` reads
 * back on restore), read in one REPEATABLE READ, read-only transaction, so all tables show one moment.
 * On the embedded database that transaction holds the one session for as long as it reads, so the rows
 * are gathered (gzipped, in chunks) before anything is written out.
 */

/** Rows per chunk of a table: bounded memory on both sides. */
const CHUNK_ROWS = 5_000;

export interface TableDump {
  /** `schema.table`. */
  name: string;
  rows: number;
  /** Gzipped JSON lines, one row per line. */
  chunks: Buffer[];
}

export interface DatabaseSnapshot {
  /** When the snapshot's transaction began (the database's clock): every commit before it is in. */
  takenAt: string;
  /** The `when` of the last migration applied (the journal's), null for none. */
  migration: number | null;
  tables: TableDump[];
  /** Each sequence's last value, so ids go on where they were. */
  sequences: Record<string, number>;
  /** Pictures the rows refer to, relative to DATA_DIR/media. */
  pictures: string[];
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const qualified = (table: string) => table.split('.').map(quoted).join('.');

/** Tables of the app's schemas, `schema.table`, in name order. */
export async function listTables(db: Database): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`select n.nspname || '.' || c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`),
  );
  return rows.map((row) => row.name);
}

export async function countRows(db: Database, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const rows = rowsOf<{ n: string | number }>(
      await db.execute(sql.raw(`select count(*) as n from ${qualified(table)}`)),
    );
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

async function dumpTable(db: Database, table: string): Promise<TableDump> {
  const chunks: Buffer[] = [];
  let rows = 0;
  await db.execute(
    sql.raw(
      `declare enishi_dump no scroll cursor for select row_to_json(t)::text as j from ${qualified(table)} t`,
    ),
  );
  for (;;) {
    const batch = rowsOf<{ j: string }>(await db.execute(sql.raw(`fetch ${CHUNK_ROWS} from enishi_dump`)));
    if (batch.length === 0) break;
    rows += batch.length;
    chunks.push(await gzip(batch.map((row) => row.j).join('\n'), { level: 1 }));
  }
  await db.execute(sql.raw('close enishi_dump'));
  return { name: table, rows, chunks };
}

/**
 * Stored pictures the rows name: the `path` of every table of stored images (the columns of
 * db/columns.ts storedImageColumns) and the profile pictures of users (`profile/<id>.jpg`).
 */
async function referencedPictures(db: Database): Promise<string[]> {
  const imageTables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_schema || '.' || table_name as name from information_schema.columns
      where table_schema = 'public' and column_name in ('path', 'mime')
      group by 1 having count(*) = 2 order by 1`),
  );
  const pictures: string[] = [];
  for (const { name } of imageTables) {
    const rows = rowsOf<{ path: string }>(await db.execute(sql.raw(`select path from ${qualified(name)}`)));
    pictures.push(...rows.map((row) => row.path));
  }
  const profiles = rowsOf<{ image: string }>(
    await db.execute(sql`select image from users where image ~ '^[A-Za-z0-9_-]{22}$'`),
  );
  pictures.push(...profiles.map((row) => `profile/${row.image}.jpg`));
  return pictures;
}

async function sequenceValues(db: Database): Promise<Record<string, number>> {
  const rows = rowsOf<{ name: string; last_value: string | number | null }>(
    await db.execute(sql`select schemaname || '.' || sequencename as name, last_value from pg_sequences
      where schemaname in ('public', 'drizzle') and last_value is not null`),
  );
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.last_value)]));
}

/** Reads every table in one snapshot, and whatever `alsoRead` reads in the same one. */
export async function takeSnapshot<T>(
  db: Database,
  alsoRead: (db: Database) => Promise<T>,
): Promise<DatabaseSnapshot & { also: T }> {
  return db.transaction(
    async (tx) => {
      const inTx = tx as unknown as Database;
      const begun = rowsOf<{ at: string }>(await inTx.execute(sql`select to_json(now())#>>'{}' as at`));
      const tables: TableDump[] = [];
      for (const table of await listTables(inTx)) tables.push(await dumpTable(inTx, table));
      return {
        takenAt: new Date(begun[0]!.at).toISOString(),
        migration: await lastAppliedMigration(inTx),
        tables,
        sequences: await sequenceValues(inTx),
        pictures: await referencedPictures(inTx),
        also: await alsoRead(inTx),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
