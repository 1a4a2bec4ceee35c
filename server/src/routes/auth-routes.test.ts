import { AuthReply, LoginReply, ja, jaMember } from '@enishi/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../db/schema.js';
import {
  call,
  callRaw,
  createTestContext,
  createUser,
  login,
  type TestContext,
  type TestUser,
} from '../test/app.js';

const SUBSCRIPTION = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
  expirationTime: null,
  keys: { p256dh: 'BNcRd', auth: 'tBHI' },
};

describe('login, logout, subscript, auth', () => {
  let ctx: TestContext;
  let member: TestUser;
  let staff: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    member = await createUser(ctx.app, { loginId: 'hanako', role: 201, name: '花子', rank: 2 });
    staff = await createUser(ctx.app, { loginId: 'staff-1', role: 3, name: 'スタッフ一郎' });
  });
  afterAll(() => ctx.close());

  describe('/api/login', () => {
    it('answers uid, role, rank, name, a session and a device token', async () => {
      const reply = await call(ctx.app, 'login', { id: 'hanako', password: member.password });
      expect(reply.status).toBe(200);
      const body = LoginReply.parse(reply.body);
      expect(body).toEqual({
        uid: member.uid,
        role: 201,
        rank: 2,
        name: '花子',
        session: body.session,
        device: body.device,
      });
      expect(Object.keys(reply.body as object).sort()).toEqual([
        'device',
        'name',
        'rank',
        'role',
        'session',
        'uid',
      ]);
      expect(reply.headers['cache-control']).toBe('no-store');
    });

    it('starts a new session at each login, and both stay valid', async () => {
      const first = await login(ctx.app, member);
      const second = await login(ctx.app, member);
      expect(first).not.toBe(second);
      for (const ssid of [first, second]) {
        expect((await call(ctx.app, 'auth', { ssid, uid: member.uid })).body).toEqual({ status: 'accepted' });
      }
    });

    it('gives the same answer for an unknown ID and a wrong password', async () => {
      const unknown = await call(ctx.app, 'login', { id: 'nobody', password: 'whatever1' });
      const wrong = await call(ctx.app, 'login', { id: 'hanako', password: 'whatever1' });
      expect(unknown).toMatchObject({ status: 401, body: { error: ja.errors.loginFailed } });
      expect(wrong).toMatchObject({ status: 401, body: { error: ja.errors.loginFailed } });
      expect(unknown.body).toEqual(wrong.body);
    });

    it.each([
      ['missing fields', {}, ja.errors.loginMissing],
      ['a missing password', { id: 'hanako' }, ja.errors.loginMissing],
      ['empty strings', { id: '', password: '' }, ja.errors.loginMissing],
      ['wrong types', { id: 1, password: true }, ja.errors.loginMissing],
      ['an over-long ID', { id: 'a'.repeat(25), password: 'x' }, ja.errors.loginFailed],
      ['an over-long password', { id: 'hanako', password: 'x'.repeat(129) }, ja.errors.loginFailed],
      ['an unknown field', { id: 'hanako', password: 'x', extra: 1 }, ja.errors.unknownField],
      ['an array', [1, 2], ja.errors.badRequest],
    ])('refuses %s with 400', async (_case, body, error) => {
      expect(await call(ctx.app, 'login', body)).toMatchObject({ status: 400, body: { error } });
    });

    it('refuses malformed JSON and other content types with 400', async () => {
      const bad = [
        await callRaw(ctx.app, 'login', '{"id": "hanako", ', 'application/json'),
        await callRaw(ctx.app, 'login', '', 'application/json'),
        await callRaw(ctx.app, 'login', 'id=hanako&password=x', 'application/x-www-form-urlencoded'),
        await callRaw(ctx.app, 'login', '{"id":"hanako"}', 'text/plain'),
        await callRaw(ctx.app, 'login', '{"__proto__": {"x": 1}}', 'application/json'),
      ];
      for (const reply of bad)
        expect(reply).toMatchObject({ status: 400, body: { error: ja.errors.malformedJson } });
    });

    it('locks an account after 5 failures, for unknown IDs too, without locking others', async () => {
      const limited = await ctx.buildApp({ LOGIN_FAILURES_PER_ACCOUNT: '5' });
      for (let i = 0; i < 5; i += 1) {
        expect((await call(limited, 'login', { id: 'staff-1', password: 'wrong-pw' })).status).toBe(401);
        expect((await call(limited, 'login', { id: 'ghost', password: 'wrong-pw' })).status).toBe(401);
      }
      const locked = await call(limited, 'login', { id: 'staff-1', password: staff.password });
      expect(locked).toEqual(
        expect.objectContaining({ status: 429, body: { error: ja.errors.rateLimited } }),
      );
      expect((await call(limited, 'login', { id: 'ghost', password: 'wrong-pw' })).status).toBe(429);
      expect((await call(limited, 'login', { id: 'hanako', password: member.password })).status).toBe(200);
    });

    it('forgets earlier failures after a successful login', async () => {
      const limited = await ctx.buildApp({ LOGIN_FAILURES_PER_ACCOUNT: '2' });
      expect((await call(limited, 'login', { id: 'hanako', password: 'wrong-pw' })).status).toBe(401);
      expect((await call(limited, 'login', { id: 'hanako', password: member.password })).status).toBe(200);
      expect((await call(limited, 'login', { id: 'hanako', password: 'wrong-pw' })).status).toBe(401);
      expect((await call(limited, 'login', { id: 'hanako', password: member.password })).status).toBe(200);
    });

    it('limits attempts per client address', async () => {
      const limited = await ctx.buildApp({ LOGIN_ATTEMPTS_PER_ADDRESS: '3' });
      for (let i = 0; i < 3; i += 1) {
        expect((await call(limited, 'login', { id: `user-${i}`, password: 'wrong-pw' })).status).toBe(401);
      }
      expect(await call(limited, 'login', { id: 'hanako', password: member.password })).toMatchObject({
        status: 429,
        body: { error: ja.errors.rateLimited },
      });
    });
  });

  describe('/api/logout', () => {
    it('ends the session: it is refused afterwards', async () => {
      const ssid = await login(ctx.app, member);
      const other = await login(ctx.app, member);
      const reply = await call(ctx.app, 'logout', {
        ssid,
        userId: member.uid,
        subscript: SUBSCRIPTION,
        oldSubscript: null,
      });
      expect(reply).toMatchObject({ status: 200, body: { status: 'OK' } });
      expect((await call(ctx.app, 'auth', { ssid, uid: member.uid })).body).toEqual({ status: 'rejected' });
      expect(await call(ctx.app, 'logout', { ssid })).toMatchObject({
        status: 401,
        body: { error: ja.errors.unauthorized },
      });
      expect(await call(ctx.app, 'getuser', { ssid, uid: member.uid })).toMatchObject({ status: 401 });
      // Only that device is logged out.
      expect((await call(ctx.app, 'auth', { ssid: other, uid: member.uid })).body).toEqual({
        status: 'accepted',
      });
    });

    it('needs a session before anything else', async () => {
      for (const body of [{}, { ssid: 'nope' }, { ssid: 5 }, { userId: 'x', extra: true }, null, 'text']) {
        expect(await call(ctx.app, 'logout', body)).toMatchObject({
          status: 401,
          body: { error: ja.errors.unauthorized },
        });
      }
    });

    it('validates the body once the session is known', async () => {
      const ssid = await login(ctx.app, member);
      expect(await call(ctx.app, 'logout', { ssid, extra: 1 })).toMatchObject({
        status: 400,
        body: { error: ja.errors.unknownField },
      });
      expect(await call(ctx.app, 'logout', { ssid, userId: 'abc' })).toMatchObject({
        status: 400,
        body: { error: ja.errors.badRequest },
      });
      // Still logged in: a refused logout changes nothing.
      expect((await call(ctx.app, 'auth', { ssid, uid: member.uid })).body).toEqual({ status: 'accepted' });
    });
  });

  describe('/api/subscript', () => {
    it('keeps the push subscription for the caller', async () => {
      const ssid = await login(ctx.app, member);
      const reply = await call(ctx.app, 'subscript', { ssid, userId: member.uid, subscript: SUBSCRIPTION });
      expect(reply).toMatchObject({ status: 200, body: { status: 'OK' } });
      const rows = await ctx.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, SUBSCRIPTION.endpoint));
      expect(rows[0]).toMatchObject({ userId: member.uid, p256dh: SUBSCRIPTION.keys.p256dh });
    });

    it('refuses a subscription that is not https or has unknown fields', async () => {
      const ssid = await login(ctx.app, member);
      for (const subscript of [
        { ...SUBSCRIPTION, endpoint: 'http://push.example/x' },
        { ...SUBSCRIPTION, extra: 1 },
        { endpoint: SUBSCRIPTION.endpoint },
      ]) {
        expect((await call(ctx.app, 'subscript', { ssid, subscript })).status).toBe(400);
      }
    });

    it('needs a session', async () => {
      expect(await call(ctx.app, 'subscript', { subscript: SUBSCRIPTION })).toMatchObject({
        status: 401,
        body: { error: ja.errors.unauthorized },
      });
    });
  });

  describe('/api/auth', () => {
    it('accepts only a valid session of that very user', async () => {
      const ssid = await login(ctx.app, member);
      const check = async (body: unknown) => {
        const reply = await call(ctx.app, 'auth', body);
        expect(reply.status).toBe(200);
        return AuthReply.parse(reply.body).status;
      };
      expect(await check({ ssid, uid: member.uid })).toBe('accepted');
      expect(await check({ ssid, uid: String(member.uid) })).toBe('accepted');
      expect(await check({ ssid, uid: staff.uid })).toBe('rejected');
      expect(await check({ ssid })).toBe('rejected');
      expect(await check({ ssid: 'unknown', uid: member.uid })).toBe('rejected');
      expect(await check({ ssid, uid: member.uid, extra: 1 })).toBe('rejected');
      expect(await check({ ssid: 5, uid: member.uid })).toBe('rejected');
      expect(await check({})).toBe('rejected');
      expect(await check(null)).toBe('rejected');
    });

    it('still answers 400 for a body that is not JSON', async () => {
      expect(await callRaw(ctx.app, 'auth', 'ssid=x', 'application/x-www-form-urlencoded')).toMatchObject({
        status: 400,
        body: { error: ja.errors.malformedJson },
      });
    });

    it('rejects the sessions of a deleted user, and other calls answer 401', async () => {
      const leaver = await createUser(ctx.app, { loginId: 'leaver', role: 101 });
      const ssid = await login(ctx.app, leaver);
      await ctx.app.services.users.delete(leaver.uid);
      expect((await call(ctx.app, 'auth', { ssid, uid: leaver.uid })).body).toEqual({ status: 'rejected' });
      expect(await call(ctx.app, 'getuser', { ssid, uid: leaver.uid })).toMatchObject({
        status: 401,
        body: { error: ja.errors.unauthorized },
      });
      expect((await call(ctx.app, 'login', { id: 'leaver', password: leaver.password })).status).toBe(401);
    });
  });

  describe('login IDs in any case', () => {
    it('finds the person whichever case the ID is typed in', async () => {
      const reply = await call(ctx.app, 'login', { id: 'HANAKO', password: member.password });
      expect(LoginReply.parse(reply.body).uid).toBe(member.uid);
    });

    it('refuses an ID that differs from a taken one only in case, when adding or changing', async () => {
      const ssid = await login(ctx.app, staff);
      const form = { name: '大文字 太郎', pass: 'Pass-1234', rank: 2, role: 101, introducer: '' };
      const short = await call(ctx.app, 'adduser', { ssid, ...form, id: 'short-pass', pass: 'Pass-12' });
      expect(short).toMatchObject({ status: 400, body: { error: jaMember.members.errors.passTooShort } });
      const taken = await call(ctx.app, 'adduser', { ssid, ...form, id: 'Hanako' });
      expect(taken).toMatchObject({ status: 400, body: { error: jaMember.members.errors.idTaken } });

      const other = await createUser(ctx.app, { loginId: 'demo-man-1', role: 101, rank: 2 });
      const renamed = await call(ctx.app, 'updateuser', { ssid, uid: other.uid, ...form, id: 'HANAKO' });
      expect(renamed).toMatchObject({ status: 400, body: { error: jaMember.members.errors.idTaken } });
      expect(await ctx.app.services.users.create({ ...form, loginId: 'DEMO-MAN-1', password: 'x' })).toBe(
        null,
      );
      // Changing the case of one's own ID is not a clash.
      const recased = await call(ctx.app, 'updateuser', { ssid, uid: other.uid, ...form, id: 'Demo-Man-1' });
      expect(recased.status).toBe(200);
    });
  });
});
