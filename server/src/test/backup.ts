import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { countRows, listTables } from '../backup/snapshot.js';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';

/** Rows per table of the database that DATA_DIR / DATABASE_URL name, as a restore must give them back. */
export async function rowCounts(env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  const database = await openConfiguredDatabase(loadConfig(env));
  try {
    return await countRows(database.db, await listTables(database.db));
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
