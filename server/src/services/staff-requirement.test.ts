import { FactorsReply, LoginReply, REAUTH_WINDOW_S, SOCKET_CLOSE, jaMember } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { appsOnRedis, testRedisUrl } from '../test/redis.js';
import { listen, TestSocket } from '../test/socket.js';

/*
 * Outcome 3 of issue 44 (product.md §11.7): only an owner with a second factor and fresh proof switches the
 * staff requirement; switched on, every staff session without a factor is held to the setup screens on every
 * instance within the session cache's 5 s (at once, through the invalidation events), its chat socket too.
 */

const STEP_MS = 30_000;
/** The bound product.md §11.7 promises for existing sessions. */
const HOLD_WITHIN_MS = 5_000;

describe('the owner\u2019s staff requirement holds existing sessions', () => {
  let ctx: TestContext;
  /** Where the owner switches, and where the staff member works (another instance when Redis is here). */
  let ownerApp: FastifyInstance;
  let staffApp: FastifyInstance;
  let closeRedis = async () => {};
  const now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;
  let clock = now;
  let owner: TestUser;

  const codeAt = (secret: string) => generateSync({ secret, epoch: Math.floor(clock / 1000) });
  const sessionOn = async (app: FastifyInstance, user: TestUser) =>
    LoginReply.parse((await call(app, 'login', { id: user.loginId, password: user.password })).body).session;

  beforeAll(async () => {
    ctx = await createTestContext();
    if (process.env.TEST_REDIS_URL) {
      const { apps, close } = await appsOnRedis(ctx, testRedisUrl(3), 2, () => clock);
      [ownerApp, staffApp] = apps as [FastifyInstance, FastifyInstance];
      closeRedis = close;
    } else {
      ownerApp = staffApp = await ctx.buildApp({}, () => clock);
    }
    owner = await createUser(ownerApp, { loginId: 'req-owner', role: 2 });
  });
  afterAll(async () => {
    await ctx.close();
    await closeRedis();
  });

  it('needs the owner\u2019s own factor and fresh proof, then holds staff sessions and sockets at once', async () => {
    const ownerSsid = await sessionOn(ownerApp, owner);
    expect(await call(ownerApp, '2fa/staff-requirement', { ssid: ownerSsid, required: true })).toMatchObject({
      status: 403,
      body: { error: jaMember.reauth.errors.ownerFactorFirst },
    });
    const { secret } = (await call(ownerApp, '2fa/totp/setup', { ssid: ownerSsid })).body as {
      secret: string;
    };
    expect((await call(ownerApp, '2fa/totp/confirm', { ssid: ownerSsid, code: codeAt(secret) })).status).toBe(
      200,
    );

    // A staff member without a factor works: calls and a live chat socket.
    const staff = await createUser(ownerApp, { loginId: 'req-staff', role: 3 });
    const staffSsid = await sessionOn(staffApp, staff);
    expect((await call(staffApp, 'sessions', { ssid: staffSsid })).status).toBe(200);
    const socket = await TestSocket.session(await listen(staffApp), staffSsid);

    // The owner's session is past its fresh window: proof first.
    clock += REAUTH_WINDOW_S * 1000 + STEP_MS;
    expect(await call(ownerApp, '2fa/staff-requirement', { ssid: ownerSsid, required: true })).toMatchObject({
      status: 403,
      body: { reauth: true },
    });
    const proof = { ssid: ownerSsid, password: owner.password, code: codeAt(secret) };
    expect((await call(ownerApp, 'reauth', proof)).status).toBe(200);
    const switched = Date.now();
    expect(await call(ownerApp, '2fa/staff-requirement', { ssid: ownerSsid, required: true })).toMatchObject({
      status: 200,
      body: { staff_required: true },
    });

    // The staff session's very next call is held to the setup, and its socket closes as ended.
    expect(await call(staffApp, 'sessions', { ssid: staffSsid })).toMatchObject({
      status: 403,
      body: { error: jaMember.security.errors.secondFactorSetupFirst },
    });
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    expect(Date.now() - switched).toBeLessThan(HOLD_WITHIN_MS);
    expect(FactorsReply.parse((await call(staffApp, '2fa/factors', { ssid: staffSsid })).body)).toMatchObject(
      {
        setup_required: true,
        staff_required: true,
      },
    );
    // The owner, who has a factor, is not held.
    expect((await call(ownerApp, 'sessions', { ssid: ownerSsid })).status).toBe(200);

    // Switched off, the session may do everything again.
    expect((await call(ownerApp, '2fa/staff-requirement', { ssid: ownerSsid, required: false })).status).toBe(
      200,
    );
    expect((await call(staffApp, 'sessions', { ssid: staffSsid })).status).toBe(200);
  });
});
