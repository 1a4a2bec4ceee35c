import { ApplicationsReply, ja, jaIntro } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';

const ENTRY = {
  type: 'female',
  name: '鈴木さくら',
  age: '24',
  email: 'sakura@example.jp',
  tel: '090-1234-5678',
};

describe('/api/entry and /api/applications', () => {
  let ctx: TestContext;
  let staffSsid: string;
  let memberSsid: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    staffSsid = await login(ctx.app, await createUser(ctx.app, { loginId: 'admin', role: 1 }));
    memberSsid = await login(ctx.app, await createUser(ctx.app, { loginId: 'member', role: 101 }));
  });
  afterAll(() => ctx.close());

  describe('/api/entry', () => {
    it('stores an application without a session and answers OK', async () => {
      const reply = await call(ctx.app, 'entry', ENTRY);
      expect(reply).toMatchObject({ status: 200, body: { status: 'OK' } });
      const list = ApplicationsReply.parse(
        (await call(ctx.app, 'applications', { ssid: staffSsid, page: 0 })).body,
      );
      expect(list.rows[0]).toMatchObject({
        type: 'female',
        name: '鈴木さくら',
        age: 24,
        email: 'sakura@example.jp',
        tel: '090-1234-5678',
      });
      expect(new Date(list.rows[0]!.created_at).toISOString()).toBe(list.rows[0]!.created_at);
    });

    it('accepts full-width digits and a session a logged-in phone still attaches', async () => {
      const reply = await call(ctx.app, 'entry', { ...ENTRY, type: 'male', age: '３５', ssid: memberSsid });
      expect(reply).toMatchObject({ status: 200, body: { status: 'OK' } });
    });

    it.each([
      ['no name', { name: '' }, jaIntro.nameRequired],
      ['no age', { age: '' }, jaIntro.ageRequired],
      ['no email', { email: '' }, jaIntro.emailRequired],
      ['no tel', { tel: '' }, jaIntro.telRequired],
      ['a missing name', { name: undefined }, jaIntro.nameRequired],
      ['an age that is not a number', { age: 'twenty' }, jaIntro.ageInvalid],
      ['a woman under 20', { age: '19' }, jaIntro.ageUnder20],
      ['a bad email', { email: 'not-an-email' }, jaIntro.emailInvalid],
      ['a bad tel', { tel: 'call me' }, jaIntro.telInvalid],
      ['a name over 50 characters', { name: 'あ'.repeat(51) }, jaIntro.nameTooLong(50)],
      ['a woman of 17 (her age, not its digits)', { age: '17' }, jaIntro.ageUnder20],
      ['a man of 17', { type: 'male', age: '17' }, jaIntro.ageUnder18],
      ['an age over 120', { age: '121' }, jaIntro.ageInvalid],
      ['an email without a domain', { email: 'hanako@example' }, jaIntro.emailInvalid],
      ['an unknown type', { type: 'other' }, ja.errors.badRequest],
      ['a name of the wrong type', { name: 12 }, jaIntro.nameRequired],
      ['an unknown field', { note: 'x' }, ja.errors.unknownField],
    ])('refuses %s with its message', async (_case, change, error) => {
      expect(await call(ctx.app, 'entry', { ...ENTRY, ...change })).toMatchObject({
        status: 400,
        body: { error },
      });
    });

    it('limits applications per address', async () => {
      const limited = await ctx.buildApp({ ENTRIES_PER_ADDRESS: '2' });
      expect((await call(limited, 'entry', ENTRY)).status).toBe(200);
      expect((await call(limited, 'entry', ENTRY)).status).toBe(200);
      expect(await call(limited, 'entry', ENTRY)).toMatchObject({
        status: 429,
        body: { error: ja.errors.rateLimited },
      });
    });
  });

  describe('/api/applications', () => {
    it('pages newest first, 20 at a time, with isEnd', async () => {
      for (let i = 0; i < 25; i += 1) {
        expect((await call(ctx.app, 'entry', { ...ENTRY, name: `申込${i}` })).status).toBe(200);
      }
      const first = ApplicationsReply.parse(
        (await call(ctx.app, 'applications', { ssid: staffSsid, page: 0 })).body,
      );
      expect(first.rows).toHaveLength(20);
      expect(first.rows[0]?.name).toBe('申込24');
      expect(first.isEnd).toBe(false);
      const ids = first.rows.map((row) => row.id);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);

      const second = ApplicationsReply.parse(
        (await call(ctx.app, 'applications', { ssid: staffSsid, page: '1' })).body,
      );
      expect(second.isEnd).toBe(true);
      expect(second.rows.length).toBeGreaterThan(0);
      expect(second.rows[0]!.id).toBeLessThan(ids.at(-1)!);

      const beyond = ApplicationsReply.parse(
        (await call(ctx.app, 'applications', { ssid: staffSsid, page: 50 })).body,
      );
      expect(beyond).toMatchObject({ rows: [], isEnd: true });
    });

    it('defaults to the first page', async () => {
      await call(ctx.app, 'entry', { ...ENTRY, name: '初頁 花子' });
      const reply = ApplicationsReply.parse((await call(ctx.app, 'applications', { ssid: staffSsid })).body);
      expect(reply.rows[0]?.name).toBe('初頁 花子');
      expect(reply).toEqual(
        ApplicationsReply.parse((await call(ctx.app, 'applications', { ssid: staffSsid, page: 0 })).body),
      );
    });

    it('is forbidden to members', async () => {
      expect(await call(ctx.app, 'applications', { ssid: memberSsid, page: 0 })).toMatchObject({
        status: 403,
        body: { error: ja.errors.forbidden },
      });
    });

    it('needs a session, then a valid page', async () => {
      expect(await call(ctx.app, 'applications', { page: 0 })).toMatchObject({
        status: 401,
        body: { error: ja.errors.unauthorized },
      });
      for (const page of [-1, 'abc', 1.5, 1e9]) {
        expect((await call(ctx.app, 'applications', { ssid: staffSsid, page })).status).toBe(400);
      }
    });
  });

  describe('/api/applications/handle (the staff inbox)', () => {
    const list = async () =>
      ApplicationsReply.parse((await call(ctx.app, 'applications', { ssid: staffSsid, page: 0 })).body);

    it('counts new applications and marks one handled, once', async () => {
      await call(ctx.app, 'entry', { ...ENTRY, name: '受付 花子' });
      const before = await list();
      const row = before.rows[0]!;
      expect(row).toMatchObject({ name: '受付 花子', handled: false, member_uid: null });
      expect(before.newCount).toBeGreaterThan(0);

      const handle = { ssid: staffSsid, id: row.id };
      expect(await call(ctx.app, 'applications/handle', handle)).toMatchObject({
        status: 200,
        body: { status: 'OK' },
      });
      const after = await list();
      expect(after.rows[0]).toMatchObject({ id: row.id, handled: true });
      expect(after.newCount).toBe(before.newCount! - 1);
      // Again: still handled, the count does not move.
      expect((await call(ctx.app, 'applications/handle', handle)).status).toBe(200);
      expect((await list()).newCount).toBe(after.newCount);
    });

    it('keeps the member made from an application', async () => {
      await call(ctx.app, 'entry', { ...ENTRY, name: '入会 予定' });
      const row = (await list()).rows[0]!;
      const woman = await createUser(ctx.app, { loginId: 'from-application', role: 201 });
      const staff = await createUser(ctx.app, { loginId: 'another-staff', role: 3 });
      const body = { ssid: staffSsid, id: row.id };
      expect((await call(ctx.app, 'applications/handle', { ...body, member_uid: staff.uid })).status).toBe(
        404,
      );
      expect((await call(ctx.app, 'applications/handle', { ...body, member_uid: woman.uid })).status).toBe(
        200,
      );
      expect((await list()).rows[0]).toMatchObject({ id: row.id, handled: true, member_uid: woman.uid });
    });

    it('is for staff only, and 404 for an unknown application', async () => {
      await call(ctx.app, 'entry', { ...ENTRY, name: '権限 確認' });
      const row = (await list()).rows[0]!;
      expect((await call(ctx.app, 'applications/handle', { ssid: memberSsid, id: row.id })).status).toBe(403);
      expect((await call(ctx.app, 'applications/handle', { id: row.id })).status).toBe(401);
      expect((await call(ctx.app, 'applications/handle', { ssid: staffSsid, id: 999_999 })).status).toBe(404);
    });
  });
});
