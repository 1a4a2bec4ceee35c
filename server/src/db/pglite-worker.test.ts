import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { bigint, date, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRepository } from '../repositories/user-repository.js';
import { openDatabase, type Database, type DatabaseHandle } from './client.js';

const things = pgTable('worker_things', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  at: timestamp('at', { withTimezone: true }),
  plain: timestamp('plain'),
  day: date('day'),
  data: jsonb('data').$type<{ list: number[]; nested: { ok: boolean } }>(),
  big: bigint('big', { mode: 'bigint' }),
  count: integer('count').notNull().default(0),
});

const CREATE = sql`
  create table worker_things (
    id serial primary key, name text not null unique, at timestamptz, plain timestamp, day date,
    data jsonb, big bigint, count integer not null default 0
  )`;

const names = (db: Database) =>
  db
    .select({ name: things.name })
    .from(things)
    .orderBy(things.name)
    .then((rows) => rows.map((row) => row.name));

/** The cause chain as drizzle wraps it (DrizzleQueryError -> the driver's error). */
function rootCause(error: unknown): Record<string, unknown> {
  let current = error as { cause?: unknown };
  while (current.cause) current = current.cause as { cause?: unknown };
  return current as Record<string, unknown>;
}

describe('embedded PGlite in a worker thread', () => {
  let worker: DatabaseHandle;
  let inThread: DatabaseHandle;

  beforeAll(async () => {
    [worker, inThread] = await Promise.all([openDatabase({ pgliteWorker: true }), openDatabase({})]);
    for (const handle of [worker, inThread]) await handle.db.execute(CREATE);
  });
  afterAll(async () => {
    await Promise.all([worker?.close(), inThread?.close()]);
  });

  it('runs queries and hands back the same values as PGlite in the thread (dates, json, bigint)', async () => {
    const row = {
      name: 'values',
      at: new Date('2024-05-06T07:08:09.123Z'),
      plain: new Date('2024-05-06T07:08:09.000Z'),
      day: '2024-05-06',
      data: { list: [1, 2, 3], nested: { ok: true } },
      big: 9_007_199_254_740_993n,
    };
    const results = [];
    for (const { db } of [worker, inThread]) {
      // Ids and other rows depend on what ran before in this file: only this row's values are compared.
      const [inserted] = await db.insert(things).values(row).returning();
      const [selected] = await db.select().from(things).where(eq(things.name, 'values'));
      // The whole driver result, as db.execute gives it on PGlite.
      const raw = (await db.execute(
        sql`select at, data, big, count, now() - now() as gap, array[1.5, 2]::numeric[] as nums from worker_things where name = 'values'`,
      )) as unknown as { rows: unknown[]; fields: unknown[] };
      results.push({
        inserted: { ...inserted, id: 0 },
        selected: { ...selected, id: 0 },
        raw: raw.rows,
        fields: raw.fields,
      });
    }
    const [viaWorker, viaThread] = results;
    expect(viaWorker?.selected).toMatchObject({ ...row, count: 0 });
    expect(viaWorker?.selected?.at).toBeInstanceOf(Date);
    expect(viaWorker).toEqual(viaThread);
  });

  it('commits a transaction whose callback resolves, nested savepoints included', async () => {
    const result = await worker.db.transaction(async (tx) => {
      await tx.insert(things).values({ name: 'commit-a' });
      await tx
        .transaction(async (inner) => {
          await inner.insert(things).values({ name: 'savepoint-undone' });
          throw new Error('undo the savepoint only');
        })
        .catch(() => {});
      await tx.insert(things).values({ name: 'commit-b' });
      return 'done';
    });
    expect(result).toBe('done');
    expect(await names(worker.db)).toEqual(expect.arrayContaining(['commit-a', 'commit-b']));
    expect(await names(worker.db)).not.toContain('savepoint-undone');
  });

  it('rolls back a transaction whose callback throws, and passes the error on', async () => {
    const failure = new Error('changed my mind');
    await expect(
      worker.db.transaction(async (tx) => {
        await tx.insert(things).values({ name: 'rolled-back' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(
      worker.db.transaction(async (tx) => {
        await tx.insert(things).values({ name: 'rolled-back-too' });
        tx.rollback();
      }),
    ).rejects.toThrow(/Rollback/);
    expect(await names(worker.db)).not.toContain('rolled-back');
    expect(await names(worker.db)).not.toContain('rolled-back-too');
  });

  it('brings PostgreSQL errors back with their fields, e.g. a unique violation', async () => {
    const failures = [];
    for (const { db } of [worker, inThread]) {
      await db.insert(things).values({ name: 'unique' });
      failures.push(
        await db
          .insert(things)
          .values({ name: 'unique' })
          .then(
            () => null,
            (error: unknown) => error,
          ),
      );
    }
    const [viaWorker, viaThread] = failures.map(rootCause);
    expect(failures[0]).toBeInstanceOf(Error);
    expect(viaWorker).toBeInstanceOf(Error);
    expect(viaWorker).toMatchObject({
      code: '23505',
      constraint: 'worker_things_name_key',
      detail: 'Key (name)=(unique) already exists.',
      table: 'worker_things',
    });
    const { stack: _workerStack, queryOptions: _workerOptions, ...workerFields } = { ...viaWorker };
    const { stack: _threadStack, queryOptions: _threadOptions, ...threadFields } = { ...viaThread };
    expect({ ...workerFields, name: viaWorker?.name, message: viaWorker?.message }).toEqual({
      ...threadFields,
      name: viaThread?.name,
      message: viaThread?.message,
    });

    // A failed statement aborts its transaction, which then rolls back as a whole.
    await expect(
      worker.db.transaction(async (tx) => {
        await tx.insert(things).values({ name: 'before-conflict' });
        await tx.insert(things).values({ name: 'unique' });
      }),
    ).rejects.toSatisfy((error) => rootCause(error).code === '23505');
    expect(await names(worker.db)).not.toContain('before-conflict');
  });

  it('makes other queries wait for an open transaction instead of running inside it', async () => {
    await worker.db.insert(things).values({ name: 'counter', count: 0 });
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let barrier!: () => Promise<unknown>;

    const transaction = worker.db.transaction(async (tx) => {
      await tx.update(things).set({ count: 1 }).where(eq(things.name, 'counter'));
      // The worker takes requests in order: once this one, sent after the outside query, is answered, the
      // outside query has reached PGlite and is waiting (or, if the lock were broken, already answered).
      barrier = () => tx.select({ count: things.count }).from(things).where(eq(things.name, 'counter'));
      entered();
      await held;
      await tx.update(things).set({ count: 2 }).where(eq(things.name, 'counter'));
      order.push('transaction');
      throw new Error('roll it all back');
    });
    await inside;
    // Sent while the transaction is open: it must not see (or join) the uncommitted count 1 or 2.
    const outside = worker.db
      .select({ count: things.count })
      .from(things)
      .where(eq(things.name, 'counter'))
      .then(([row]) => {
        order.push('outside');
        return row?.count;
      });
    expect(await barrier()).toEqual([{ count: 1 }]);
    expect(order).toEqual([]);
    release();
    await expect(transaction).rejects.toThrow('roll it all back');
    expect(await outside).toBe(0);
    expect(order).toEqual(['transaction', 'outside']);
  });

  it('runs many concurrent queries and transactions without mixing them up', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2
          ? worker.db.transaction(async (tx) => {
              await tx.insert(things).values({ name: `many-${index}` });
              await tx
                .update(things)
                .set({ count: index })
                .where(eq(things.name, `many-${index}`));
            })
          : worker.db.insert(things).values({ name: `many-${index}`, count: index }),
      ),
    );
    const rows = await worker.db
      .select({ name: things.name, count: things.count })
      .from(things)
      .where(sql`${things.name} like 'many-%'`);
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row.count).toBe(Number(row.name.slice('many-'.length)));
  });
});

describe('a migrated database on disk in a worker thread', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'enishi-worker-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  // Two opens of a data directory in a worker thread, the first empty (initdb) and migrated from nothing: seconds
  // alone, and past 30 s in a CI run on a slow machine beside the other steps. Like the other tests that open
  // empty data directories (data-dir-lock, demo, backup), it has a minute.
  it('migrates, serves a repository, closes, and keeps the data for the next open', async () => {
    const first = await openDatabase({ pgliteDir: dataDir, pgliteWorker: true });
    await first.migrate();
    const users = new UserRepository(first.db);
    const created = await users.create({ loginId: 'worker-1', name: '一郎', passwordHash: 'h', role: 101 });
    expect(created?.createdAt).toBeInstanceOf(Date);
    expect(
      await users.create({ loginId: 'worker-1', name: '二郎', passwordHash: 'h', role: 101 }),
    ).toBeNull();
    await first.close();
    await expect(first.db.execute(sql`select 1`)).rejects.toThrow();

    const again = await openDatabase({ pgliteDir: dataDir, pgliteWorker: true });
    try {
      await again.migrate();
      expect(await new UserRepository(again.db).findByLoginId('worker-1')).toEqual(created);
    } finally {
      await again.close();
    }
  }, 60_000);
});
