import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { MessageBatchRepository } from '../repositories/message-batch-repository.js';
import { backupFromArgs } from '../scripts/backup.js';
import { runDemo } from '../scripts/demo.js';
import { restoreFromArgs } from '../scripts/restore.js';
import { pictureHashes, rowCounts, sequenceValues } from '../test/backup.js';
import { createPostgresDatabase, DEFAULT_ENGINE, ENGINES, type Engine } from '../test/database.js';
import { newMessage } from '../test/talk.js';
import { backupToFile } from './backup-file.js';
import { writeBackup } from './write-backup.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A place to keep a club: a DATA_DIR, and on PostgreSQL a database of its own. */
async function newTarget(engine: Engine): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { DATA_DIR: tempDir('enishi-backup-data-'), LOG_LEVEL: 'silent' };
  if (engine === 'postgres') {
    const created = await createPostgresDatabase();
    cleanups.push(() => created.drop());
    env.DATABASE_URL = created.url;
  }
  return env;
}

const demoClubs = new Map<Engine, Promise<NodeJS.ProcessEnv>>();

/**
 * A demo club of its own for one test: a copy of the file's demo club of `engine` (its DATA_DIR, and on
 * PostgreSQL its database), which is made once, as `runDemo` hashes a password per person and draws pictures.
 */
async function demoClub(engine: Engine): Promise<NodeJS.ProcessEnv> {
  let made = demoClubs.get(engine);
  if (!made) {
    made = newTarget(engine).then(async (env) => {
      await runDemo(env);
      return env;
    });
    demoClubs.set(engine, made);
  }
  const demo = await made;
  const env: NodeJS.ProcessEnv = { DATA_DIR: tempDir('enishi-backup-data-'), LOG_LEVEL: 'silent' };
  cpSync(demo.DATA_DIR!, env.DATA_DIR!, { recursive: true });
  if (engine === 'postgres') {
    const created = await createPostgresDatabase(demo.DATABASE_URL);
    cleanups.push(() => created.drop());
    env.DATABASE_URL = created.url;
  }
  return env;
}

describe.each(ENGINES)('backup and restore on %s', (engine) => {
  it('restores every row and every picture of a club into an empty one, and refuses one with data', async () => {
    const original = await demoClub(engine);
    const file = path.join(tempDir('enishi-backup-file-'), 'club.backup');

    const backup = await backupFromArgs([file], original);
    expect(backup.pictures).toBeGreaterThan(0);
    expect(backup.missingPictures).toEqual([]);

    const copy = await newTarget(engine);
    const restored = await restoreFromArgs([file], copy);
    expect(restored.upgradedWith).toEqual([]);

    const counts = await rowCounts(original);
    expect(counts['public.users']).toBe(13);
    expect(counts['public.messages']).toBeGreaterThan(10);
    expect(await rowCounts(copy)).toEqual(counts);
    expect(await sequenceValues(copy)).toEqual(await sequenceValues(original));
    expect(pictureHashes(copy)).toEqual(pictureHashes(original));
    expect(Object.keys(pictureHashes(copy))).toHaveLength(backup.pictures);

    // Restoring again, into the restored club or the original, is refused, naming the tables with rows.
    await expect(restoreFromArgs([file], copy)).rejects.toThrow(/database is not empty: .*users 13/);
    await expect(restoreFromArgs([file], original)).rejects.toThrow(/not empty/);
  }, 300_000);
});

describe.each(ENGINES)('a message stored while the backup runs, on %s', (engine) => {
  it('is in the backup: after the snapshot and the pictures, before the backup ends, with its picture', async () => {
    const original = await demoClub(engine);
    const file = path.join(tempDir('enishi-backup-file-'), 'club.backup');
    const mediaDir = path.join(original.DATA_DIR!, 'media');
    const database = await openConfiguredDatabase(loadConfig(original));
    let taken;
    try {
      const [desk] = rowsOf<{ id: number; member_id: number }>(
        await database.db.execute(sql`select id, member_id from conversations where kind = 'desk' limit 1`),
      );
      // Stored once the snapshot is read and the pictures are copied: only the tail can take it.
      const beforeTail = async () => {
        const picture = Buffer.from('a picture stored after the copy');
        mkdirSync(path.join(mediaDir, 'tail'), { recursive: true });
        writeFileSync(path.join(mediaDir, 'tail', 'late.jpg'), picture);
        const image = { id: 'late', path: 'tail/late.jpg', mime: 'image/jpeg', width: 1, height: 1 };
        const [stored] = await new MessageBatchRepository(database.db, database.ordered).insertBatch([
          newMessage(desk!.id, desk!.member_id, {
            body: 'バックアップ中の発言',
            images: [{ ...image, bytes: picture.length }],
          }),
        ]);
        expect(stored!.created).toBe(true);
      };
      taken = await backupToFile(file, undefined, (out) =>
        writeBackup(database, mediaDir, out, { beforeTail }),
      );
    } finally {
      await database.close();
    }
    expect(taken.tail.tables['public.messages']).toBe(1);
    expect(taken.tail.tables['public.media']).toBe(1);
    expect(taken.manifest.tables['public.messages']! + 1).toBe(
      (await rowCounts(original))['public.messages'],
    );

    const copy = await newTarget(engine);
    await restoreFromArgs([file], copy);
    expect(await rowCounts(copy)).toEqual(await rowCounts(original));
    expect(await sequenceValues(copy)).toEqual(await sequenceValues(original));
    expect(pictureHashes(copy)).toEqual(pictureHashes(original));
    expect(pictureHashes(copy)['tail/late.jpg']).toBeDefined();
    const restored = await openConfiguredDatabase(loadConfig(copy));
    try {
      const rows = rowsOf<{ images: string[] }>(
        await restored.db.execute(sql`select images from messages where body = 'バックアップ中の発言'`),
      );
      expect(rows.map((row) => row.images)).toEqual([['late']]);
    } finally {
      await restored.close();
    }
  }, 300_000);
});

describe(`a backup whose reader goes away, on ${DEFAULT_ENGINE}`, () => {
  it('stops with an error instead of waiting for it, and holds neither message writes nor the next backup', async () => {
    const original = await demoClub(DEFAULT_ENGINE);
    const mediaDir = path.join(original.DATA_DIR!, 'media');
    // Enough pictures that the file is still being written when its reader is gone.
    mkdirSync(path.join(mediaDir, 'big'), { recursive: true });
    for (let n = 0; n < 4; n++)
      writeFileSync(path.join(mediaDir, 'big', `${n}.jpg`), Buffer.alloc(2_000_000, n));
    const database = await openConfiguredDatabase(loadConfig(original));
    try {
      let chunks = 0;
      // A caller that takes a few chunks and then hangs up (its socket closes under the server).
      const reader = new Writable({
        highWaterMark: 1024,
        write(_chunk, _encoding, callback) {
          if (++chunks < 4) setImmediate(callback);
          else callback(new Error('the caller hung up'));
        },
      });
      await expect(writeBackup(database, mediaDir, reader)).rejects.toThrow(/hung up/);

      // Message writes go on, and the next backup is taken whole.
      const [desk] = rowsOf<{ id: number; member_id: number }>(
        await database.db.execute(sql`select id, member_id from conversations where kind = 'desk' limit 1`),
      );
      const [stored] = await new MessageBatchRepository(database.db, database.ordered).insertBatch([
        newMessage(desk!.id, desk!.member_id, { body: '中断のあとの発言' }),
      ]);
      expect(stored!.created).toBe(true);
      const file = path.join(tempDir('enishi-backup-file-'), 'club.backup');
      const taken = await backupToFile(file, undefined, (out) => writeBackup(database, mediaDir, out));
      expect(taken.pictures.pictures.map((picture) => picture.path)).toContain('big/3.jpg');
    } finally {
      await database.close();
    }
  }, 300_000);
});

describe(`an encrypted backup on ${DEFAULT_ENGINE}`, () => {
  it('restores with its passphrase only, and a file cut short is refused', async () => {
    const original = await demoClub(DEFAULT_ENGINE);
    const dir = tempDir('enishi-backup-file-');
    const file = path.join(dir, 'club.backup');
    const passphrase = 'correct horse battery';
    await backupFromArgs([file], { ...original, BACKUP_PASSPHRASE: passphrase });
    expect(readFileSync(file).includes(Buffer.from('manifest.json'))).toBe(false);

    const copy = await newTarget(DEFAULT_ENGINE);
    await expect(restoreFromArgs([file], copy)).rejects.toThrow(/encrypted: set BACKUP_PASSPHRASE/);
    await expect(
      restoreFromArgs([file], { ...copy, BACKUP_PASSPHRASE: 'wrong horse battery' }),
    ).rejects.toThrow(/wrong passphrase/);
    const cut = path.join(dir, 'cut.backup');
    const whole = readFileSync(file);
    writeFileSync(cut, whole.subarray(0, whole.length - 100));
    await expect(restoreFromArgs([cut], { ...copy, BACKUP_PASSPHRASE: passphrase })).rejects.toThrow(
      /cut short/,
    );

    await restoreFromArgs([file], { ...copy, BACKUP_PASSPHRASE: passphrase });
    expect(await rowCounts(copy)).toEqual(await rowCounts(original));
    expect(pictureHashes(copy)).toEqual(pictureHashes(original));
  }, 300_000);
});
