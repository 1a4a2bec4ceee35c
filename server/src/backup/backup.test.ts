import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { MessageBatchRepository } from '../repositories/message-batch-repository.js';
import { backupFromArgs } from '../scripts/backup.js';
import { restoreFromArgs } from '../scripts/restore.js';
import { pictureHashes, rowCounts, sequenceValues } from '../test/backup.js';
import { backupPlaces } from '../test/backup-places.js';
import { DEFAULT_ENGINE, ENGINES } from '../test/database.js';
import { newMessage } from '../test/talk.js';
import { backupToFile } from './backup-file.js';
import { writeBackup } from './write-backup.js';

const { tempDir, newTarget, demoClub, ageKey } = backupPlaces();

describe.each(ENGINES)('backup and restore on %s', (engine) => {
  it('restores every row and every picture of a club into an empty one, and refuses one with data', async () => {
    const original = await demoClub(engine);
    const file = path.join(tempDir('enishi-backup-file-'), 'club.backup');
    const key = await ageKey();

    // Encrypted unless asked otherwise: with no recipients, no backup.
    await expect(backupFromArgs([file], original)).rejects.toThrow(/no BACKUP_RECIPIENTS.*--plain/);
    const backup = await backupFromArgs([file], { ...original, BACKUP_RECIPIENTS: key.recipient });
    expect(backup.encrypted).toBe(true);
    expect(backup.pictures).toBeGreaterThan(0);
    expect(backup.missingPictures).toEqual([]);

    const copy = await newTarget(engine);
    const restored = await restoreFromArgs(['--identity', key.identityFile, file], copy);
    expect(restored.upgradedWith).toEqual([]);

    const counts = await rowCounts(original);
    expect(counts['public.users']).toBe(13);
    expect(counts['public.messages']).toBeGreaterThan(10);
    expect(await rowCounts(copy)).toEqual(counts);
    expect(await sequenceValues(copy)).toEqual(await sequenceValues(original));
    expect(pictureHashes(copy)).toEqual(pictureHashes(original));
    expect(Object.keys(pictureHashes(copy))).toHaveLength(backup.pictures);

    // Restoring again, into the restored club or the original, is refused, naming the tables with rows.
    const again = ['--identity', key.identityFile, file];
    await expect(restoreFromArgs(again, copy)).rejects.toThrow(/database is not empty: .*users 13/);
    await expect(restoreFromArgs(again, original)).rejects.toThrow(/not empty/);
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
      taken = await backupToFile(file, [], (out) => writeBackup(database, mediaDir, out, { beforeTail }));
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
      const taken = await backupToFile(file, [], (out) => writeBackup(database, mediaDir, out));
      expect(taken.pictures.pictures.map((picture) => picture.path)).toContain('big/3.jpg');
    } finally {
      await database.close();
    }
  }, 300_000);
});
