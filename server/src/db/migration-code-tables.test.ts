import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LOOKUPS, lookupLabel } from '@enishi/contract';
import type { DatabaseHandle } from './client.js';
import { rowsOf } from './raw.js';
import { ENGINES } from '../test/database.js';
import { databaseBefore } from '../test/migrations-before.js';

/*
 * Migrations 0012 and 0014 (product.md §9.5): a database migrated up to the migration before one holds
 * profiles with the old codes (0012: letter-grade ranks, four drinking answers, the old contact and employment
 * lists; 0014: area 0, marriage, children, food allergies, date type); after migrating, each holds the
 * specification's code with the label the mapping promises.
 */

/** A woman's user record (role 201) with this id, for a profile row to belong to. */
async function addWoman(db: DatabaseHandle['db'], id: number): Promise<void> {
  await db.execute(
    sql`insert into users (id, login_id, name, password_hash, role) values (${id}, ${`w${id}`}, ${`woman ${id}`}, 'x', 201)`,
  );
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
  const database = databaseBefore(12, engine);

  it('moves stored profiles and rank history from the old codes to the specification’s', async () => {
    const handle = database();
    const { db } = handle;
    for (const [index, woman] of WOMEN.entries()) {
      const [rank, sake, contact, employment] = woman.old;
      await addWoman(db, index + 1);
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

/** Old codes (before 0014) -> the labels the new codes must carry, one woman per row. */
const BEFORE_0014 = [
  // old area, marriage (未婚 既婚 離婚歴あり 死別), children (なし 同居 別居), date type, food allergies
  { area: 0, marriage: 1, children: 0, dateType: 1, allergies: [0] },
  { area: 1, marriage: 2, children: 1, dateType: 2, allergies: [1, 2, 3, 4] },
  { area: 9, marriage: 3, children: 2, dateType: 3, allergies: [6, 5, 7] },
  { area: null, marriage: 4, children: null, dateType: 4, allergies: [8, 9, 6] },
  { area: 6, marriage: null, children: null, dateType: 5, allergies: [] },
  { area: null, marriage: null, children: null, dateType: null, allergies: [] },
] as const;
const AFTER_0014 = [
  { area: null, labels: ['', '未婚', 'なし', '食事のみ'], allergies: [] },
  { area: 1, labels: ['東京', '既婚', 'あり', '食事のみ'], allergies: ['卵', '乳', '小麦', 'そば'] },
  { area: 9, labels: ['その他', '離婚', 'あり', '食事のみ'], allergies: ['えび・かに', 'その他'] },
  { area: null, labels: ['', '離婚', '', '食事のみ'], allergies: ['えび・かに', 'その他'] },
  { area: 6, labels: ['大阪', '', '', 'フィーリング'], allergies: [] },
  { area: null, labels: ['', '', '', ''], allergies: [] },
];
/** What the new codes cannot say, kept in the staff's sales note (the 2nd woman had a note of her own). */
const NOTES_0014 = [
  '',
  '紹介者あり\n移行前の記録（子ども: あり(同居)、デート: 食事とお酒）',
  '移行前の記録（子ども: あり(別居)、デート: ランチ、食物アレルギー: 落花生・果物）',
  '移行前の記録（婚姻歴: 死別、デート: お茶、食物アレルギー: 魚介）',
  '移行前の記録（デート: 旅行も可）',
  '',
];

describe.each(ENGINES)('migration 0014 spec_code_tables_rest (%s)', (engine) => {
  const database = databaseBefore(14, engine);

  it('moves area 0, marriage, children, date type and food allergies to the specification’s codes', async () => {
    const handle = database();
    const { db } = handle;
    for (const [index, woman] of BEFORE_0014.entries()) {
      await addWoman(db, index + 1);
      await db.execute(
        sql`insert into member_profiles (user_id, area, marriage, children, date_type, food_allergies, women_rank, sales_note) values (${index + 1}, ${woman.area}, ${woman.marriage}, ${woman.children}, ${woman.dateType}, ${`{${woman.allergies.join(',')}}`}::integer[], 3, ${index === 1 ? '紹介者あり' : ''})`,
      );
    }

    await handle.migrate();

    const rows = rowsOf<{
      area: number | null;
      marriage: number | null;
      children: number | null;
      date_type: number | null;
      food_allergies: number[];
      women_rank: number;
      sales_note: string;
    }>(
      await db.execute(
        sql`select area, marriage, children, date_type, food_allergies, women_rank, sales_note from member_profiles order by user_id`,
      ),
    );
    expect(
      rows.map((row) => ({
        area: row.area,
        labels: [
          lookupLabel(LOOKUPS.areas, row.area),
          lookupLabel(LOOKUPS.marriage, row.marriage),
          lookupLabel(LOOKUPS.children, row.children),
          lookupLabel(LOOKUPS.dateTypes, row.date_type),
        ],
        allergies: row.food_allergies.map((code) => lookupLabel(LOOKUPS.foodAllergies, code)),
      })),
    ).toEqual(AFTER_0014);
    expect(rows.map((row) => row.sales_note)).toEqual(NOTES_0014);
    // Every stored code is one the tables know (a list sorted, each code once), and 0012's columns stay.
    for (const row of rows) {
      expect(row.food_allergies).toEqual([...new Set(row.food_allergies)].sort((a, b) => a - b));
      expect(row.women_rank).toBe(3);
    }
  });
});
