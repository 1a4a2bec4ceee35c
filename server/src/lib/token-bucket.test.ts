import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryTokenBuckets, RedisTokenBuckets } from './token-bucket.js';
import { testRedisUrl } from '../test/redis.js';

describe('MemoryTokenBuckets', () => {
  it('allows a burst, then one event per refilled token', async () => {
    let now = 0;
    const buckets = new MemoryTokenBuckets({ perSecond: 10, burst: 30 }, () => now);
    for (let i = 0; i < 30; i += 1) expect(await buckets.take('a')).toBe(true);
    expect(await buckets.take('a')).toBe(false);
    expect(await buckets.take('b')).toBe(true);
    now += 100;
    expect(await buckets.take('a')).toBe(true);
    expect(await buckets.take('a')).toBe(false);
    // A long pause refills up to the burst, not beyond.
    now += 60_000;
    for (let i = 0; i < 30; i += 1) expect(await buckets.take('a')).toBe(true);
    expect(await buckets.take('a')).toBe(false);
  });

  it('takes several tokens all or none', async () => {
    let now = 0;
    const buckets = new MemoryTokenBuckets({ perSecond: 1, burst: 5 }, () => now);
    expect(await buckets.take('a', 4)).toBe(true);
    expect(await buckets.take('a', 2)).toBe(false);
    expect(await buckets.take('a', 1)).toBe(true);
    now += 2000;
    expect(await buckets.take('a', 2)).toBe(true);
  });

  it('tells whether a number of tokens is left without taking any, asking at most a full bucket', async () => {
    let now = 0;
    const buckets = new MemoryTokenBuckets({ perSecond: 1, burst: 5 }, () => now);
    expect(await buckets.hasTokens('a', 9)).toBe(true);
    expect(await buckets.take('a', 3)).toBe(true);
    expect([await buckets.hasTokens('a', 2), await buckets.hasTokens('a', 3)]).toEqual([true, false]);
    expect(await buckets.hasTokens('a')).toBe(true);
    now += 3000;
    expect(await buckets.hasTokens('a', 9)).toBe(true);
    expect(await buckets.take('a', 5)).toBe(true);
  });

  it('holds 10 messages a second over a long run', async () => {
    let now = 0;
    const buckets = new MemoryTokenBuckets({ perSecond: 10, burst: 30 }, () => now);
    let taken = 0;
    // 100 attempts a second for 60 s: the burst plus 10 a second.
    for (let tick = 0; tick < 6000; tick += 1, now += 10) if (await buckets.take('a')) taken += 1;
    expect(taken).toBeGreaterThanOrEqual(30 + 599);
    expect(taken).toBeLessThanOrEqual(30 + 600);
  });
});

describe('RedisTokenBuckets', () => {
  const url = testRedisUrl(10);
  const [one, two] = [new Redis(url), new Redis(url)];
  afterAll(() => Promise.all([one.quit(), two.quit()]));

  it('shares one bucket between instances, refilling on Redis time', async () => {
    const key = `test-${randomUUID()}`;
    const size = { perSecond: 20, burst: 4 };
    const [a, b] = [new RedisTokenBuckets(one, 'test', size), new RedisTokenBuckets(two, 'test', size)];
    expect(await a.take(key, 2)).toBe(true);
    expect(await b.take(key)).toBe(true);
    expect(await a.take(key, 2)).toBe(false);
    expect(await b.take(key)).toBe(true);
    expect(await a.take(key)).toBe(false);
    // The key lapses once the bucket would be full again: 4 tokens at 20 a second, 200 ms.
    const ttl = await one.pttl(`enishi:bucket:test:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(201);
    await expect.poll(() => b.take(key), { interval: 20, timeout: 2000 }).toBe(true);
  });

  it('tells whether a number of tokens is left without taking any', async () => {
    const key = `test-${randomUUID()}`;
    // Slow enough that nothing refills between the calls.
    const buckets = new RedisTokenBuckets(one, 'test', { perSecond: 0.001, burst: 5 });
    expect(await buckets.hasTokens(key, 9)).toBe(true);
    expect(await buckets.take(key, 3)).toBe(true);
    expect([await buckets.hasTokens(key, 2), await buckets.hasTokens(key, 3)]).toEqual([true, false]);
    expect(await buckets.take(key, 2)).toBe(true);
    expect([await buckets.hasTokens(key), await buckets.hasTokens(key, 9)]).toEqual([false, false]);
  });
});
