import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { countRows, listTables } from '../backup/snapshot.js';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { rowsOf } from '../db/raw.js';

/** Rows per table of the database that DATA_DIR / DATABASE_URL name, as a restore must give them back. */
export async function rowCounts(env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  const database = await openConfiguredDatabase(loadConfig(env));
  try {
    return await countRows(database.db, await listTables(database.db));
  } finally {
    await database.close();
  }
}

/** Each sequence's last value: a restored club's ids go on where the original's would. */
export async function sequenceValues(env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const database = await openConfiguredDatabase(loadConfig(env));
  try {
    const rows = rowsOf<{ name: string; last_value: string | null }>(
      await database.db.execute(
        sql`select schemaname || '.' || sequencename as name, last_value::text from pg_sequences order by 1`,
      ),
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.last_value ?? '']));
  } finally {
    await database.close();
  }
}

/** Every stored picture's SHA-256, by its path under DATA_DIR/media. */
export function pictureHashes(env: NodeJS.ProcessEnv): Record<string, string> {
  const media = path.join(env.DATA_DIR!, 'media');
  const hashes: Record<string, string> = {};
  for (const name of readdirSync(media, { recursive: true }) as string[]) {
    const file = path.join(media, name);
    if (statSync(file).isFile()) hashes[name] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return hashes;
}

/** Every text a backup file holds, its rows unpacked: what a thief of an unencrypted file would read. */
export async function contentsOf(file: string): Promise<string> {
  const extract = tarExtract();
  createReadStream(file).pipe(extract);
  const texts: string[] = [];
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const part of entry) parts.push(part as Buffer);
    const data = Buffer.concat(parts);
    texts.push(entry.header.name.endsWith('.gz') ? gunzipSync(data).toString() : data.toString('latin1'));
  }
  return texts.join('\n');
}
