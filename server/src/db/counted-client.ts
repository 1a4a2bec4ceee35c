import type { Sql } from 'postgres';
import { metrics } from '../lib/metrics.js';

/*
 * The database queue depth on PostgreSQL (product.md §10.3, `enishi_queue_depth{queue="database"}`): the
 * queries and transactions handed to postgres.js and not yet answered, whether waiting for one of the pool's
 * connections, pipelined behind others on one, or running. postgres.js keeps its queues to itself, so the
 * client is wrapped where drizzle and raw.ts reach it: `unsafe` (every statement) and `begin` (a
 * transaction, its own statements counted too). The PGlite worker counts its own (pglite-worker-client.ts).
 */

/** Counts `work` in the gauge until it settles; returns it as it was. */
function counted<T extends PromiseLike<unknown>>(work: T): T {
  metrics.queue('database', 1);
  const done = () => metrics.queue('database', -1);
  // postgres.js sends a query once it is awaited; this does that one microtask early, after the caller's
  // synchronous `.values()` (drizzle) has chosen how the rows come back.
  work.then(done, done);
  return work;
}

/** The client, with its statements and transactions counted in the database queue depth. */
export function countQueries<T extends Sql>(client: T): T {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'unsafe') {
        return (...args: unknown[]) =>
          counted((value as (...a: unknown[]) => PromiseLike<unknown>).apply(target, args));
      }
      if (key === 'begin') {
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const body = args[last] as (tx: Sql) => unknown;
          args[last] = (tx: Sql) => body(countQueries(tx));
          return counted((value as (...a: unknown[]) => PromiseLike<unknown>).apply(target, args));
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}
