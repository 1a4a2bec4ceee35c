import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, openEmptyDatabase } from '../test/database.js';
import { lastAppliedMigration, runMigrations } from './migrations.js';
import { rowsOf } from './raw.js';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

/** A migrations folder as drizzle-kit writes one: SQL files and a journal naming them in order. */
async function migrationsFolder(files: Record<string, string[]>): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'enishi-migrations-'));
  folders.push(folder);
  await mkdir(path.join(folder, 'meta'));
  const tags = Object.keys(files);
  for (const tag of tags) {
    await writeFile(path.join(folder, `${tag}.sql`), files[tag]!.join('--> statement-breakpoint\n'));
  }
  const entries = tags.map((tag, idx) => ({ idx, version: '7', when: 1000 + idx, tag, breakpoints: true }));
  await writeFile(path.join(folder, 'meta/_journal.json'), JSON.stringify({ version: '7', entries }));
  return folder;
}

const GOOD = {
  '0000_notes': [
    'CREATE TABLE "notes" ("id" serial PRIMARY KEY, "body" text NOT NULL);',
    `INSERT INTO "notes" ("body") VALUES ('kept');`,
  ],
};

// The embedded database starts slowly on a busy machine; these wait for it longer than the default.
describe.each(ENGINES)('migrations on %s', { timeout: 90_000 }, (engine) => {
  it('applies each migration once, in its own transaction, and a failing one changes nothing', async () => {
    const database = await openEmptyDatabase(engine);
    try {
      expect(await runMigrations(database.db, await migrationsFolder(GOOD))).toEqual(['0000_notes']);
      const failing = await migrationsFolder({
        ...GOOD,
        '0001_rename': [
          `UPDATE "notes" SET "body" = 'changed';`,
          'ALTER TABLE "notes" ADD COLUMN "kind" integer;',
          'ALTER TABLE "no_such_table" ADD COLUMN "x" integer;',
        ],
      });
      await expect(runMigrations(database.db, failing)).rejects.toThrow(/no_such_table/);

      const notes = rowsOf<Record<string, unknown>>(await database.db.execute(sql`select * from notes`));
      expect(notes).toEqual([{ id: 1, body: 'kept' }]);
      expect(await lastAppliedMigration(database.db)).toBe(1000);
      // Run again (as the server does at its next start), the good migration is not applied twice.
      await expect(runMigrations(database.db, failing)).rejects.toThrow(/no_such_table/);
      expect(rowsOf(await database.db.execute(sql`select * from notes`))).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('stops at the migration a restore asks for, and applies the rest later', async () => {
    const database = await openEmptyDatabase(engine);
    try {
      const folder = await migrationsFolder({
        ...GOOD,
        '0001_more': [`INSERT INTO "notes" ("body") VALUES ('second');`],
      });
      expect(await runMigrations(database.db, folder, { upTo: 1000 })).toEqual(['0000_notes']);
      expect(await runMigrations(database.db, folder)).toEqual(['0001_more']);
      expect(await runMigrations(database.db, folder)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
