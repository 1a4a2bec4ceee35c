import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, lt } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { appSecrets } from '../db/schema.js';
import { backupToFile } from './backup-file.js';
import { writeBackup } from './write-backup.js';

/*
 * With BACKUP_DIR set, the server writes a backup there once a day at BACKUP_TIME in BACKUP_TIMEZONE (03:30
 * in Tokyo unless set: the quiet hours) and keeps the newest BACKUP_KEEP. Of several instances on one
 * database, one takes each day's: the first to claim the day in the database (a row of app_secrets naming
 * the last day claimed, set only forward), so the others, wherever their folders are, skip it.
 */

const NAME = /^enishi-(\d{8}T\d{6}Z)\.backup$/;
/** The row naming the last local day whose backup an instance claimed. */
const CLAIM = 'daily-backup-day';

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

/** The wall clock in `timeZone` at `at`: its date and time, as numbers. */
function wallClock(at: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)!.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** The local date in `timeZone` at `at`, YYYY-MM-DD (sorts as the days do). */
export function localDay(at: Date, timeZone: string): string {
  const { year, month, day } = wallClock(at.getTime(), timeZone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** How far `timeZone`'s clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: number, timeZone: string): number {
  const clock = wallClock(at, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The first moment after `now` at which the clock in `timeZone` reads `time` (HH:MM). */
export function nextBackupAt(now: Date, time: string, timeZone: string): Date {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const today = wallClock(now.getTime(), timeZone);
  for (let days = 0; days < 3; days++) {
    const wall = Date.UTC(today.year, today.month - 1, today.day + days, hour, minute);
    // The offset of the moment itself (twice: a change of offset between the guess and the moment).
    let at = wall - offsetAt(wall, timeZone);
    at = wall - offsetAt(at, timeZone);
    if (at > now.getTime()) return new Date(at);
  }
  throw new Error(`no ${time} in ${timeZone} within three days`);
}

/** Claims `day`'s backup for this instance: true for the one instance whose claim moved the day forward. */
async function claimDay(database: Pick<DatabaseHandle, 'db'>, day: string) {
  const rows = await database.db
    .insert(appSecrets)
    .values({ name: CLAIM, value: day })
    .onConflictDoUpdate({
      target: appSecrets.name,
      set: { value: day },
      setWhere: lt(appSecrets.value, day),
    })
    .returning({ name: appSecrets.name });
  return rows.length > 0;
}

/** Gives the day back when its backup failed, so a retry may take it. */
async function unclaimDay(database: Pick<DatabaseHandle, 'db'>, day: string): Promise<void> {
  await database.db.delete(appSecrets).where(and(eq(appSecrets.name, CLAIM), eq(appSecrets.value, day)));
}

/**
 * Takes `now`'s day's backup unless another instance claimed it; removes those past `keep`. The file's
 * name is its UTC time.
 */
export async function takeDailyBackup(
  config: Pick<Config, 'dataDir' | 'backup'>,
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  now = new Date(),
): Promise<string | null> {
  const dir = config.backup.dir;
  if (!dir) return null;
  const day = localDay(now, config.backup.timeZone);
  if (!(await claimDay(database, day))) return null; // another instance took it (or this one, before)
  try {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, fileName(now));
    await backupToFile(file, config.backup.recipients, (out) =>
      writeBackup(database, path.join(config.dataDir, 'media'), out),
    );
    for (const old of (await rotatedBackups(dir)).slice(config.backup.keep)) {
      await rm(path.join(dir, old), { force: true });
    }
    return file;
  } catch (error) {
    await unclaimDay(database, day).catch(() => {});
    throw error;
  }
}

/** Starts the daily backups; `stop` ends them (a backup under way finishes). */
export function startDailyBackups(
  config: Pick<Config, 'dataDir' | 'backup'>,
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  log: Logger,
): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    const at = nextBackupAt(new Date(), config.backup.time, config.backup.timeZone);
    log.info({ at: at.toISOString() }, 'next daily backup');
    timer = setTimeout(() => void run(), at.getTime() - Date.now()).unref();
  };
  const run = async () => {
    try {
      const file = await takeDailyBackup(config, database);
      if (file) log.info({ file }, 'daily backup written');
      else log.info('daily backup taken by another instance');
    } catch (error) {
      log.error({ err: error }, 'daily backup failed');
    }
    schedule();
  };
  schedule();
  return { stop: () => clearTimeout(timer) };
}
