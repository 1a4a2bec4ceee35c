/*
 * Writes one backup file of the database and every stored picture (DATA_DIR/media), consistent, while the
 * server serves: with the embedded database through the running server (its control socket in DATA_DIR),
 * with DATABASE_URL from one snapshot of PostgreSQL; then the messages committed since, up to its end
 * (decision 022). Encrypted to the age public keys of BACKUP_RECIPIENTS (decision 032); with none it
 * refuses unless given --plain. Prints a summary as JSON. Runs from the built files, as the service's user
 * with the service's environment file (docs/operations.md, "Backups"):
 *
 *   node --env-file=/etc/enishi/enishi.env server/dist/scripts/backup.js [--plain] FILE
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { backupConfigured, backupToFile } from '../backup/backup-file.js';
import type { BackupSummary } from '../backup/write-backup.js';
import { loadConfig } from '../config.js';

const USAGE =
  'usage: backup [--plain] FILE   (DATA_DIR / DATABASE_URL as for the server; encrypted to BACKUP_RECIPIENTS)';
const NO_RECIPIENTS =
  'no BACKUP_RECIPIENTS: a backup holds every password hash and key of the club, so it is encrypted to ' +
  'age public keys (age-keygen; docs/operations.md, "Backups"). Set BACKUP_RECIPIENTS, or give --plain to ' +
  'write it unencrypted';

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
  const args = argsOf(argv);
  const config = loadConfig(env);
  const recipients = args.plain ? [] : config.backup.recipients;
  if (recipients.length === 0 && !args.plain) throw new UsageError(NO_RECIPIENTS);
  const target = path.resolve(env.INIT_CWD ?? process.cwd(), args.file);
  const encrypted = recipients.length > 0;
  const summary = await backupToFile(
    target,
    recipients,
    (out) => backupConfigured(config, out),
    (written) => report(resultOf(target, written, encrypted)),
  );
  return resultOf(target, summary, encrypted);
}

function argsOf(argv: string[]): { file: string; plain: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { plain: { type: 'boolean' } }, allowPositionals: true });
  } catch {
    throw new UsageError(USAGE);
  }
  const [file, ...rest] = parsed.positionals;
  if (!file || rest.length > 0) throw new UsageError(USAGE);
  return { file, plain: parsed.values.plain ?? false };
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
