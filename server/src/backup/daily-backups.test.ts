import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { createPostgresDatabase, ENGINES, openTestDatabase } from '../test/database.js';
import { nextBackupAt, rotatedBackups, startDailyBackups, takeDailyBackup } from './daily-backups.js';

const folders: string[] = [];
const handles: DatabaseHandle[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const handle of handles) await handle.close();
  for (const drop of drops) await drop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

function backupConfig(dir: string, keep = 7): Pick<Config, 'dataDir' | 'backup'> {
  return {
    dataDir: tempDir('enishi-daily-data-'),
    backup: {
      dir,
      keep,
      recipients: [],
      plain: true,
      time: '03:30',
      timeZone: 'Asia/Tokyo',
      passphrase: undefined,
    },
  };
}

/** 03:30 in Tokyo on 2026-11-(20 + n) (18:30 UTC the day before), plus `minutes`. */
const tokyo = (n: number, minutes = 0) => new Date(Date.UTC(2026, 10, 19 + n, 18, 30 + minutes));

describe('the daily backup time', () => {
  it('is the next BACKUP_TIME on the clock of BACKUP_TIMEZONE', () => {
    // 02:00 in Tokyo: today's 03:30, an hour and a half later.
    expect(nextBackupAt(tokyo(1, -90), '03:30', 'Asia/Tokyo')).toEqual(tokyo(1));
    // At 03:30 or after: tomorrow's.
    expect(nextBackupAt(tokyo(1), '03:30', 'Asia/Tokyo')).toEqual(tokyo(2));
    expect(nextBackupAt(tokyo(1, 600), '03:30', 'Asia/Tokyo')).toEqual(tokyo(2));
    // Just before midnight UTC is the next morning in Tokyo.
    expect(nextBackupAt(new Date('2026-11-20T23:59:00Z'), '09:15', 'Asia/Tokyo')).toEqual(
      new Date('2026-11-21T00:15:00Z'),
    );
    // A zone with summer time: 03:30 in Berlin is 01:30 UTC in summer, 02:30 UTC in winter.
    expect(nextBackupAt(new Date('2026-07-01T12:00:00Z'), '03:30', 'Europe/Berlin')).toEqual(
      new Date('2026-07-02T01:30:00Z'),
    );
    expect(nextBackupAt(new Date('2026-10-24T12:00:00Z'), '03:30', 'Europe/Berlin')).toEqual(
      new Date('2026-10-25T02:30:00Z'),
    );
  });

  it('is when the server schedules its next backup, and it says so in the log', async () => {
    const database = await openTestDatabase();
    handles.push(database);
    const lines: { at?: string; msg: string }[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(JSON.parse(chunk.toString()) as { at?: string; msg: string });
          callback();
        },
      }),
    );
    const config = backupConfig(tempDir('enishi-daily-'));
    const before = new Date();
    const daily = startDailyBackups(config, database, log);
    daily.stop();
    const scheduled = lines.find((line) => line.msg === 'next daily backup');
    expect(scheduled?.at).toBe(nextBackupAt(before, '03:30', 'Asia/Tokyo').toISOString());
  });
});

describe('daily backups', () => {
  it('keeps the newest BACKUP_KEEP', async () => {
    const database = await openTestDatabase();
    handles.push(database);
    const dir = tempDir('enishi-daily-');
    const config = backupConfig(dir, 2);
    for (const n of [0, 1, 2, 3]) expect(await takeDailyBackup(config, database, tokyo(n))).not.toBeNull();
    expect(await rotatedBackups(dir)).toEqual([
      'enishi-20261122T183000Z.backup',
      'enishi-20261121T183000Z.backup',
    ]);
    expect(readdirSync(dir).filter((name) => !name.startsWith('.'))).toHaveLength(2);
  });

  it.skipIf(!ENGINES.includes('postgres'))(
    'is taken by one of two instances on one PostgreSQL database, once a day, whatever their folders',
    async () => {
      const created = await createPostgresDatabase();
      drops.push(() => created.drop());
      // Two instances: each its own connections to the one database.
      const first = await openDatabase({ databaseUrl: created.url });
      handles.push(first);
      await first.migrate();
      const second = await openDatabase({ databaseUrl: created.url });
      handles.push(second);
      const [one, two] = [backupConfig(tempDir('enishi-daily-a-')), backupConfig(tempDir('enishi-daily-b-'))];

      for (const day of [0, 1]) {
        // Both instances' timers fire at 03:30; a restart of either later that day finds the day taken.
        const taken = await Promise.all([
          takeDailyBackup(one, first, tokyo(day)),
          takeDailyBackup(two, second, tokyo(day)),
        ]);
        expect(taken.filter((file) => file !== null)).toHaveLength(1);
        expect(await takeDailyBackup(one, first, tokyo(day, 120))).toBeNull();
        expect(await takeDailyBackup(two, second, tokyo(day, 120))).toBeNull();
      }
      const files = [...(await rotatedBackups(one.backup.dir!)), ...(await rotatedBackups(two.backup.dir!))];
      expect(files.sort()).toEqual(['enishi-20261119T183000Z.backup', 'enishi-20261120T183000Z.backup']);
    },
    60_000,
  );
});
