import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { DataDirInUseError, lockDataDir } from '../db/data-dir-lock.js';
import { backupToFile } from './backup-file.js';
import { writeBackup } from './write-backup.js';

/*
 * With BACKUP_DIR set, the server writes a backup there once a day (the first a minute after it starts
 * when the newest is a day old or there is none) and keeps the newest BACKUP_KEEP. Instances that share
 * the folder take turns through a lock file in it; one that finds a backup less than a day old skips.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_DELAY_MS = 60 * 1000;
const NAME = /^enishi-(\d{8}T\d{6}Z)\.backup$/;

/** Rotated backups in `dir`, newest first. */
export async function rotatedBackups(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => NAME.test(name)).sort((a, b) => b.localeCompare(a));
}

function fileName(now: Date): string {
  return `enishi-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}.backup`;
}

/** Takes one rotated backup unless one younger than a day is there; removes those past `keep`. */
export async function takeRotatedBackup(
  config: Pick<Config, 'dataDir' | 'backup'>,
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  now = new Date(),
): Promise<string | null> {
  const dir = config.backup.dir;
  if (!dir) return null;
  await mkdir(dir, { recursive: true });
  let lock;
  try {
    lock = lockDataDir(path.join(dir, '.daily.lock'), `The backup folder ${dir}`);
  } catch (error) {
    if (error instanceof DataDirInUseError) return null; // another instance is taking it
    throw error;
  }
  try {
    const newest = (await rotatedBackups(dir))[0];
    if (newest && now.getTime() - (await stat(path.join(dir, newest))).mtimeMs < DAY_MS - FIRST_DELAY_MS) {
      return null;
    }
    const file = path.join(dir, fileName(now));
    await backupToFile(file, config.backup.passphrase, (out) =>
      writeBackup(database, path.join(config.dataDir, 'media'), out),
    );
    for (const old of (await rotatedBackups(dir)).slice(config.backup.keep)) {
      await rm(path.join(dir, old), { force: true });
    }
    return file;
  } finally {
    lock.release();
  }
}

/** Starts the daily backups; `stop` ends them (a backup under way finishes). */
export function startDailyBackups(
  config: Pick<Config, 'dataDir' | 'backup'>,
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  log: Logger,
): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    try {
      const file = await takeRotatedBackup(config, database);
      if (file) log.info({ file }, 'daily backup written');
    } catch (error) {
      log.error({ err: error }, 'daily backup failed');
    }
    timer = setTimeout(() => void run(), DAY_MS).unref();
  };
  timer = setTimeout(() => void run(), FIRST_DELAY_MS).unref();
  return { stop: () => clearTimeout(timer) };
}
