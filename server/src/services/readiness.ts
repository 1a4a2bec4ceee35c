import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { MIGRATIONS_FOLDER } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import type { Fanout } from '../realtime/fanout.js';

/** What /readyz names when it is not ready. */
export type NotReady = 'database' | 'migrations' | 'redis';

/** The database must answer within this, or it counts as down. */
const DATABASE_TIMEOUT_MS = 2000;

/** The migrations in the repository (server/drizzle): each must have run before an instance is ready. */
function migrationsInRepository(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/**
 * Whether this instance can serve (`/readyz`, product.md §20): the database answers and every migration has
 * run, and Redis, when several instances share it, is connected. `/healthz` only says the process lives.
 */
export class Readiness {
  private readonly migrations = migrationsInRepository();

  constructor(
    private readonly db: Database,
    private readonly fanout: Fanout,
  ) {}

  async check(): Promise<NotReady[]> {
    const down: NotReady[] = [];
    const applied = await this.appliedMigrations();
    if (applied === null) down.push('database');
    else if (applied < this.migrations) down.push('migrations');
    if (this.fanout.connected && !this.fanout.connected()) down.push('redis');
    return down;
  }

  /** How many migrations the database has run; null when it does not answer in time. */
  private async appliedMigrations(): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), DATABASE_TIMEOUT_MS);
    });
    const query = this.db
      .execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
      .then((result) => Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0))
      .catch(() => null);
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
