import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUPS, lookupLabel } from '@enishi/contract';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from './client.js';
import { createPostgresDatabase, ENGINES } from '../test/database.js';

/*
 * Migration 0012 (product.md §9.5): a database migrated up to the migration before it holds profiles with the
 * old codes (letter-grade ranks, four drinking answers, the old contact and employment lists); after
 * migrating, each holds the specification's code with the label the mapping promises.
 */

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A copy of the migrations folder with only the migrations before 0012. */
async function migrationsBefore0012(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'enishi-migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
  journal.entries = journal.entries.filter((entry) => entry.idx < 12);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

/** Old codes (before 0012) -> the labels the new codes must carry, one woman per row. */
const WOMEN = [
  // [old women_rank, old sake, old contact_method, old employment] -> new labels
  { old: [0, 0, 1, 1], labels: ['一般2', '飲めない', 'その他', '正社員'] },
  { old: [4, 1, 2, 2], labels: ['プラチナ', '弱い', '電話', '契約社員'] },
  { old: [5, 2, 3, 3], labels: ['プラチナ3', '普通', 'メール', '派遣社員'] },
  { old: [6, 3, 4, 4], labels: ['VIP', '強い', 'LINE', 'パート・アルバイト'] },
  { old: [7, null, 5, 6], labels: ['スペシャルVIP', '', 'SMS', 'その他'] },
  { old: [8, null, null, null], labels: ['スペシャルVIP', '', '', ''] },
  { old: [2, null, null, 8], labels: ['一般3', '', '', 'その他'] },
] as const;

describe.each(ENGINES)('migration 0012 spec_code_tables (%s)', (engine) => {
  let handle: DatabaseHandle;
  let dropDatabase: () => Promise<void> = async () => {};
  let folder: string;

  beforeAll(async () => {
    folder = await migrationsBefore0012();
    if (engine === 'pglite') {
      handle = await openDatabase({});
      await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    } else {
      const created = await createPostgresDatabase();
      dropDatabase = created.drop;
      handle = await openDatabase({ databaseUrl: created.url });
      await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder: folder });
    }
  });

  afterAll(async () => {
    await handle.close();
    await dropDatabase();
    await rm(folder, { recursive: true, force: true });
  });

  it('moves stored profiles and rank history from the old codes to the specification’s', async () => {
    const { db } = handle;
    for (const [index, woman] of WOMEN.entries()) {
      const [rank, sake, contact, employment] = woman.old;
      await db.execute(
        sql`insert into users (id, login_id, name, password_hash, role) values (${index + 1}, ${`w${index}`}, ${`woman ${index}`}, 'x', 201)`,
      );
      await db.execute(
        sql`insert into member_profiles (user_id, women_rank, sake, contact_method, employment, cup) values (${index + 1}, ${rank}, ${sake}, ${contact}, ${employment}, 9)`,
      );
    }
    await db.execute(
      sql`insert into member_profile_history (user_id, field, from_code, to_code, actor_name) values (2, 'women_rank', 1, 6, 'staff'), (2, 'entry_type', 1, 6, 'staff')`,
    );

    await handle.migrate();

    const rows = await db.execute<{
      user_id: number;
      women_rank: number;
      sake: number | null;
      contact_method: number | null;
      employment: number | null;
      cup: number | null;
    }>(
      sql`select user_id, women_rank, sake, contact_method, employment, cup from member_profiles order by user_id`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      women_rank: number;
      sake: number | null;
      contact_method: number | null;
      employment: number | null;
      cup: number | null;
    }[];
    expect(
      list.map((row) => [
        lookupLabel(LOOKUPS.womenRanks, row.women_rank),
        lookupLabel(LOOKUPS.drinking, row.sake),
        lookupLabel(LOOKUPS.contactMethods, row.contact_method),
        lookupLabel(LOOKUPS.employmentTypes, row.employment),
      ]),
    ).toEqual(WOMEN.map((woman) => woman.labels));
    // I以上 (old 9) is I now; the larger cups are new codes.
    expect(list.every((row) => lookupLabel(LOOKUPS.cupSizes, row.cup) === 'I')).toBe(true);

    const history = await db.execute(
      sql`select field, from_code, to_code from member_profile_history order by field`,
    );
    const historyRows = Array.isArray(history) ? history : (history as { rows: unknown[] }).rows;
    expect(historyRows).toEqual([
      { field: 'entry_type', from_code: 1, to_code: 6 },
      { field: 'women_rank', from_code: 0, to_code: 4 },
    ]);
    const settings = await db.execute(sql`select count(*)::int as n from club_settings`);
    const settingRows = Array.isArray(settings) ? settings : (settings as { rows: unknown[] }).rows;
    expect(settingRows).toEqual([{ n: 0 }]);
  });
});
