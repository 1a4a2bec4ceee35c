import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pack as tarPack, type Pack } from 'tar-stream';
import { SERVER_ROOT } from '../config.js';
import { MIGRATIONS_FOLDER, type DatabaseHandle } from '../db/client.js';
import { readMigrations } from '../db/migrations.js';
import { holdRemovals, isMarker } from './removal-gate.js';
import { takeSnapshot, type TableDump } from './snapshot.js';
import { holdMessageWrites, readAnchor, type HeldTail, type TailManifest } from './tail.js';

/*
 * One backup file: a tar archive of
 *   manifest.json                 what was backed up: app version and commit, migration, rows per table
 *   db/<schema.table>/NNNNNN.jsonl.gz   the rows, from one snapshot (snapshot.ts)
 *   media/<path>                  every file in DATA_DIR/media, copied after the snapshot
 *   tail.json, tail/<schema.table>/NNNNNN.jsonl.gz   the messages committed since the snapshot (tail.ts)
 *   media/<path>                  the pictures of the tail not copied before
 *   pictures.json                 each picture's size and SHA-256, and any the rows name that were not there
 * Pictures stored after the snapshot may be in it too; none that the snapshot's rows name is removed while
 * the backup runs, until it is released (removal-gate.ts).
 */

export const BACKUP_FORMAT = 'enishi-backup';
/** 2 added the tail (tail.ts); a restore reads 1 too. */
export const BACKUP_VERSION = 2;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  app: { version: string; commit: string | null };
  createdAt: string;
  /** When the database snapshot began: every commit acknowledged before it is in the backup. */
  snapshotAt: string;
  engine: 'pglite' | 'postgres';
  /** The last migration applied: the journal's `when` and file tag. */
  migration: { when: number | null; tag: string | null };
  /** Rows per table, `schema.table`. */
  tables: Record<string, number>;
  sequences: Record<string, number>;
}

export interface PictureEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface PictureList {
  pictures: PictureEntry[];
  /** Pictures the rows name that were not in the media folder (lost before the backup began). */
  missing: string[];
}

export interface BackupSummary {
  manifest: Manifest;
  tail: TailManifest;
  pictures: PictureList;
}

let appVersion: Manifest['app'] | undefined;
function appInfo(): Manifest['app'] {
  if (!appVersion) {
    const pkg = JSON.parse(readFileSync(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    let commit: string | null = process.env.ENISHI_COMMIT ?? null;
    try {
      commit ??= execFileSync('git', ['rev-parse', 'HEAD'], { cwd: SERVER_ROOT, stdio: 'pipe' })
        .toString()
        .trim();
    } catch {
      // Installed from an archive: no repository to ask.
    }
    appVersion = { version: pkg.version, commit };
  }
  return appVersion;
}

/** Files under `dir`, relative to it, markers and other dot-files left out, in name order. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || isMarker(entry.name)) continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await filesUnder(dir, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

/** Adds one entry to the backup's archive (for tests too, which make damaged and hostile files with it). */
export function addEntry(pack: Pack, name: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    pack.entry({ name, size: data.length, mode: 0o600 }, data, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 1)}\n`);

/** For tests: work done after the pictures are copied, before the tail is read. */
export interface BackupHooks {
  beforeTail?: () => Promise<void>;
}

/** A backup written to its stream; message writes wait until `release` (call it once the file is safe). */
export interface TakenBackup {
  summary: BackupSummary;
  release(): Promise<void>;
}

/** Copies the pictures `names` (under `mediaDir`) not copied yet into the pack, adding them to `pictures`. */
async function addPictures(
  pack: Pack,
  mediaDir: string,
  names: string[],
  pictures: PictureEntry[],
): Promise<void> {
  const copied = new Set(pictures.map((picture) => picture.path));
  for (const relative of names) {
    if (copied.has(relative)) continue;
    copied.add(relative);
    const data = await readFile(path.join(mediaDir, relative)).catch(() => null);
    if (!data) continue; // removed since it was listed: no row of the snapshot names it
    pictures.push({
      path: relative,
      bytes: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    });
    await addEntry(pack, `media/${relative}`, data);
  }
}

async function addTable(pack: Pack, prefix: string, table: TableDump): Promise<void> {
  for (const [index, chunk] of table.chunks.entries()) {
    await addEntry(pack, `${prefix}/${table.name}/${String(index).padStart(6, '0')}.jsonl.gz`, chunk);
  }
}

/** Copies `pack` into `out` at its pace; fails as soon as `out` errors or closes (its reader went away). */
async function copyTo(pack: Pack, out: Writable): Promise<void> {
  let failure: Error | undefined;
  const failed = (error?: Error) => (failure ??= error ?? new Error("the backup's reader went away"));
  // Listened to for the whole copy: an error between two writes would otherwise be thrown at the process.
  const onError = (error: Error) => failed(error);
  const onClose = () => failed();
  out.on('error', onError).on('close', onClose);
  try {
    for await (const chunk of pack as AsyncIterable<Buffer>) {
      if (failure || out.destroyed) throw failure ?? failed();
      if (out.write(chunk)) continue;
      await new Promise<void>((resolve, reject) => {
        const settle = () => {
          out.off('drain', settle).off('error', settle).off('close', settle);
          if (failure || out.destroyed) reject(failure ?? failed());
          else resolve();
        };
        out.once('drain', settle).once('error', settle).once('close', settle);
      });
    }
  } finally {
    out.off('error', onError).off('close', onClose);
  }
}

/**
 * Writes a backup of `database` and `mediaDir` to `out`, and leaves it open: the snapshot, the pictures,
 * then the tail (tail.ts) with the pictures it names that were not copied yet. Message writes are held
 * back from the tail on, until `release`.
 */
export async function writeBackup(
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  mediaDir: string,
  out: Writable,
  hooks: BackupHooks = {},
): Promise<TakenBackup> {
  await mkdir(mediaDir, { recursive: true });
  const releaseRemovals = await holdRemovals(mediaDir);
  let held: HeldTail | undefined;
  let gone: unknown;
  try {
    const snapshot = await takeSnapshot(database.db, readAnchor);
    const migration = readMigrations(MIGRATIONS_FOLDER).find((entry) => entry.when === snapshot.migration);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      app: appInfo(),
      createdAt: new Date().toISOString(),
      snapshotAt: snapshot.takenAt,
      engine: database.engine,
      migration: { when: snapshot.migration, tag: migration?.tag ?? null },
      tables: Object.fromEntries(snapshot.tables.map((table) => [table.name, table.rows])),
      sequences: snapshot.sequences,
    };

    const pack = tarPack();
    // Copied at `out`'s pace (the entries wait for it), which is left open for whoever gave it. A reader
    // that goes away stops it: the pack is destroyed, so every entry still waiting fails and the holds go.
    const written = copyTo(pack, out);
    written.catch((error: unknown) => {
      gone = error; // the cause, rather than the entries' "destroyed"
      pack.destroy();
    }); // awaited below
    await addEntry(pack, 'manifest.json', json(manifest));
    for (const table of snapshot.tables) await addTable(pack, 'db', table);
    const pictures: PictureEntry[] = [];
    await addPictures(pack, mediaDir, await filesUnder(mediaDir), pictures);

    await hooks.beforeTail?.();
    held = await holdMessageWrites(database.db, snapshot.also);
    const { tail } = held;
    await addEntry(pack, 'tail.json', json(tail.manifest));
    for (const table of tail.tables) await addTable(pack, 'tail', table);
    await addPictures(pack, mediaDir, tail.pictures, pictures);

    const copied = new Set(pictures.map((picture) => picture.path));
    const named = [...snapshot.pictures, ...tail.pictures];
    const list: PictureList = { pictures, missing: named.filter((name) => !copied.has(name)) };
    await addEntry(pack, 'pictures.json', json(list));
    pack.finalize();
    await written;
    const release = held.release;
    return {
      summary: { manifest, tail: tail.manifest, pictures: list },
      release: async () => {
        await release();
        await releaseRemovals();
      },
    };
  } catch (error) {
    await held?.release().catch(() => {});
    await releaseRemovals();
    throw gone ?? error;
  }
}
