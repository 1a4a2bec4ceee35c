import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { gzipSync } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, type DatabaseHandle } from '../db/client.js';
import { readMigrations } from '../db/migrations.js';
import { rowsOf } from '../db/raw.js';
import { DEFAULT_ENGINE, openEmptyDatabase } from '../test/database.js';
import { restoreBackup, rowsFound } from './read-backup.js';
import { RestoreRefused } from './refused.js';
import { addEntry, BACKUP_FORMAT, BACKUP_VERSION, type Manifest } from './write-backup.js';

/*
 * What a restore checks before and while it writes (read-backup.ts), one small archive each, made here entry by
 * entry: the manifest, an empty target, the names it may write, the counts, the pictures and their folder.
 * One database for the file (backup.test.ts and hostile-backup.test.ts restore whole clubs); every restore
 * here ends with the target empty again, its migrations at the newest.
 */

const migrations = readMigrations(MIGRATIONS_FOLDER);
const newest = migrations.at(-1)!;
let database: DatabaseHandle;
let root: string;
let media: string;
/** The migrations' record as a backup holds it (a database with only that has no rows: it is empty). */
let migrationRows: Buffer;

beforeAll(async () => {
  database = await openEmptyDatabase(DEFAULT_ENGINE);
  await database.migrate();
  const rows = rowsOf<{ row: string }>(
    await database.db.execute(
      sql`select row_to_json(m)::text as row from drizzle.__drizzle_migrations m order by id`,
    ),
  );
  migrationRows = gzipSync(rows.map(({ row }) => row).join('\n'));
  root = mkdtempSync(path.join(tmpdir(), 'enishi-restore-checks-'));
  media = path.join(root, 'media');
}, 60_000);
afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function manifest(patch: Partial<Manifest> = {}): Manifest {
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    app: { version: 'test', commit: null },
    createdAt: '2026-11-29T00:00:00.000Z',
    snapshotAt: '2026-11-29T00:00:00.000Z',
    engine: DEFAULT_ENGINE,
    migration: { when: newest.when, tag: newest.tag },
    tables: {},
    sequences: {},
    ...patch,
  };
}

const PICTURE = Buffer.from('a picture');
const pictures = (...list: { path: string; sha256: string }[]) =>
  json({ pictures: list.map((each) => ({ ...each, bytes: 9 })), missing: [] });

/** An archive of these entries, as a restore reads it (a Node stream, as a file or age gives it). */
function archive(entries: [string, Buffer][]): Readable {
  const pack = tarPack();
  void (async () => {
    for (const [name, data] of entries) await addEntry(pack, name, data);
    pack.finalize();
  })();
  return pack.pipe(new PassThrough());
}

/** A whole backup of an empty club with one picture; `patch` edits its manifest. */
const emptyClub = (patch: Partial<Manifest> = {}): [string, Buffer][] => [
  ['manifest.json', json(manifest(patch))],
  ['db/drizzle.__drizzle_migrations/000000.jsonl.gz', migrationRows],
  ['media/a/b.jpg', PICTURE],
  ['pictures.json', pictures({ path: 'a/b.jpg', sha256: sha256(PICTURE) })],
];

const restore = (entries: [string, Buffer][]) => restoreBackup(archive(entries), database, media);

/** The refusal's message; the target is empty again after it. */
async function refusal(entries: [string, Buffer][] | Readable): Promise<string> {
  const error = await (
    Array.isArray(entries) ? restore(entries) : restoreBackup(entries, database, media)
  ).then(
    () => new Error('the restore was not refused'),
    (caught: unknown) => caught as Error,
  );
  expect(error).toBeInstanceOf(RestoreRefused);
  expect(await rowsFound(database.db)).toEqual({});
  expect(existsSync(path.join(media, 'a/b.jpg'))).toBe(false);
  return error.message;
}

describe('a restore refuses a file that is not a backup it reads', () => {
  it('without a manifest first', async () => {
    expect(await refusal([])).toBe('not an Enishi backup (no manifest)');
    expect(await refusal([['pictures.json', pictures()]])).toBe('not an Enishi backup (no manifest)');
  });

  it('with a manifest that is not JSON', async () => {
    expect(await refusal([['manifest.json', Buffer.from('{ "format": ')]])).toBe(
      'the backup is damaged: "manifest.json" is not JSON',
    );
  });

  it('of another format or version', async () => {
    const unread = 'not an Enishi backup of a format this version reads';
    expect(await refusal([['manifest.json', json({ ...manifest(), format: 'other' })]])).toBe(unread);
    expect(await refusal(emptyClub({ version: BACKUP_VERSION + 1 }))).toBe(unread);
    expect(await refusal(emptyClub({ version: 0 }))).toBe(unread);
  });

  it('taken by a newer version, naming its migration', async () => {
    expect(await refusal(emptyClub({ migration: { when: newest.when + 1, tag: '9999_next' } }))).toBe(
      'the backup was taken by a newer version (migration 9999_next): restore it with that version or later',
    );
    expect(await refusal(emptyClub({ migration: { when: newest.when + 1, tag: null } }))).toContain(
      `(migration ${newest.when + 1})`,
    );
  });

  it('cut short', async () => {
    const input = new PassThrough();
    const restoring = refusal(input);
    input.write(Buffer.alloc(100, 1));
    input.destroy(new Error('cut'));
    expect(await restoring).toMatch(/^the backup file is damaged or cut short \(/);
  });
});

describe('a restore of a well-formed backup', () => {
  it('fills an empty club with its pictures, in version 1 and 2', async () => {
    for (const version of [1, 2]) {
      const summary = await restore(emptyClub({ version }));
      expect(summary).toMatchObject({ tables: {}, pictures: 1, upgraded: [] });
      expect(summary.manifest.version).toBe(version);
      expect(readFileSync(path.join(media, 'a/b.jpg'))).toEqual(PICTURE);
      rmSync(media, { recursive: true, force: true });
    }
  });

  it('reads to the end of the file after the picture list', async () => {
    const summary = await restore([...emptyClub(), ['after.txt', Buffer.from('x')]]);
    expect(summary.pictures).toBe(1);
    rmSync(media, { recursive: true, force: true });
  });
});

describe('a restore refuses, and takes back what it wrote', () => {
  it('into a database with rows, naming the tables', async () => {
    await database.db.execute(sql`insert into app_secrets (name, value) values ('test', 'x')`);
    try {
      await expect(restore(emptyClub())).rejects.toThrow(
        new RestoreRefused(
          'the database is not empty: 1 tables have rows (app_secrets 1). A restore only fills an empty DATA_DIR or database.',
        ),
      );
      expect(await rowsFound(database.db)).toEqual({ 'public.app_secrets': 1 });
    } finally {
      await database.db.execute(sql`delete from app_secrets where name = 'test'`);
    }
  });

  it('into a media folder with files', async () => {
    mkdirSync(path.join(media, 'x'), { recursive: true });
    writeFileSync(path.join(media, 'x', 'y.jpg'), 'y');
    try {
      expect(await refusal(emptyClub())).toBe(
        `${media} is not empty (2 files and folders). A restore only fills an empty DATA_DIR.`,
      );
    } finally {
      rmSync(media, { recursive: true, force: true });
    }
  });

  it('counting or setting what is not the club’s', async () => {
    expect(await refusal(emptyClub({ tables: { 'public.evil': 1 } }))).toContain(
      `the backup's manifest counts rows of "public.evil", which is not one of the club's tables`,
    );
    expect(await refusal(emptyClub({ sequences: { 'public.evil_seq': 1 } }))).toBe(
      `the backup's manifest sets the sequence "public.evil_seq", which is not one of the club's`,
    );
  });

  it('with fewer rows than its manifest counts', async () => {
    expect(await refusal(emptyClub({ tables: { 'public.users': 2 } }))).toBe(
      'the backup is damaged: public.users has 0 rows, not 2',
    );
  });

  it('without a picture list, or with a picture missing or altered', async () => {
    expect(await refusal(emptyClub().slice(0, 3))).toBe('the backup is incomplete (no picture list)');
    const altered = pictures({ path: 'a/b.jpg', sha256: sha256(Buffer.from('another')) });
    expect(await refusal([...emptyClub().slice(0, 3), ['pictures.json', altered]])).toBe(
      'the backup is damaged: picture a/b.jpg is missing or altered',
    );
    const missing = pictures({ path: 'a/c.jpg', sha256: sha256(PICTURE) });
    expect(await refusal([...emptyClub().slice(0, 2), ['pictures.json', missing]])).toBe(
      'the backup is damaged: picture a/c.jpg is missing or altered',
    );
  });

  it('with a file outside the media folder', async () => {
    for (const name of ['media/../outside.jpg', 'media/', 'media/../media']) {
      expect(await refusal([...emptyClub().slice(0, 2), [name, PICTURE]])).toBe(
        `the backup holds a file outside the media folder (${name})`,
      );
    }
    expect(existsSync(path.join(root, 'outside.jpg'))).toBe(false);
  });

  it('with a tail that does not hold the messages it counts', async () => {
    const tail = {
      takenAt: '',
      messagesAfter: 0,
      tables: { 'public.messages': 1 },
      sequences: {},
      leftOut: 0,
    };
    expect(await refusal([...emptyClub().slice(0, 3), ['tail.json', json(tail)]])).toBe(
      'the backup is damaged: its tail has 0 messages, not 1',
    );
    const evil = { ...tail, tables: {}, sequences: { 'public.evil_seq': 1 } };
    expect(await refusal([...emptyClub().slice(0, 2), ['tail.json', json(evil)]])).toBe(
      `the backup's tail sets the sequence "public.evil_seq", which is not one of the club's`,
    );
  });

  // Last: it needs a backup older than the migrations the database has.
  it('into a database with newer migrations than the backup', async () => {
    const older = 'the database already has migrations newer than the backup: use an empty database';
    expect(await refusal(emptyClub({ migration: { when: null, tag: null } }))).toBe(older);
    const before = migrations.at(-2)!;
    expect(await refusal(emptyClub({ migration: { when: before.when, tag: before.tag } }))).toBe(older);
  });
});
