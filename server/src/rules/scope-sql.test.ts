import { can, inScope, PERMISSION_NAMES, scope, type Permission, type ScopeRow } from '@enishi/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { ENGINES, openEmptyDatabase } from '../test/database.js';
import { scopeSql } from './scope-sql.js';

/*
 * `scopeSql` on the real database against `inScope` (which packages/contract/src/scope.test.ts holds to
 * `can`): for every role and permission, the rows the SQL selects are the rows the TypeScript keeps.
 */

const ROLES = [1, 2, 3, 4, 5, 6, 101, 201];
const UIDS = [101, 201, 7, null];
const STATUSES = ['requested', 'arranged', 'declined', 'cancelled'];
const actors = ROLES.flatMap((role) => [
  { uid: role === 201 ? 201 : 101, role },
  { uid: 7, role },
]);

/** Every combination of the fields, few values each: the rows of every scoped list at once. */
const ROWS: (ScopeRow & { id: number })[] = UIDS.flatMap((a) =>
  UIDS.flatMap((b) =>
    UIDS.flatMap((c) =>
      STATUSES.map((status, index) => ({
        memberId: a,
        manId: b,
        womanId: c,
        status,
        contentType: (index % 2) + 1,
      })),
    ),
  ),
).map((row, index) => ({
  ...row,
  id: index + 1,
  uid: UIDS[index % UIDS.length]!,
  role: ROLES[index % ROLES.length]!,
}));

const COLUMNS = {
  uid: sql.raw('r.uid'),
  role: sql.raw('r.role'),
  memberId: sql.raw('r.member_id'),
  manId: sql.raw('r.man_id'),
  womanId: sql.raw('r.woman_id'),
  contentType: sql.raw('r.content_type'),
  status: sql.raw('r.status'),
};

describe.each(ENGINES)('scope on %s: SQL and TypeScript agree', (engine) => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openEmptyDatabase(engine);
    await database.db.execute(sql`create table scope_rows (id integer primary key, uid integer, role integer,
      member_id integer, man_id integer, woman_id integer, content_type integer, status text)`);
    const values = ROWS.map(
      (row) => sql`(${row.id}, ${row.uid}, ${row.role}, ${row.memberId}, ${row.manId}, ${row.womanId},
        ${row.contentType}, ${row.status})`,
    );
    await database.db.execute(sql`insert into scope_rows values ${sql.join(values, sql`, `)}`);
  });
  afterAll(() => database.close());

  async function selected(permission: Permission, actor: { uid: number; role: number }): Promise<number[]> {
    const result = await database.db.execute(
      sql`select r.id from scope_rows r where ${scopeSql(scope(actor, permission), COLUMNS)} order by r.id`,
    );
    return rowsOf<{ id: number }>(result).map((row) => Number(row.id));
  }

  it('selects the rows inScope keeps, for every permission and role', async () => {
    // Each distinct scope once: most permissions and roles answer the same few.
    const asked = new Map<string, { permission: Permission; actor: { uid: number; role: number } }>();
    for (const permission of PERMISSION_NAMES)
      for (const actor of actors) asked.set(JSON.stringify(scope(actor, permission)), { permission, actor });
    expect(asked.size).toBeGreaterThan(10);
    for (const { permission, actor } of asked.values()) {
      const kept = ROWS.filter((row) => inScope(scope(actor, permission), row)).map((row) => row.id);
      expect(await selected(permission, actor), `${permission} ${JSON.stringify(actor)}`).toEqual(kept);
    }
  });

  it('selects nothing for a role without the permission', async () => {
    expect(can({ uid: 101, role: 101 }, 'desk.use')).toBe(false);
    expect(await selected('desk.use', { uid: 101, role: 101 })).toEqual([]);
  });
});
