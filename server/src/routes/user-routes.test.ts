import { GetUserReply, ja } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';

describe('/api/getuser', () => {
  let ctx: TestContext;
  let man: TestUser;
  let woman: TestUser;
  let staff: TestUser;
  let manSsid: string;
  let staffSsid: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    man = await createUser(ctx.app, { loginId: 'taro', role: 101, name: '山田太郎', rank: 3 });
    woman = await createUser(ctx.app, { loginId: 'hanako', role: 201, name: '佐藤花子' });
    staff = await createUser(ctx.app, { loginId: 'staff-a', role: 6, name: 'スタッフA' });
    manSsid = await login(ctx.app, man);
    staffSsid = await login(ctx.app, staff);
  });
  afterAll(() => ctx.close());

  it('gives members their own row, in the contract shape and without the password', async () => {
    const reply = await call(ctx.app, 'getuser', { ssid: manSsid, uid: man.uid });
    expect(reply.status).toBe(200);
    const { rows } = GetUserReply.parse(reply.body);
    expect(rows).toEqual([
      {
        uid: man.uid,
        id: 'taro',
        name: '山田太郎',
        name_kana: null,
        role: 101,
        rank: 3,
        introducer: '',
        image: null,
        username: '山田太郎',
        user_image: null,
        unreads: '{"men":{},"women":{},"staff":{}}',
      },
    ]);
    expect(JSON.stringify(reply.body)).not.toMatch(/password|argon/i);
  });

  it('accepts uid as a numeric string, as the original client sends it', async () => {
    expect((await call(ctx.app, 'getuser', { ssid: manSsid, uid: String(man.uid) })).status).toBe(200);
  });

  it('answers 404 when a member asks for someone else, exactly as for nobody', async () => {
    const other = await call(ctx.app, 'getuser', { ssid: manSsid, uid: woman.uid });
    const nobody = await call(ctx.app, 'getuser', { ssid: manSsid, uid: 999_999 });
    expect(other).toMatchObject({ status: 404, body: { error: ja.errors.notFound } });
    expect(nobody.body).toEqual(other.body);
    expect(nobody.status).toBe(other.status);
  });

  it('lets staff (roles 1 to 6) read anyone, and answers 404 for nobody', async () => {
    const reply = await call(ctx.app, 'getuser', { ssid: staffSsid, uid: woman.uid });
    expect(reply.status).toBe(200);
    expect(GetUserReply.parse(reply.body).rows[0]).toMatchObject({ uid: woman.uid, id: 'hanako', role: 201 });
    expect(await call(ctx.app, 'getuser', { ssid: staffSsid, uid: 999_999 })).toMatchObject({
      status: 404,
      body: { error: ja.errors.notFound },
    });
  });

  it.each([
    ['a missing uid', {}],
    ['a uid of the wrong type', { uid: true }],
    ['a uid that is not a number', { uid: 'abc' }],
    ['a negative uid', { uid: -1 }],
    ['a fractional uid', { uid: 1.5 }],
    ['an enormous uid', { uid: 1e12 }],
    ['an unknown field', { uid: 1, role: 1 }],
  ])('refuses %s with 400', async (_case, body) => {
    const reply = await call(ctx.app, 'getuser', { ssid: manSsid, ...body });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9faf]/) });
  });

  it('answers 401 before looking at the body when there is no valid session', async () => {
    for (const body of [
      { uid: man.uid },
      { ssid: '', uid: man.uid },
      { ssid: 'x'.repeat(300) },
      { ssid: 'x'.repeat(43), uid: 1 },
    ]) {
      expect(await call(ctx.app, 'getuser', body)).toMatchObject({
        status: 401,
        body: { error: ja.errors.unauthorized },
      });
    }
  });
});
