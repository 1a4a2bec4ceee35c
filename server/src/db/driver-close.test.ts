import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The vendored driver's fix (vendor/postgres/ENISHI.md): when PostgreSQL drops a connection with queries on it,
 * every query settles (a result or a connection error) and the connection comes back. The npm release instead
 * left queries waiting for ever after a reset, and could kill the process writing to the closed socket.
 */

const url = process.env.TEST_DATABASE_URL;
/** A query that has not settled by then is taken as hanging. */
const SETTLE_MS = 3000;
const ROUNDS = 6;
const BATCH = 5;
const CONNECTION_ERRORS = ['CONNECTION_CLOSED', 'ECONNRESET', 'EPIPE', '57P01'];

type Outcome = 'ok' | 'hung' | string;

function settled(query: Promise<unknown>): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve('hung'), SETTLE_MS);
  });
  const outcome = query.then(
    (): Outcome => 'ok',
    (error: { code?: string; message?: string }): Outcome => error.code ?? String(error.message),
  );
  return Promise.race([outcome, hung]).finally(() => clearTimeout(timer));
}

describe.skipIf(!url)('the PostgreSQL driver when the server drops a connection', () => {
  let sql: postgres.Sql;
  let admin: postgres.Sql;

  beforeAll(() => {
    sql = postgres(url!, { max: 1, onnotice: () => {} });
    admin = postgres(url!, { max: 1, onnotice: () => {} });
  });

  afterAll(async () => {
    await Promise.all([sql.end({ timeout: 1 }), admin.end({ timeout: 1 })]);
  });

  it('settles every query on a dropped connection and serves the next ones on a new one', async () => {
    const outcomes: Outcome[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const kill = admin`select pg_terminate_backend(${row!.pid})`;
      // Queries sent while the connection goes away: in flight, pipelined, and written after the reset.
      const during = Array.from({ length: BATCH }, (_, i) => settled(sql`select ${i}::int as i`));
      await kill;
      const after = Array.from({ length: BATCH }, (_, i) => settled(sql`select ${i}::int as i`));
      outcomes.push(...(await Promise.all([...during, ...after])));
      // The next round starts once a query succeeds again: a query may still meet the closing connection.
      let next: Outcome = 'hung';
      for (let attempt = 0; attempt < 10 && next !== 'ok'; attempt++) {
        next = await settled(sql`select 1`);
        outcomes.push(next);
      }
      expect(next).toBe('ok');
    }
    const unexpected = outcomes.filter((o) => o !== 'ok' && !CONNECTION_ERRORS.includes(o));
    expect(unexpected).toEqual([]);
    expect(outcomes.filter((o) => o !== 'ok').length).toBeGreaterThan(0);
  }, 60_000);
});
