import type { Scope, ScopeField } from '@enishi/contract';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/*
 * The SQL twin of the permission model's `scope` (packages/contract/src/scope.ts, product.md §6): which rows
 * of a list an actor sees, as a condition for the list's own query. The list names where each field the
 * scope may read lives; scope-sql.test.ts runs this over every role and row against `inScope` and `can`.
 */

/** Where a query finds the fields a scope reads: a table's columns or a raw statement's aliases. */
export type ScopeColumns = Partial<Record<ScopeField, SQL | AnyColumn>>;

/** The scope as a condition on the list's rows: true for every row, false for none. */
export function scopeSql(scope: Scope, columns: ScopeColumns): SQL {
  if (scope.all) return sql`true`;
  if (scope.anyOf.length === 0) return sql`false`;
  const matches = scope.anyOf.map((match) => {
    const equal = Object.entries(match).map(([field, value]) => {
      const column = columns[field as ScopeField];
      if (column === undefined) throw new Error(`the list has no column for the scope's ${field}`);
      return sql`${column} = ${value}`;
    });
    return sql`(${sql.join(equal, sql` and `)})`;
  });
  return sql`(${sql.join(matches, sql` or `)})`;
}
