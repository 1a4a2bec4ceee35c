import { ja } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryLimiters, redisLimiters, type MakeLimiter } from '../lib/limiters.js';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { testRedisUrl } from '../test/redis.js';

/** Emptied first: counters from an earlier run would still be counting. */
const REDIS_URL = testRedisUrl(12);

/** The hourly cap per account, lowered from 100 so the test guesses less. */
const ACCOUNT_CAP = 20;
const LIMITS = {
  TRUST_PROXY: 'true',
  LOGIN_FAILURES_PER_ACCOUNT: String(ACCOUNT_CAP),
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: '5',
  LOGIN_PAUSE_SECONDS: '300',
  LOGIN_ATTEMPTS_PER_ADDRESS: '30',
};

const tryLogin = (app: FastifyInstance, address: string, id: string, password: string) =>
  call(app, 'login', { id, password }, { 'x-forwarded-for': address });

const limited = { status: 429, body: { error: ja.errors.rateLimited } };

describe.each(['memory', 'redis'] as const)('login throttling (%s counters)', (store) => {
  let ctx: TestContext;
  let redis: Redis | undefined;
  let now = Date.now();
  let owner: TestUser;
  /** Two instances counting together through Redis; in memory, counters are per instance, so one. */
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    let limiters: MakeLimiter = memoryLimiters();
    if (store === 'redis') {
      redis = new Redis(REDIS_URL);
      await redis.flushdb();
      limiters = redisLimiters(redis);
    }
    ctx = await createTestContext();
    owner = await createUser(ctx.app, { loginId: 'owner', role: 2, password: 'Owner-pass1' });
    one = await ctx.buildApp(LIMITS, () => now, { rateLimiters: limiters });
    two = store === 'redis' ? await ctx.buildApp(LIMITS, () => now, { rateLimiters: limiters }) : one;
  });
  afterAll(async () => {
    await ctx.close();
    await redis?.quit();
  });

  // One story in order: each step counts on what the one before it left in the counters.
  it('pauses an address after 5 wrong passwords, stops guessing from many addresses at the hourly cap, and never refuses the owner from an address they used', async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await tryLogin(one, '198.51.100.1', 'owner', `guess-${i}`)).status).toBe(401);
    // The pause holds on the other instance too, even for the right password.
    expect(await tryLogin(two, '198.51.100.1', 'owner', owner.password)).toMatchObject(limited);
    expect((await tryLogin(two, '203.0.113.7', 'owner', owner.password)).status).toBe(200);

    const known = '203.0.113.7';
    // Counted so far from addresses the account had not logged in from: 5 guesses and the owner's login.
    for (let i = 0; i < ACCOUNT_CAP - 6; i += 1) {
      const app = i % 2 ? one : two;
      expect((await tryLogin(app, `192.0.2.${i + 10}`, 'owner', `guess-${i}`)).status).toBe(401);
    }
    expect(await tryLogin(one, '192.0.2.200', 'owner', 'another-guess')).toMatchObject(limited);
    expect(await tryLogin(two, '192.0.2.201', 'owner', owner.password)).toMatchObject(limited);
    expect((await tryLogin(one, known, 'owner', owner.password)).status).toBe(200);
    // A wrong password from the known address still counts towards its own pause only.
    expect((await tryLogin(two, known, 'owner', 'typo')).status).toBe(401);
    expect((await tryLogin(one, known, 'owner', owner.password)).status).toBe(200);

    // Many logins at once from that address are never refused.
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => tryLogin(i % 2 ? one : two, known, 'owner', owner.password)),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(8).fill(200));
  });

  it('refuses unknown login IDs the same way, so a pause does not reveal which IDs exist', async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await tryLogin(one, '198.51.100.9', 'nobody', 'guess')).status).toBe(401);
    expect(await tryLogin(two, '198.51.100.9', 'nobody', 'guess')).toMatchObject(limited);
  });

  it.runIf(store === 'memory')('lets a paused address try again after 5 minutes', async () => {
    const member = await createUser(ctx.app, { loginId: 'hanako', role: 201 });
    for (let i = 0; i < 5; i += 1)
      expect((await tryLogin(one, '198.51.100.20', 'hanako', 'guess')).status).toBe(401);
    expect(await tryLogin(one, '198.51.100.20', 'hanako', member.password)).toMatchObject(limited);
    // Five minutes on, for the server's clock and for the limiter's (the time of day).
    now += 300_000;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 300_000 });
    try {
      expect((await tryLogin(one, '198.51.100.20', 'hanako', member.password)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
