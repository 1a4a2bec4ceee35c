/*
 * Writes one backup file of the database and every stored picture (DATA_DIR/media), consistent, while the
 * server serves: with the embedded database through the running server (its control socket in DATA_DIR),
 * with DATABASE_URL from one snapshot of PostgreSQL; then the messages committed since, up to its end
 * (decision 022). Encrypted when BACKUP_PASSPHRASE is set. Prints a summary as JSON.
 *
 *   npm run backup -- FILE
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { backupConfigured, backupToFile } from '../backup/backup-file.js';
import type { BackupSummary } from '../backup/write-backup.js';
import { loadConfig } from '../config.js';

const USAGE = 'usage: backup FILE   (DATA_DIR / DATABASE_URL as for the server; BACKUP_PASSPHRASE encrypts)';

/** Bad arguments: the message is for the person at the terminal. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Takes the backup; `report` hears of it once the file is whole, before message writes go on again, so a
 * message acknowledged before the report is in the file.
 */
export async function backupFromArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
  report: (result: BackupResult) => void = () => {},
) {
  const [file, ...rest] = argv;
  if (!file || rest.length > 0 || file.startsWith('-')) throw new UsageError(USAGE);
  const config = loadConfig(env);
  const target = path.resolve(env.INIT_CWD ?? process.cwd(), file);
  const summary = await backupToFile(
    target,
    config.backup.passphrase,
    (out) => backupConfigured(config, out),
    (written) => report(resultOf(target, written, config.backup.passphrase !== undefined)),
  );
  return resultOf(target, summary, config.backup.passphrase !== undefined);
}

type BackupResult = ReturnType<typeof resultOf>;

function resultOf(file: string, summary: BackupSummary, encrypted: boolean) {
  const { manifest, tail, pictures } = summary;
  return {
    file,
    snapshotAt: manifest.snapshotAt,
    // Messages committed after the snapshot, read at tailAt (every message acknowledged before the backup
    // returned); those of talks or members newer than the snapshot are left for the next backup.
    tailAt: tail.takenAt,
    tailMessages: tail.tables['public.messages'] ?? 0,
    leftOut: tail.leftOut,
    migration: manifest.migration.tag,
    rows: [...Object.values(manifest.tables), ...Object.values(tail.tables)].reduce(
      (sum, rows) => sum + rows,
      0,
    ),
    tables: manifest.tables,
    pictures: pictures.pictures.length,
    missingPictures: pictures.missing,
    encrypted,
  };
}

const runDirectly = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  backupFromArgs(process.argv.slice(2), process.env, (result) => console.log(JSON.stringify(result))).then(
    (result) => {
      if (result.missingPictures.length > 0) {
        console.error(
          `warning: ${result.missingPictures.length} pictures the rows name were not in DATA_DIR/media`,
        );
      }
      // The embedded database's worker (when this process opened it) is gone; nothing else keeps it alive.
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? `backup failed: ${error.message}` : error);
      process.exit(1);
    },
  );
}
