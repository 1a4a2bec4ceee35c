import { LoginReply, ja } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLimiters, redisLimiters, type MakeLimiter } from '../lib/limiters.js';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { testRedisUrl } from '../test/redis.js';

/** Emptied first: counters from an earlier run would still be counting. */
const REDIS_URL = testRedisUrl(4);

/** The login limits as shipped (testConfig lifts them): 100 an hour per account, 5 per account and address. */
const SHIPPED_LIMITS = {
  TRUST_PROXY: 'true',
  LOGIN_FAILURES_PER_ACCOUNT: '100',
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: '5',
  LOGIN_ATTEMPTS_PER_ADDRESS: '30',
};

const limited = { status: 429, body: { error: ja.errors.rateLimited } };

describe.each(['memory', 'redis'] as const)('throttling by device token (%s counters)', (store) => {
  let ctx: TestContext;
  let redis: Redis | undefined;
  let app: FastifyInstance;
  let owner: TestUser;

  const tryLogin = (address: string, body: { id: string; password: string; device?: string }) =>
    call(app, 'login', body, { 'x-forwarded-for': address });
  /** A device token from a login that succeeded earlier, from the owner's home network. */
  const deviceOf = async (user: TestUser, address: string) => {
    const reply = await tryLogin(address, { id: user.loginId, password: user.password });
    return LoginReply.parse(reply.body).device;
  };

  beforeAll(async () => {
    let limiters: MakeLimiter = memoryLimiters();
    if (store === 'redis') {
      redis = new Redis(REDIS_URL);
      await redis.flushdb();
      limiters = redisLimiters(redis);
    }
    ctx = await createTestContext();
    owner = await createUser(ctx.app, { loginId: 'owner', role: 2, password: 'Owner-pass1' });
    app = await ctx.buildApp(SHIPPED_LIMITS, undefined, { rateLimiters: limiters });
  });
  afterAll(async () => {
    await ctx.close();
    await redis?.quit();
  });

  it('lets the owner in from a new network with a device token while the account is under attack', async () => {
    const device = await deviceOf(owner, '203.0.113.1');
    for (let i = 0; i < 160; i += 1) {
      const reply = await tryLogin(`10.1.${i >> 8}.${i & 255}`, { id: 'OWNER', password: `guess-${i}` });
      expect(reply.status).toBe(i < 99 ? 401 : 429);
    }
    // A phone that changed network: without the token, throttled as before.
    expect(await tryLogin('198.51.100.77', { id: 'owner', password: owner.password })).toMatchObject(limited);
    const reply = await tryLogin('198.51.100.78', { id: 'owner', password: owner.password, device });
    expect(reply.status).toBe(200);
    expect(LoginReply.parse(reply.body)).toMatchObject({ uid: owner.uid, device });
  });

  it('counts wrong passwords with a device token on that token alone: 5, then a pause', async () => {
    const user = await createUser(ctx.app, { loginId: 'stolen', role: 3, password: 'Stolen-pass1' });
    const device = await deviceOf(user, '203.0.113.2');
    for (let i = 0; i < 5; i += 1)
      expect((await tryLogin(`172.16.0.${i}`, { id: 'stolen', password: `x${i}`, device })).status).toBe(401);
    expect(await tryLogin('172.16.0.9', { id: 'stolen', password: user.password, device })).toMatchObject(
      limited,
    );
    // The account itself is not paused: another device logs in.
    expect((await tryLogin('172.16.0.10', { id: 'stolen', password: user.password })).status).toBe(200);
  });

  it('ignores a token issued to another account, and a forged one', async () => {
    const victim = await createUser(ctx.app, { loginId: 'victim', role: 3, password: 'Victim-pass1' });
    const other = await createUser(ctx.app, { loginId: 'other', role: 201, password: 'Other-pass1' });
    const foreign = await deviceOf(other, '203.0.113.3');
    const [nonce] = foreign.split('.');
    for (let i = 0; i < 100; i += 1)
      await tryLogin(`10.2.${i >> 8}.${i & 255}`, { id: 'victim', password: `guess-${i}` });
    for (const device of [foreign, `${nonce}.${'A'.repeat(43)}`, 'not-a-token'])
      expect(
        await tryLogin('198.51.100.90', { id: 'victim', password: victim.password, device }),
      ).toMatchObject(limited);
    // A new login answers a token for this account: a client keeps one per account it logs into.
    expect(foreign).not.toBe(await deviceOf(other, '203.0.113.3'));
  });
});
