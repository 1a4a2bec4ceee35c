import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { extract as tarExtract, type Extract } from 'tar-stream';
import { MIGRATIONS_FOLDER, type Database, type DatabaseHandle } from '../db/client.js';
import { lastAppliedMigration, readMigrations } from '../db/migrations.js';
import { rowsOf } from '../db/raw.js';
import { loadChunk } from './rows.js';
import { loadTail, type TailManifest } from './tail.js';
import { countRows, listTables, qualified } from './snapshot.js';
import { BACKUP_FORMAT, BACKUP_VERSION, type Manifest, type PictureList } from './write-backup.js';

/** The backup cannot go where it was asked to, or is not a backup; the message is for the operator. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

type Entry = Extract extends AsyncIterable<infer Source> ? Source : never;

async function bytesOf(entry: Entry): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of entry) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Rows in the database's tables, leaving out the migrations' record: an empty database has none. */
export async function rowsFound(db: Database): Promise<Record<string, number>> {
  const tables = (await listTables(db)).filter((table) => !table.startsWith('drizzle.'));
  const counts = await countRows(db, tables);
  return Object.fromEntries(Object.entries(counts).filter(([, rows]) => rows > 0));
}

/** Refuses a database with rows or a media folder with files, naming what is there. */
async function checkEmpty(db: Database, mediaDir: string): Promise<void> {
  const rows = await rowsFound(db);
  const tables = Object.entries(rows);
  if (tables.length > 0) {
    const named = tables.map(([table, n]) => `${table.replace(/^public\./, '')} ${n}`).join(', ');
    throw new RestoreRefused(
      `the database is not empty: ${tables.length} tables have rows (${named}). ` +
        'A restore only fills an empty DATA_DIR or database.',
    );
  }
  const files = await readdir(mediaDir, { recursive: true }).catch(() => [] as string[]);
  if (files.length > 0) {
    throw new RestoreRefused(
      `${mediaDir} is not empty (${files.length} files and folders). A restore only fills an empty DATA_DIR.`,
    );
  }
}

function checkManifest(manifest: Manifest, applied: number | null): void {
  if (manifest.format !== BACKUP_FORMAT || (manifest.version !== BACKUP_VERSION && manifest.version !== 1)) {
    throw new RestoreRefused('not an Enishi backup of a format this version reads');
  }
  const when = manifest.migration.when;
  if (when !== null && !readMigrations(MIGRATIONS_FOLDER).some((migration) => migration.when === when)) {
    throw new RestoreRefused(
      `the backup was taken by a newer version (migration ${manifest.migration.tag ?? when}): restore it with that version or later`,
    );
  }
  if (applied !== null && (when === null || applied > when)) {
    throw new RestoreRefused(
      'the database already has migrations newer than the backup: use an empty database',
    );
  }
}

/** The foreign keys of the app's tables, so they can be set aside while rows load in any order. */
async function foreignKeys(db: Database) {
  return rowsOf<{ tbl: string; name: string; def: string }>(
    await db.execute(sql`select n.nspname || '.' || c.relname as tbl, k.conname as name,
        pg_get_constraintdef(k.oid) as def
      from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname in ('public', 'drizzle') order by 1, 2`),
  );
}

/** A media entry's path inside the media folder, or a refusal for one that would leave it. */
function mediaPath(mediaDir: string, name: string): string {
  const relative = name.slice('media/'.length);
  const target = path.resolve(mediaDir, relative);
  if (relative === '' || !target.startsWith(`${path.resolve(mediaDir)}${path.sep}`)) {
    throw new RestoreRefused(`the backup holds a file outside the media folder (${name})`);
  }
  return target;
}

export interface RestoreSummary {
  manifest: Manifest;
  tables: Record<string, number>;
  pictures: number;
  /** Migrations applied after the rows were in (a backup of an older version). */
  upgraded: string[];
}

/** Empties what a failed restore wrote, so the next attempt finds the database and folder empty again. */
async function undo(db: Database, mediaDir: string): Promise<void> {
  // The migrations' record stays: the schema it describes stays too, for the next attempt to fill.
  const tables = (await listTables(db)).filter((table) => !table.startsWith('drizzle.'));
  if (tables.length > 0) await db.execute(sql.raw(`truncate ${tables.map(qualified).join(', ')} cascade`));
  await rm(mediaDir, { recursive: true, force: true });
}

/**
 * Restores a backup (a tar stream, already decrypted) into an empty database and media folder: the schema
 * of the backup's migration, its rows in one transaction (checked against the manifest's counts), its
 * pictures (checked against their hashes), then the migrations that came after it.
 */
export async function restoreBackup(
  input: Readable,
  database: Pick<DatabaseHandle, 'db' | 'migrate'>,
  mediaDir: string,
): Promise<RestoreSummary> {
  const { db } = database;
  const extract = tarExtract();
  input.on('error', (error) => extract.destroy(error));
  input.pipe(extract);
  const entries = extract[Symbol.asyncIterator]();
  const next = async () => (await entries.next()).value as Entry | undefined;

  let entry = await next();
  if (entry?.header.name !== 'manifest.json') throw new RestoreRefused('not an Enishi backup (no manifest)');
  const manifest = JSON.parse((await bytesOf(entry)).toString('utf8')) as Manifest;
  checkManifest(manifest, await lastAppliedMigration(db));
  await checkEmpty(db, mediaDir);

  let started = false;
  try {
    await database.migrate({ upTo: manifest.migration.when ?? undefined });
    started = true;
    entry = await next();
    let tables = await db.transaction(async (tx) => {
      const inTx = tx as unknown as Database;
      const keys = await foreignKeys(inTx);
      for (const key of keys) {
        await inTx.execute(sql.raw(`alter table ${qualified(key.tbl)} drop constraint "${key.name}"`));
      }
      await inTx.execute(sql`delete from drizzle.__drizzle_migrations`);
      for (; entry?.header.name.startsWith('db/'); entry = await next()) {
        await loadChunk(inTx, path.posix.dirname(entry.header.name.slice(3)), await bytesOf(entry));
      }
      for (const [sequence, value] of Object.entries(manifest.sequences)) {
        await inTx.execute(sql`select setval(${sequence}::regclass, ${value})`);
      }
      for (const key of keys) {
        await inTx.execute(
          sql.raw(`alter table ${qualified(key.tbl)} add constraint "${key.name}" ${key.def}`),
        );
      }
      const counts = await countRows(inTx, Object.keys(manifest.tables));
      for (const [table, rows] of Object.entries(manifest.tables)) {
        if (counts[table] !== rows) {
          throw new RestoreRefused(`the backup is damaged: ${table} has ${counts[table]} rows, not ${rows}`);
        }
      }
      return counts;
    });

    const hashes = new Map<string, string>();
    const copyPictures = async () => {
      for (; entry?.header.name.startsWith('media/'); entry = await next()) {
        const target = mediaPath(mediaDir, entry.header.name);
        const data = await bytesOf(entry);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, data, { flag: 'wx' });
        hashes.set(entry.header.name.slice('media/'.length), createHash('sha256').update(data).digest('hex'));
      }
    };
    await copyPictures();
    if (entry?.header.name === 'tail.json') {
      // The messages committed after the snapshot (tail.ts), then the pictures they name.
      const tail = JSON.parse((await bytesOf(entry)).toString('utf8')) as TailManifest;
      entry = await next();
      async function* chunks() {
        for (; entry?.header.name.startsWith('tail/'); entry = await next()) {
          yield { table: path.posix.dirname(entry.header.name.slice(5)), data: await bytesOf(entry) };
        }
      }
      const loaded = await db.transaction((tx) => loadTail(tx as unknown as Database, tail, chunks()));
      const expected = tail.tables['public.messages'] ?? 0;
      if (loaded['public.messages'] !== expected) {
        throw new RestoreRefused(
          `the backup is damaged: its tail has ${loaded['public.messages']} messages, not ${expected}`,
        );
      }
      tables = await countRows(db, Object.keys(tables));
      await copyPictures();
    }
    if (entry?.header.name !== 'pictures.json')
      throw new RestoreRefused('the backup is incomplete (no picture list)');
    const list = JSON.parse((await bytesOf(entry)).toString('utf8')) as PictureList;
    for (const picture of list.pictures) {
      if (hashes.get(picture.path) !== picture.sha256) {
        throw new RestoreRefused(`the backup is damaged: picture ${picture.path} is missing or altered`);
      }
    }
    while (await next()) {
      /* nothing follows the picture list */
    }
    const upgraded = await database.migrate();
    return { manifest, tables, pictures: hashes.size, upgraded };
  } catch (error) {
    extract.destroy();
    if (started) await undo(db, mediaDir);
    throw error;
  }
}
