/*
 * Restores a backup file (npm run backup) into an EMPTY DATA_DIR or database (DATABASE_URL): it refuses
 * one with any rows or pictures, naming what it found. The backup's rows go in under the schema they were
 * taken with, then the current migrations run, so a backup of an older version restores and upgrades.
 * An encrypted backup needs BACKUP_PASSPHRASE. Run it while the server is stopped. Prints a summary.
 *
 *   npm run restore -- FILE
 */
import { existsSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBackupFile } from '../backup/backup-file.js';
import { restoreBackup } from '../backup/read-backup.js';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';

const USAGE =
  'usage: restore FILE   (into the empty DATA_DIR / DATABASE_URL; BACKUP_PASSPHRASE if encrypted)';

export async function restoreFromArgs(argv: string[], env: NodeJS.ProcessEnv) {
  const [file, ...rest] = argv;
  if (!file || rest.length > 0 || file.startsWith('-')) throw new Error(USAGE);
  const config = loadConfig(env);
  const input = await readBackupFile(
    path.resolve(env.INIT_CWD ?? process.cwd(), file),
    config.backup.passphrase,
  );
  const dbDir = path.join(config.dataDir, 'db');
  const newDataDir = !config.databaseUrl && !existsSync(dbDir);
  const database = await openConfiguredDatabase(config);
  let restored;
  try {
    restored = await restoreBackup(input, database, path.join(config.dataDir, 'media'));
  } catch (error) {
    await database.close();
    // An embedded database this restore created goes with it, so the next attempt starts afresh.
    if (newDataDir) await rm(dbDir, { recursive: true, force: true });
    throw error;
  }
  await database.close();
  return {
    restoredInto: config.databaseUrl ? 'DATABASE_URL' : config.dataDir,
    backupOf: restored.manifest.createdAt,
    migration: restored.manifest.migration.tag,
    upgradedWith: restored.upgraded,
    rows: Object.values(restored.tables).reduce((sum, rows) => sum + rows, 0),
    tables: restored.tables,
    pictures: restored.pictures,
  };
}

const runDirectly = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  restoreFromArgs(process.argv.slice(2), process.env).then(
    (result) => {
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? `restore refused: ${error.message}` : error);
      process.exit(1);
    },
  );
}
