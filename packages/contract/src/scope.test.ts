import { describe, expect, it } from 'vitest';
import { can, PERMISSION_NAMES, scope, type Permission, type PermissionResource } from './permissions.js';
import { inScope, type ScopeRow } from './scope.js';

/*
 * `scope` against `can`: for every role and every permission a list is scoped by, a row is in the actor's
 * scope exactly when `can` allows the record it stands for. The SQL twin is held to the same rows in
 * server/src/rules/scope-sql.test.ts.
 */

const ROLES = [1, 2, 3, 4, 5, 6, 101, 201];
const UIDS = [101, 201, 7, null];
const actors = ROLES.flatMap((role) => [
  { uid: role === 201 ? 201 : 101, role },
  { uid: 7, role },
]);

/** The rows each scoped list holds, and the record `can` decides for each. */
const LISTS: Partial<
  Record<Permission, { rows: ScopeRow[]; resource: (row: ScopeRow) => PermissionResource }>
> = {
  'talk.read': {
    rows: UIDS.flatMap((memberId) =>
      UIDS.flatMap((manId) => UIDS.map((womanId) => ({ memberId, manId, womanId }))),
    ),
    resource: (row) => ({
      talk: { kind: 'desk', memberId: row.memberId!, manId: row.manId!, womanId: row.womanId! },
    }),
  },
  'content.read': {
    rows: [1, 2].map((contentType) => ({ contentType })),
    resource: (row) => ({ contentType: row.contentType! }),
  },
  'user.read': { rows: UIDS.map((uid) => ({ uid })), resource: (row) => ({ uid: row.uid! }) },
  'member.profile.read': {
    rows: UIDS.flatMap((uid) => ROLES.map((role) => ({ uid, role }))),
    resource: (row) => ({ uid: row.uid!, role: row.role! }),
  },
  'women.browse': { rows: ROLES.map((role) => ({ role })), resource: (row) => ({ role: row.role! }) },
  'member.manage': { rows: ROLES.map((role) => ({ role })), resource: (row) => ({ role: row.role! }) },
  'setting.read': {
    rows: UIDS.flatMap((manId) =>
      UIDS.flatMap((womanId) =>
        ['requested', 'arranged', 'declined', 'cancelled'].map((status) => ({ manId, womanId, status })),
      ),
    ).filter((row) => row.manId !== null),
    resource: (row) => ({ setting: { manId: row.manId!, womanId: row.womanId!, status: row.status! } }),
  },
};

describe('scope', () => {
  it('holds a row exactly when can allows its record, for every role', () => {
    for (const [permission, list] of Object.entries(LISTS) as [
      Permission,
      NonNullable<(typeof LISTS)[Permission]>,
    ][])
      for (const actor of actors)
        for (const row of list.rows)
          expect(
            inScope(scope(actor, permission), row),
            `${permission} ${JSON.stringify(actor)} ${JSON.stringify(row)}`,
          ).toBe(can(actor, permission, list.resource(row)));
  });

  it('is every row where the role decides alone, and none without the permission', () => {
    for (const permission of PERMISSION_NAMES.filter((name) => !(name in LISTS)))
      for (const actor of actors)
        expect(scope(actor, permission)).toEqual(
          can(actor, permission) ? { all: true } : { all: false, anyOf: [] },
        );
  });

  it('gives no row without a session, to a deleted account or to a role alone', () => {
    for (const permission of PERMISSION_NAMES) {
      expect(inScope(scope(null, permission), { uid: 101 })).toBe(false);
      expect(inScope(scope({ uid: 2, role: 2, deleted: true }, permission), { uid: 2 })).toBe(false);
    }
    expect(inScope(scope({ role: 101 }, 'talk.read'), { memberId: 101 })).toBe(false);
  });

  it('shows a woman her setting request only once arranged (product.md §18.2)', () => {
    const woman = { uid: 201, role: 201 };
    expect(inScope(scope(woman, 'setting.read'), { manId: 101, womanId: 201, status: 'requested' })).toBe(
      false,
    );
    expect(inScope(scope(woman, 'setting.read'), { manId: 101, womanId: 201, status: 'arranged' })).toBe(
      true,
    );
  });
});
