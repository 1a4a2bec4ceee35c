import { readdir, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { extract as tarExtract } from 'tar-stream';
import { MIGRATIONS_FOLDER, type Database, type DatabaseHandle } from '../db/client.js';
import { lastAppliedMigration, readMigrations } from '../db/migrations.js';
import { rowsOf } from '../db/raw.js';
import { Entries, checkPictures, chunkOf, copyPictures, jsonOf } from './backup-entries.js';
import { RestoreRefused } from './refused.js';
import { clubSchema, clubTable, loadChunk, named, type ClubSchema } from './rows.js';
import { loadTail, type TailManifest } from './tail.js';
import { countRows, listTables, qualified } from './snapshot.js';
import { BACKUP_FORMAT, BACKUP_VERSION, type Manifest } from './write-backup.js';

export { RestoreRefused };

/** The club's sequences (`schema.name`): the only ones a restore sets. */
async function clubSequences(db: Database): Promise<Set<string>> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`select schemaname || '.' || sequencename as name from pg_sequences
      where schemaname in ('public', 'drizzle')`),
  );
  return new Set(rows.map((row) => row.name));
}

/** Refuses a manifest that names tables or sequences other than the club's. */
function checkNames(
  schema: ClubSchema,
  sequences: Set<string>,
  found: { tables: Record<string, number>; sequences: Record<string, number> },
  where: string,
): void {
  for (const table of Object.keys(found.tables))
    clubTable(schema, table, `the backup's ${where} counts rows of`);
  for (const sequence of Object.keys(found.sequences)) {
    if (!sequences.has(sequence)) {
      throw new RestoreRefused(
        `the backup's ${where} sets the sequence ${named(sequence)}, which is not one of the club's`,
      );
    }
  }
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
  const entries = new Entries(extract[Symbol.asyncIterator]());

  const first = await entries.advance();
  if (first?.header.name !== 'manifest.json') throw new RestoreRefused('not an Enishi backup (no manifest)');
  const manifest = await jsonOf<Manifest>(first);
  checkManifest(manifest, await lastAppliedMigration(db));
  await checkEmpty(db, mediaDir);

  let started = false;
  try {
    await database.migrate({ upTo: manifest.migration.when ?? undefined });
    started = true;
    const restored = await restoreContents(db, entries, manifest, mediaDir);
    const upgraded = await database.migrate();
    return { manifest, ...restored, upgraded };
  } catch (error) {
    extract.destroy();
    if (started) await undo(db, mediaDir);
    throw error;
  }
}

/** The backup's rows, pictures and tail, in the order they stand in the file, each checked as it comes. */
async function restoreContents(
  db: Database,
  entries: Entries,
  manifest: Manifest,
  mediaDir: string,
): Promise<{ tables: Record<string, number>; pictures: number }> {
  // What the backup's migration made is all a restore writes: rows of any other table are refused.
  const schema = await clubSchema(db);
  const sequences = await clubSequences(db);
  checkNames(schema, sequences, manifest, 'manifest');
  await entries.advance();
  let tables = await db.transaction((tx) => loadRows(tx as unknown as Database, schema, manifest, entries));
  const hashes = new Map<string, string>();
  await copyPictures(entries, mediaDir, hashes);
  if (entries.entry && entries.at('tail.json')) {
    // The messages committed after the snapshot (tail.ts), then the pictures they name.
    const tail = await jsonOf<TailManifest>(entries.entry);
    checkNames(schema, sequences, tail, 'tail');
    await loadTailEntries(db, schema, tail, entries);
    tables = await countRows(db, Object.keys(tables));
    await copyPictures(entries, mediaDir, hashes);
  }
  await checkPictures(entries, hashes);
  return { tables, pictures: hashes.size };
}

/**
 * The snapshot's rows, in one transaction: foreign keys set aside while rows load in any order, the
 * sequences set, and every table's count checked against the manifest.
 */
async function loadRows(
  inTx: Database,
  schema: ClubSchema,
  manifest: Manifest,
  entries: Entries,
): Promise<Record<string, number>> {
  const keys = await foreignKeys(inTx);
  for (const key of keys) {
    await inTx.execute(sql.raw(`alter table ${qualified(key.tbl)} drop constraint "${key.name}"`));
  }
  await inTx.execute(sql`delete from drizzle.__drizzle_migrations`);
  for (let entry = entries.entry; entry && entries.under('db/'); entry = await entries.advance()) {
    await loadChunk(inTx, schema, await chunkOf(entry, 'db/'));
  }
  for (const [sequence, value] of Object.entries(manifest.sequences)) {
    await inTx.execute(sql`select setval(${sequence}::regclass, ${value})`);
  }
  for (const key of keys) {
    await inTx.execute(sql.raw(`alter table ${qualified(key.tbl)} add constraint "${key.name}" ${key.def}`));
  }
  const counts = await countRows(inTx, Object.keys(manifest.tables));
  for (const [table, rows] of Object.entries(manifest.tables)) {
    if (counts[table] !== rows) {
      throw new RestoreRefused(`the backup is damaged: ${table} has ${counts[table]} rows, not ${rows}`);
    }
  }
  return counts;
}

/** The tail's chunks of messages, in one transaction, their count checked against the tail's manifest. */
async function loadTailEntries(
  db: Database,
  schema: ClubSchema,
  tail: TailManifest,
  entries: Entries,
): Promise<void> {
  await entries.advance();
  async function* chunks() {
    for (let entry = entries.entry; entry && entries.under('tail/'); entry = await entries.advance())
      yield chunkOf(entry, 'tail/');
  }
  const loaded = await db.transaction((tx) => loadTail(tx as unknown as Database, schema, tail, chunks()));
  const expected = tail.tables['public.messages'] ?? 0;
  if (loaded['public.messages'] !== expected) {
    throw new RestoreRefused(
      `the backup is damaged: its tail has ${loaded['public.messages']} messages, not ${expected}`,
    );
  }
}
