import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { qualified } from './snapshot.js';

const gunzip = promisify(gunzipCallback);

/** The columns a row is inserted with: all but generated ones, which the database computes again. */
async function insertableColumns(db: Database, table: string): Promise<string> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`select attname as name from pg_attribute
      where attrelid = ${qualified(table)}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`),
  );
  return rows.map((row) => `"${row.name.replaceAll('"', '""')}"`).join(', ');
}

/**
 * Inserts one chunk of a backup's rows (gzipped JSON lines of `row_to_json`, see snapshot.ts) into
 * `table`; `onConflict` (the table named `t`) for rows that may meet one already there.
 */
export async function loadChunk(db: Database, table: string, chunk: Buffer, onConflict = ''): Promise<void> {
  const lines = (await gunzip(chunk)).toString('utf8');
  const target = qualified(table);
  const columns = await insertableColumns(db, table);
  // Identity columns keep the backup's values too (OVERRIDING SYSTEM VALUE).
  await db.execute(
    sql`insert into ${sql.raw(`${target} as t (${columns})`)} overriding system value select ${sql.raw(columns)} from json_populate_recordset(null::${sql.raw(target)}, ${`[${lines.split('\n').join(',')}]`}::json) ${sql.raw(onConflict)}`,
  );
}
