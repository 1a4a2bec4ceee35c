import { CALLS, ja } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, type TestContext } from '../test/app.js';

describe("the contract's call map", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  // The server can only declare calls the map names; this checks the other way round.
  it.each(Object.keys(CALLS))('/api/%s is served', async (name) => {
    const reply = await call(ctx.app, name, { ssid: 'no-such-session' });
    expect(reply.status).not.toBe(404);
    expect(reply.body).not.toEqual({ error: ja.errors.notFound });
  });
});
