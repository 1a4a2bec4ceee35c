import { ja, SOCKET_CLOSE, SOCKET_MAX_PER_USER } from '@enishi/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisLimiters } from '../lib/limiters.js';
import { REFRESH_BATCH, RedisSocketSeats } from './socket-seats.js';
import {
  ctx,
  isError,
  isMessage,
  messageCount,
  outsiderDesk,
  ssid,
  text,
  useChatClub,
  woman,
  type ErrorFrame,
} from '../test/chat-club.js';
import { testRedisUrl } from '../test/redis.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';

const REDIS_URL = testRedisUrl(9);

describe('fair use counted across two instances through Redis', () => {
  useChatClub();
  const redis = new Redis(REDIS_URL);
  const errors: unknown[] = [];
  const seats: RedisSocketSeats[] = [];
  let one: string;
  let two: string;

  /** An instance on the club's database whose fair use counts in Redis. */
  async function instance(env: Record<string, string>) {
    const mine = new RedisSocketSeats(redis, (error) => errors.push(error));
    seats.push(mine);
    const app = await ctx.buildApp(env, undefined, {
      rateLimiters: redisLimiters(redis),
      fairUse: { seats: mine },
    });
    return listen(app);
  }

  beforeAll(async () => {
    await redis.flushdb();
    const env = { CHAT_MESSAGE_BURST: '3', CHAT_MESSAGES_PER_SECOND: '1', CHAT_IMAGE_BURST: '1' };
    [one, two] = [await instance(env), await instance(env)];
  });

  afterAll(async () => {
    for (const each of seats) await each.close();
    await redis.quit();
    expect(errors).toEqual([]);
  });

  const session = (base: string, who: string) => TestSocket.session(base, ssid[who]!);

  it(`closes socket ${SOCKET_MAX_PER_USER + 1} of one user on either instance, and seats a new one after a close`, async () => {
    const sockets: TestSocket[] = [];
    for (let i = 0; i < SOCKET_MAX_PER_USER; i += 1) sockets.push(await session(i % 2 ? one : two, 'hanako'));
    for (const base of [one, two]) {
      const extra = await TestSocket.connect(base);
      extra.send({ type: 'session', session: ssid.hanako });
      expect(await extra.closed).toEqual({
        code: SOCKET_CLOSE.tooManySockets,
        reason: ja.errors.tooManySockets,
      });
    }
    // A socket closed on one instance frees a seat on the other.
    await sockets.shift()!.close();
    await expect.poll(() => redis.zcard(`enishi:sockets:${woman.uid}`)).toBe(SOCKET_MAX_PER_USER - 1);
    sockets.push(await session(one, 'hanako'));
    await closeAll(sockets);
  });

  it('counts messages in one bucket over both instances', async () => {
    const [a, b] = [await session(one, 'jiro'), await session(two, 'jiro')];
    const before = await messageCount(outsiderDesk);
    const frames = [text(outsiderDesk, '一'), text(outsiderDesk, '二'), text(outsiderDesk, '三')];
    a.send(frames[0]!);
    await a.take(isMessage(frames[0]!.client_id));
    b.send(frames[1]!);
    await b.take(isMessage(frames[1]!.client_id));
    a.send(frames[2]!);
    await a.take(isMessage(frames[2]!.client_id));
    const over = text(outsiderDesk, '四');
    b.send(over);
    expect(await b.take<ErrorFrame>(isError)).toEqual({
      type: 'error',
      error: ja.errors.sendingTooFast,
      client_id: over.client_id,
    });
    expect(await messageCount(outsiderDesk)).toBe(before + 3);
    await closeAll([a, b]);
  });
});

describe('RedisSocketSeats leases', () => {
  const redis = new Redis(REDIS_URL);
  afterAll(() => redis.quit());
  // A lease long enough that a loaded 2-core machine never starves the live instance's heartbeat past it.
  const lease = { leaseMs: 2000, refreshMs: 200 };
  const uid = 900_001;

  it('keeps the seats of a live instance past the lease, and lets a killed one lapse', async () => {
    await redis.del(`enishi:sockets:${uid}`);
    const [live, killed, other] = [0, 1, 2].map(() => new RedisSocketSeats(redis, () => {}, lease));
    try {
      for (let socket = 1; socket <= 5; socket += 1) expect(await live!.take(uid, socket, 10)).toBe(true);
      for (let socket = 1; socket <= 5; socket += 1) expect(await killed!.take(uid, socket, 10)).toBe(true);
      expect(await other!.take(uid, 1, 10)).toBe(false);
      killed!.stopHeartbeat(); // a SIGKILL: its seats are never given back
      // The killed instance's seats were taken one by one, so they lapse one by one: wait until all five
      // have (taking a seat already held is a no-op), while the live one's heartbeat kept its five.
      const takeFive = async () => {
        for (let socket = 1; socket <= 5; socket += 1)
          if (!(await other!.take(uid, socket, 10))) return false;
        return true;
      };
      await expect.poll(takeFive, { interval: 50, timeout: 8000 }).toBe(true);
      expect(await other!.take(uid, 6, 10)).toBe(false);
    } finally {
      await Promise.all([live!.close(), killed!.close(), other!.close()]);
    }
    expect(await redis.exists(`enishi:sockets:${uid}`)).toBe(0);
  });

  it('renews an instance with more seats than one call takes, in calls of at most REFRESH_BATCH', async () => {
    // A script call runs alone on Redis: one call for all of 18,000 idle sockets' seats held every other
    // client while it ran. Here two full batches and one seat more, each of a user of its own.
    const seats = REFRESH_BATCH * 2 + 1;
    const users = Array.from({ length: seats }, (_, index) => 920_000 + index);
    const keys = users.map((user) => `enishi:sockets:${user}`);
    await redis.del(...keys);
    const calls = vi.spyOn(redis, 'eval');
    const live = new RedisSocketSeats(redis, () => {}, lease);
    try {
      for (const [index, user] of users.entries()) expect(await live.take(user, index + 1, 10)).toBe(true);
      const scores = async () => {
        const pipeline = redis.pipeline();
        for (const key of keys) pipeline.zrange(key, '0', '-1', 'WITHSCORES');
        return ((await pipeline.exec()) ?? []).map(([, row]) => Number((row as string[])[1]));
      };
      const taken = await scores();
      calls.mockClear();
      // Every seat's lapse moves later: each was renewed, the last batch's one seat too.
      await expect
        .poll(async () => (await scores()).every((score, index) => score > taken[index]!), {
          interval: 50,
          timeout: 8000,
        })
        .toBe(true);
      const renewed = calls.mock.calls.map(([, keyCount]) => Number(keyCount));
      expect(Math.max(...renewed)).toBeLessThanOrEqual(REFRESH_BATCH);
    } finally {
      calls.mockRestore();
      await live.close();
    }
    expect(await redis.exists(...keys)).toBe(0);
  });
});
