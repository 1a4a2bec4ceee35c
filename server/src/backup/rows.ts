import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { databaseErrorWithoutValues, RestoreRefused } from './refused.js';
import { qualified } from './snapshot.js';

const gunzip = promisify(gunzipCallback);

/** The club's own tables (`schema.table`, schemas public and drizzle) and each one's columns. */
export type ClubSchema = Map<string, Set<string>>;

/** The club's tables in `db` as its migrations made them: a restore writes into these and nothing else. */
export async function clubSchema(db: Database): Promise<ClubSchema> {
  const rows = rowsOf<{ tbl: string; col: string }>(
    await db.execute(sql`select n.nspname || '.' || c.relname as tbl, a.attname as col
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`),
  );
  const schema: ClubSchema = new Map();
  for (const { tbl, col } of rows) {
    if (!schema.has(tbl)) schema.set(tbl, new Set());
    schema.get(tbl)!.add(col);
  }
  return schema;
}

/** A name from the backup file, quoted and cut short for a message. */
export const named = (name: string) => JSON.stringify(name.slice(0, 80));

/** Refuses a table that is not one of the club's (pg_catalog.*, another schema, one this version lacks). */
export function clubTable(
  schema: ClubSchema,
  table: string,
  saying = 'the backup holds rows of',
): Set<string> {
  const columns = schema.get(table);
  if (!columns) {
    throw new RestoreRefused(
      `${saying} ${named(table)}, which is not one of the club's tables: a restore writes only those`,
    );
  }
  return columns;
}

/** The columns a row is inserted with: all but generated ones, which the database computes again. */
async function insertableColumns(db: Database, table: string): Promise<string> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`select attname as name from pg_attribute
      where attrelid = ${qualified(table)}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`),
  );
  return rows.map((row) => `"${row.name.replaceAll('"', '""')}"`).join(', ');
}

/** One chunk of the backup's rows, by table and part number (the file's own names for it). */
export interface Chunk {
  table: string;
  part: string;
  data: Buffer;
}

/**
 * The chunk's rows as JSON lines, each checked to be an object of `columns` only: a damaged part or a row
 * with a column the club's table has not is refused, naming the table and part, never a value.
 */
async function checkedLines(chunk: Chunk, columns: Set<string>): Promise<string[]> {
  const where = `${chunk.table} (part ${chunk.part})`;
  let text: string;
  try {
    text = (await gunzip(chunk.data)).toString('utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new RestoreRefused(`the backup is damaged: the rows of ${where} do not unpack (${code})`);
  }
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      // JSON.parse's own message quotes the text around the fault: the row.
      throw new RestoreRefused(`the backup is damaged: row ${index + 1} of ${where} is not JSON`);
    }
    if (!row || typeof row !== 'object' || Array.isArray(row)) {
      throw new RestoreRefused(`the backup is damaged: row ${index + 1} of ${where} is not a row`);
    }
    for (const column of Object.keys(row)) {
      if (!columns.has(column)) {
        throw new RestoreRefused(
          `the backup's rows of ${where} have a column ${named(column)} that the club's table has not`,
        );
      }
    }
  }
  return lines;
}

/**
 * Inserts one chunk of a backup's rows (gzipped JSON lines of `row_to_json`, see snapshot.ts) into its
 * table, which must be one of the club's (`schema`); `onConflict` (the table named `t`) for rows that may
 * meet one already there.
 */
export async function loadChunk(
  db: Database,
  schema: ClubSchema,
  chunk: Chunk,
  onConflict = '',
): Promise<void> {
  const lines = await checkedLines(chunk, clubTable(schema, chunk.table));
  const target = qualified(chunk.table);
  const columns = await insertableColumns(db, chunk.table);
  // Identity columns keep the backup's values too (OVERRIDING SYSTEM VALUE).
  try {
    await db.execute(
      sql`insert into ${sql.raw(`${target} as t (${columns})`)} overriding system value select ${sql.raw(columns)} from json_populate_recordset(null::${sql.raw(target)}, ${`[${lines.join(',')}]`}::json) ${sql.raw(onConflict)}`,
    );
  } catch (error) {
    throw new RestoreRefused(
      `the backup's rows of ${chunk.table} (part ${chunk.part}) do not fit the club's table (${databaseErrorWithoutValues(error)})`,
    );
  }
}
