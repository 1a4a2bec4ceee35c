import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { normaliseReading } from '@enishi/contract';
import { rowsOf } from './raw.js';
import { ENGINES } from '../test/database.js';
import { databaseBefore } from '../test/migrations-before.js';

/*
 * Migration 0020 name_kana (product.md §5.7): every member's profile reading (ふりがな) becomes the person's
 * reading, in the one form the contract stores (hiragana, trimmed, one space between words); people whose
 * profile has none, and staff, have none.
 */

const PROFILES: [uid: number, role: number, profileKana: string | null][] = [
  [1, 201, 'たなか はなこ'],
  [2, 201, 'ヤマモト　ユイ'],
  [3, 101, ' ｲﾄｳ  ﾅｵｷ '],
  [4, 101, 'わたナベ'],
  [5, 201, ''],
  [6, 101, null],
  [7, 3, null],
];

describe.each(ENGINES)('migration 0020 name_kana (%s)', (engine) => {
  const database = databaseBefore(20, engine);

  it('carries each member’s profile reading over to the person, in hiragana', async () => {
    const handle = database();
    const { db } = handle;
    for (const [uid, role, kana] of PROFILES) {
      await db.execute(
        sql`insert into users (id, login_id, name, password_hash, role) values (${uid}, ${`u${uid}`}, ${`user ${uid}`}, 'x', ${role})`,
      );
      if (kana !== null)
        await db.execute(sql`insert into member_profiles (user_id, name_kana) values (${uid}, ${kana})`);
    }

    await handle.migrate();

    const rows = rowsOf<{ id: number; name_kana: string | null }>(
      await db.execute(sql`select id, name_kana from users order by id`),
    );
    expect(rows).toEqual([
      { id: 1, name_kana: 'たなか はなこ' },
      { id: 2, name_kana: 'やまもと ゆい' },
      { id: 3, name_kana: 'いとう なおき' },
      { id: 4, name_kana: 'わたなべ' },
      { id: 5, name_kana: null },
      { id: 6, name_kana: null },
      { id: 7, name_kana: null },
    ]);
    // The SQL of the migration and the contract's rule agree.
    for (const [uid, , kana] of PROFILES.filter(([, , kana]) => kana)) {
      expect(rows.find((row) => row.id === uid)!.name_kana).toBe(normaliseReading(kana!));
    }
  });
});
