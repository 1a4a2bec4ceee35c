// PostgreSQL for the benches: a scratch database per run, and the durable-commit floor under every stored
// message (one client, one-row inserts, each commit waiting for its WAL flush).
import { performance } from 'node:perf_hooks';
import { percentile } from './lib.js';

/** A throwaway PostgreSQL database next to the one in the URL; dropped by the returned function. */
export async function scratchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: postgres } = await import('postgres');
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  // BENCH_DB_PREFIX: a prefix of one's own on a PostgreSQL that others use too.
  const name = `${process.env.BENCH_DB_PREFIX ?? 'enishi_bench_'}${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * The floor under "stored before anyone is told" on this PostgreSQL: one client committing one-row inserts
 * one after another (each commit waits for its WAL flush), p50 and p99 in ms.
 */
export async function durableCommitFloor(url: string, count = 1000): Promise<{ p50: number; p99: number }> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table commit_probe (id bigserial primary key, body text not null)`;
    const times: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const start = performance.now();
      await sql`insert into commit_probe (body) values (${`probe ${index}`})`;
      times.push(performance.now() - start);
    }
    await sql`drop table commit_probe`;
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
  } finally {
    await sql.end();
  }
}
