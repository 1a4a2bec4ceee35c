import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { metrics } from '../lib/metrics.js';
import { createPostgresDatabase, ENGINES, openCreatedDatabase } from '../test/database.js';
import { openDatabase } from './client.js';

/** The gauge as /metrics shows it. */
async function databaseQueue(): Promise<number> {
  const text = await metrics.text();
  return Number(/^enishi_queue_depth\{queue="database"\} (\S+)$/m.exec(text)?.[1]);
}

describe.each(ENGINES)('the database queue depth on %s', (engine) => {
  it('counts the queries waiting behind a transaction, and falls back when they are answered', async () => {
    // As the server opens it: PostgreSQL, or the embedded database in its worker thread.
    const database =
      engine === 'postgres'
        ? await openCreatedDatabase(await createPostgresDatabase())
        : await openDatabase({ pgliteWorker: true });
    try {
      await database.db.execute(sql`select 1`);
      const idle = await databaseQueue();
      expect(idle).toBe(0);

      // A transaction holds a lock (on the embedded database, its one session) until released.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const holder = database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(27)`);
        locked();
        await released;
      });
      await holding;
      // drizzle sends a query once it is awaited (then).
      const waiting = [1, 2, 3].map(() =>
        database.db.execute(sql`select pg_advisory_xact_lock(27)`).then(() => {}),
      );
      await vi.waitFor(async () => expect(await databaseQueue()).toBeGreaterThanOrEqual(3));

      release();
      await Promise.all([holder, ...waiting]);
      await vi.waitFor(async () => expect(await databaseQueue()).toBe(0));
    } finally {
      await database.close();
    }
  }, 60_000);
});
