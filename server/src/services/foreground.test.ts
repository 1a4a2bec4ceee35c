import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testRedisUrl } from '../test/redis.js';
import { InProcessForeground, REFRESH_BATCH, RedisForeground } from './foreground.js';

const REDIS_URL = testRedisUrl(15);

describe('InProcessForeground', () => {
  it('counts a person as looking while any of their sockets is visible', async () => {
    const foreground = new InProcessForeground();
    await foreground.change(1, 1);
    await foreground.change(1, 1);
    await foreground.change(1, -1);
    expect(await foreground.away([1, 2])).toEqual([2]);
    await foreground.change(1, -1);
    expect(await foreground.away([1, 2])).toEqual([1, 2]);
  });
});

describe('RedisForeground (two instances on one Redis)', () => {
  const errors: unknown[] = [];
  let redisA: Redis;
  let redisB: Redis;
  let a: RedisForeground;
  let b: RedisForeground;

  beforeAll(async () => {
    redisA = new Redis(REDIS_URL);
    redisB = new Redis(REDIS_URL);
    await redisA.flushdb();
    a = new RedisForeground(redisA, (error) => errors.push(error));
    b = new RedisForeground(redisB, (error) => errors.push(error));
  });

  afterAll(async () => {
    await a.close();
    await b.close();
    await redisA.quit();
    await redisB.quit();
  });

  it('lets a socket on one instance suppress the pushes the other sends', async () => {
    await a.change(7, 1);
    await a.change(7, 1);
    expect(await b.away([7, 8])).toEqual([8]);
    await b.change(7, 1);
    await a.change(7, -1);
    await a.change(7, -1);
    // Still visible on b.
    expect(await a.away([7])).toEqual([]);
    await b.change(7, -1);
    expect(await a.away([7, 8])).toEqual([7, 8]);
  });

  it('forgets an instance that stops, and one whose lease ran out', async () => {
    await a.change(9, 1);
    await a.close();
    expect(await b.away([9])).toEqual([9]);
    // A lease in the past (a crashed instance) does not count.
    await redisB.zadd('push-foreground:10', Date.now() - 1, 'crashed-instance');
    expect(await b.away([10])).toEqual([10]);
    expect(errors).toEqual([]);
  });

  it('renews more users than one pipeline carries, in pipelines of at most REFRESH_BATCH users', async () => {
    // One pipeline for 18,000 users held the instance and Redis for some 80 ms. Here two full batches and one
    // user more, on a short lease so that a renewal comes within the test.
    const users = Array.from({ length: REFRESH_BATCH * 2 + 1 }, (_, index) => 930_000 + index);
    const redis = new Redis(REDIS_URL);
    const live = new RedisForeground(redis, (error) => errors.push(error), 'push-foreground', {
      leaseMs: 2000,
      refreshMs: 200,
    });
    // Every pipeline the instance sends, from the first.
    const made: { length: number }[] = [];
    const pipeline = redis.pipeline.bind(redis);
    vi.spyOn(redis, 'pipeline').mockImplementation((...args) => {
      const commands = pipeline(...args);
      made.push(commands);
      return commands;
    });
    try {
      for (const uid of users) await live.change(uid, 1);
      // Each user's lapse, read on the other instance's connection.
      const lapses = async () => {
        const reads = redisB.pipeline();
        for (const uid of users) reads.zrange(`push-foreground:${uid}`, '0', '-1', 'WITHSCORES');
        return ((await reads.exec()) ?? []).map(([, row]) => Number((row as string[])[1]));
      };
      const taken = await lapses();
      // Every user's lapse moves later: each was renewed, the last batch's one user too.
      await expect
        .poll(async () => (await lapses()).every((lapse, index) => lapse > taken[index]!), {
          interval: 50,
          timeout: 8000,
        })
        .toBe(true);
      // Two commands a user.
      expect(Math.max(...made.map((commands) => commands.length))).toBeLessThanOrEqual(REFRESH_BATCH * 2);
      expect(errors).toEqual([]);
    } finally {
      vi.restoreAllMocks();
      await live.close();
      await redis.quit();
    }
  });
});
