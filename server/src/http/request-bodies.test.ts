import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ja } from '@enishi/contract';
import { call, callRaw, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { ROLES } from '../test/content.js';
import { PRE_SESSION_BYTES } from './request-bodies.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A news body over the pre-session size, its ssid first or last as asked. */
function largeNews(ssid: string, ssidFirst: boolean): string {
  const fields = `"title":"t","body":"${'b'.repeat(PRE_SESSION_BYTES)}","type":1`;
  return ssidFirst ? `{"ssid":"${ssid}",${fields}}` : `{${fields},"ssid":"${ssid}"}`;
}

describe('bodies before a session', () => {
  let ctx: TestContext;
  let staff: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    staff = await login(ctx.app, await createUser(ctx.app, { loginId: 'body-staff', role: ROLES.staff }));
  });
  afterAll(() => ctx.close());

  it('refuses deeply nested JSON as malformed, before any call sees it', async () => {
    for (const depth of [65, 16_000, 30_000]) {
      const reply = await callRaw(
        ctx.app,
        'login',
        `{"id":${nested(depth)},"password":"x"}`,
        'application/json',
      );
      expect(reply).toMatchObject({ status: 400, body: { error: ja.errors.malformedJson } });
    }
    const shallow = await call(ctx.app, 'login', { id: [[['a']]], password: 'x' });
    expect(shallow.status).toBe(400);
  });

  it('reads a large body only when it begins with a valid session', async () => {
    const first = await callRaw(ctx.app, 'news/add', largeNews(staff, true), 'application/json');
    // Past the session, the body is read and validated: the text is over the news body limit.
    expect(first.status).toBe(400);
    expect(first.body).not.toEqual({ error: ja.errors.unauthorized });

    for (const body of [largeNews(staff, false), largeNews('not-a-session', true)]) {
      const refused = await callRaw(ctx.app, 'news/add', body, 'application/json');
      expect(refused).toMatchObject({ status: 401, body: { error: ja.errors.unauthorized } });
    }
  });
});
