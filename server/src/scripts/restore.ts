/*
 * Restores a backup file (npm run backup) into an EMPTY DATA_DIR or database (DATABASE_URL): it refuses
 * one with any rows or pictures, naming what it found. The backup's rows go in under the schema they were
 * taken with, then the current migrations run, so a backup of an older version restores and upgrades. Only
 * the club's own tables are written (anything else is refused, naming it). An encrypted backup needs the
 * age identity file (--identity, the key whose public key was in BACKUP_RECIPIENTS); one of an earlier
 * version encrypted with a passphrase needs BACKUP_PASSPHRASE. Run it while the server is stopped.
 *
 *   node --env-file=… server/dist/scripts/restore.js [--identity KEYFILE] FILE
 */
import { existsSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readIdentities } from '../backup/age-file.js';
import { readBackupFile } from '../backup/backup-file.js';
import { restoreBackup } from '../backup/read-backup.js';
import { messageWithoutValues, RestoreRefused } from '../backup/refused.js';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';

const USAGE =
  "usage: restore [--identity KEYFILE] FILE   (into the empty DATA_DIR / DATABASE_URL; KEYFILE: age-keygen's)";

function argsOf(argv: string[]): { file: string; identities: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { identity: { type: 'string', multiple: true } },
      allowPositionals: true,
    });
  } catch {
    throw new RestoreRefused(USAGE);
  }
  const [file, ...rest] = parsed.positionals;
  if (!file || rest.length > 0) throw new RestoreRefused(USAGE);
  return { file, identities: parsed.values.identity ?? [] };
}

export async function restoreFromArgs(argv: string[], env: NodeJS.ProcessEnv) {
  const args = argsOf(argv);
  const config = loadConfig(env);
  const cwd = env.INIT_CWD ?? process.cwd();
  const identities: string[] = [];
  for (const file of args.identities) identities.push(...(await readIdentities(path.resolve(cwd, file))));
  const input = await readBackupFile(path.resolve(cwd, args.file), {
    identities,
    passphrase: config.backup.passphrase,
  });
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
      // Never a row's values: a database statement's message may carry the rows it wrote.
      console.error(`restore refused: ${messageWithoutValues(error)}`);
      process.exit(1);
    },
  );
}
