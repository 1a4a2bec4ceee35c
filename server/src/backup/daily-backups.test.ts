import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { openTestDatabase } from '../test/database.js';
import { rotatedBackups, takeRotatedBackup } from './daily-backups.js';

const HOUR = 60 * 60 * 1000;

describe('daily backups', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'enishi-daily-'));
  const dir = path.join(dataDir, 'backups');
  let database: DatabaseHandle | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one a day into BACKUP_DIR and keeps the newest BACKUP_KEEP', async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`insert into app_secrets (name, value) values ('probe', 'x')`);
    const config = { dataDir, backup: { dir, keep: 2, passphrase: undefined } };
    const day = (n: number) => new Date(Date.UTC(2026, 10, 20 + n, 3, 0, 0));

    expect(await takeRotatedBackup(config, database, day(0))).toBe(
      path.join(dir, 'enishi-20261120T030000Z.backup'),
    );
    // Another instance (or a restart) an hour later finds today's and leaves it.
    expect(await takeRotatedBackup(config, database, new Date(day(0).getTime() + HOUR))).toBeNull();
    for (const n of [1, 2, 3]) {
      // The files' age is what counts: each is dated as if written that day.
      for (const name of await rotatedBackups(dir)) {
        await utimes(path.join(dir, name), day(n - 1), day(n - 1));
      }
      expect(await takeRotatedBackup(config, database, day(n))).not.toBeNull();
    }
    expect(await rotatedBackups(dir)).toEqual([
      'enishi-20261123T030000Z.backup',
      'enishi-20261122T030000Z.backup',
    ]);
    expect(readdirSync(dir).filter((name) => !name.startsWith('.'))).toHaveLength(2);
  });
});
