import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessFanout } from '../realtime/fanout.js';
import { Readiness } from '../services/readiness.js';
import { createTestContext, type TestContext } from '../test/app.js';
import { openTestDatabase } from '../test/database.js';

/** An in-process fan-out that says whether Redis would be connected, as RedisFanout does. */
class SwitchedFanout extends InProcessFanout {
  up = true;
  connected(): boolean {
    return this.up;
  }
}

describe('/readyz', () => {
  let ctx: TestContext;
  const fanout = new SwitchedFanout();

  beforeAll(async () => {
    ctx = await createTestContext({ deps: { fanout } });
  });
  afterAll(() => ctx.close());

  it('answers 200 when the database answers, every migration ran and Redis is connected', async () => {
    const reply = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 naming Redis while it is away, and 200 again once it is back', async () => {
    fanout.up = false;
    const down = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', down: ['redis'] });
    fanout.up = true;
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 naming migrations that have not run', async () => {
    // A database of its own: the others here need every migration in place.
    const behind = await createTestContext();
    try {
      await behind.database.db.execute(
        'delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)',
      );
      const reply = await behind.app.inject({ method: 'GET', url: '/readyz' });
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toEqual({ status: 'unavailable', down: ['migrations'] });
      // /healthz is liveness only: the process answers.
      expect((await behind.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await behind.close();
    }
  });

  it('names the database when it does not answer', async () => {
    const database = await openTestDatabase();
    await database.close();
    expect(await new Readiness(database.db, new InProcessFanout()).check()).toEqual(['database']);
  });
});
