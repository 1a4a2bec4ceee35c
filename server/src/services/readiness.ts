import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { MIGRATIONS_FOLDER } from '../db/client.js';
import { breakingMigrationOf, readMigrations } from '../db/migrations.js';
import { rowsOf } from '../db/raw.js';
import type { Fanout } from '../bus/fanout.js';

/**
 * What /readyz names when it is not ready; `schema`: a newer release has applied a migration that breaks
 * this one (docs/releases.md), so this instance must take no more traffic.
 */
export type NotReady = 'database' | 'migrations' | 'schema' | 'redis';

/** The database must answer within this, or it counts as down. */
const DATABASE_TIMEOUT_MS = 2000;

interface SchemaState {
  /** How many migrations the database has run. */
  applied: number;
  /** The `when` of the newest migration applied that breaks earlier releases, or null. */
  breaking: number | null;
}

/**
 * Whether this instance can serve (`/readyz`, product.md §20): the database answers, every migration has
 * run and none this build does not know breaks it, and Redis, when several instances share it, is connected. `/healthz` only says the process lives.
 */
export class Readiness {
  /** The migrations this build has (server/drizzle): each must have run before an instance is ready. */
  private readonly known = readMigrations(MIGRATIONS_FOLDER);
  private readonly newestKnown = this.known.at(-1)?.when ?? 0;

  constructor(
    private readonly db: Database,
    private readonly fanout: Fanout,
  ) {}

  async check(): Promise<NotReady[]> {
    const down: NotReady[] = [];
    const schema = await this.schemaState();
    if (schema === null) down.push('database');
    else if (schema.applied < this.known.length) down.push('migrations');
    else if (schema.breaking !== null && schema.breaking > this.newestKnown) down.push('schema');
    if (this.fanout.connected && !this.fanout.connected()) down.push('redis');
    return down;
  }

  /** What migrations the database has run; null when it does not answer in time. */
  private async schemaState(): Promise<SchemaState | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), DATABASE_TIMEOUT_MS);
    });
    const query = this.db
      .execute(
        sql`select count(*)::int as n, obj_description('drizzle.__drizzle_migrations'::regclass, 'pg_class') as marker
            from drizzle.__drizzle_migrations`,
      )
      .then((result) => {
        const row = rowsOf<{ n: number; marker: string | null }>(result)[0];
        return { applied: Number(row?.n ?? 0), breaking: breakingMigrationOf(row?.marker) };
      })
      .catch(() => null);
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
