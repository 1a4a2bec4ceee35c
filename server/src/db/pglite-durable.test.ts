import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { newDataDir } from '../test/template-database.js';
import { openDatabase } from './client.js';
import { openDurablePglite } from './pglite-durable.js';

describe('the embedded database on disk', () => {
  const folders: string[] = [];
  const newFolder = async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'enishi-durable-'));
    folders.push(folder);
    return folder;
  };
  /** A data directory as initdb leaves it: a copy of the run's empty one (test/template-database.ts). */
  const newDatabaseFolder = () => {
    const dataDir = newDataDir('enishi-durable-');
    folders.push(dataDir);
    return path.join(dataDir, 'db');
  };
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it('syncs a commit’s WAL to disk before the commit returns', async () => {
    const synced: string[] = [];
    const pg = await openDurablePglite(newDatabaseFolder(), (file) => synced.push(file));
    try {
      expect((await pg.query<{ fsync: string }>('SHOW fsync')).rows[0]?.fsync).toBe('on');
      await pg.exec('CREATE TABLE note (body text)');
      synced.length = 0;
      await pg.query('INSERT INTO note VALUES ($1)', ['acknowledged']);
      expect(synced.some((file) => file.includes('/pg_wal/'))).toBe(true);
    } finally {
      await pg.close();
    }
  });

  it('has an acknowledged row in a copy of DATA_DIR taken at once, as a crash would leave it', async () => {
    const folder = newDatabaseFolder();
    const database = await openDatabase({ pgliteDir: folder, pgliteWorker: true });
    const copy = await newFolder();
    try {
      await database.db.execute(sql`CREATE TABLE note (body text)`);
      await database.db.execute(sql`INSERT INTO note VALUES ('acknowledged')`);
      await cp(folder, copy, { recursive: true });
    } finally {
      await database.close();
    }
    const reopened = new PGlite(copy);
    try {
      const rows = await reopened.query<{ body: string }>('SELECT body FROM note');
      expect(rows.rows).toEqual([{ body: 'acknowledged' }]);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
