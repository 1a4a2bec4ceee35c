import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

const dialect = new PgDialect();
/** The rows of a raw query (`db.execute`): postgres-js gives an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown>;
}

/**
 * Runs a raw statement that the server runs many times a second as a prepared statement on PostgreSQL,
 * so it is parsed and planned once per connection instead of on every run (drizzle's `execute` never
 * prepares). PGlite runs it as usual. Parameters travel as text: cast them in the SQL.
 */
export async function executePrepared<T>(db: Database, query: SQL): Promise<T[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client && typeof (client as Partial<PostgresJsClient>).unsafe === 'function') {
    const { sql, params } = dialect.sqlToQuery(query);
    const textParams = params.map((param) => (param === null ? null : String(param)));
    return rowsOf<T>(await (client as PostgresJsClient).unsafe(sql, textParams, { prepare: true }));
  }
  return rowsOf<T>(await db.execute(query));
}
