import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

const dialect = new PgDialect();
/** The rows of a raw query (`db.execute`): postgres-js gives an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

interface PostgresJsClient {
  unsafe(query: string, params: (string | null)[], options: { prepare: boolean }): Promise<unknown>;
}
interface PgliteClient {
  query(query: string): Promise<unknown>;
  exec(query: string): Promise<unknown>;
}

/** Parameter n (from 1) of a prepared statement: text, so cast it in the SQL (`${param(1)}::int`). */
export function param(n: number): SQL {
  return sql.raw(`$${n}::text`);
}

/** A string as an SQL literal (standard_conforming_strings is on, as PostgreSQL has had it since 9.1). */
function literal(value: string | null): string {
  return value === null ? 'null' : `'${value.replaceAll("'", "''")}'`;
}

/**
 * A statement the server runs many times a second, parsed and planned once per connection instead of on
 * every run (drizzle's `execute` never prepares, and planning cost as much as running). On PostgreSQL it
 * is a protocol-level prepared statement; PGlite's client cannot bind parameters to one, so there it is
 * PREPAREd once and EXECUTEd with the parameters as literals.
 *
 * Run on `DatabaseConnections.ordered` (one connection of its own, see client.ts), runs are pipelined (the
 * next is at the database before the last one's answer is back, so the database goes from one to the next
 * without a round trip in between) and run, and answer, in the order they were started.
 */
export class PreparedStatement<T> {
  private readonly text: string;
  private readonly name: string;
  private readonly arity: number;
  /** PGlite clients this statement is prepared on (each is one session). */
  private readonly preparedOn = new WeakMap<object, Promise<unknown>>();

  /** `query` takes its parameters as `param(1)` … `param(arity)`, and no other values. */
  constructor(query: SQL, arity: number) {
    const built = dialect.sqlToQuery(query);
    if (built.params.length > 0) throw new Error('a prepared statement takes its values through param(n)');
    this.text = built.sql;
    this.arity = arity;
    this.name = `enishi_${createHash('sha1').update(built.sql).digest('hex').slice(0, 16)}`;
  }

  async run(db: Database, params: (string | null)[]): Promise<T[]> {
    if (params.length !== this.arity) throw new Error(`expected ${this.arity} parameters`);
    const client = (db as unknown as { $client: unknown }).$client;
    if (typeof (client as Partial<PostgresJsClient>).unsafe === 'function') {
      return rowsOf<T>(await (client as PostgresJsClient).unsafe(this.text, params, { prepare: true }));
    }
    const pglite = client as PgliteClient;
    let prepared = this.preparedOn.get(pglite);
    if (!prepared) {
      const types = Array.from({ length: this.arity }, () => 'text').join(', ');
      prepared = pglite.exec(`prepare ${this.name} (${types}) as ${this.text}`);
      this.preparedOn.set(pglite, prepared);
      // A failed PREPARE is tried again next time rather than remembered.
      prepared.catch(() => this.preparedOn.delete(pglite));
    }
    await prepared;
    return rowsOf<T>(await pglite.query(`execute ${this.name} (${params.map(literal).join(', ')})`));
  }
}
