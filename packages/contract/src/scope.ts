/*
 * Which rows of a list an actor may see (product.md §6, docs/permissions.md): the list's half of the
 * permission model. `can(actor, permission, resource)` decides one record; `scope(actor, permission)` in
 * permissions.ts answers, for the same permission, which rows of a list hold: every row, or the rows that
 * match one of a few field values. The server turns a scope into SQL (server/src/rules/scope-sql.ts) and
 * tests that both agree with each other and with `can` row by row.
 */

/** A row of a list as a scope reads it: the fields a permission's rows are chosen by. */
export interface ScopeRow {
  /** Whose record it is (a user, a profile). */
  uid?: number | null;
  /** The role of that record. */
  role?: number | null;
  /** A talk's seats, or a setting request's man and woman. */
  memberId?: number | null;
  manId?: number | null;
  womanId?: number | null;
  /** A news item or banner's group (1 men, 2 women). */
  contentType?: number | null;
  /** A setting request's state. */
  status?: string | null;
}

export type ScopeField = keyof ScopeRow;

/** The rows whose fields all equal these values. */
export type ScopeMatch = Partial<Record<ScopeField, number | string>>;

/** Every row, or the rows that match one of `anyOf` (no row when it is empty). */
export type Scope = { all: true } | { all: false; anyOf: readonly ScopeMatch[] };

export const EVERY_ROW: Scope = { all: true };
export const NO_ROW: Scope = { all: false, anyOf: [] };

/** Whether the scope holds no row at all (a list need not be read). */
export const holdsNoRow = (scope: Scope): boolean => !scope.all && scope.anyOf.length === 0;

/** The rows matching one of `anyOf`. */
export const rowsMatching = (...anyOf: ScopeMatch[]): Scope => ({ all: false, anyOf });

/** Whether a row is in the scope: the pure twin of the server's SQL. */
export function inScope(scope: Scope, row: ScopeRow): boolean {
  if (scope.all) return true;
  return scope.anyOf.some((match) =>
    (Object.entries(match) as [ScopeField, number | string][]).every(
      ([field, value]) => row[field] === value,
    ),
  );
}
