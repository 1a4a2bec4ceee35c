import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter, RedisRateLimiter } from './rate-limit.js';
import { testRedisUrl } from '../test/redis.js';

describe('MemoryRateLimiter', () => {
  it('allows max events per window, then refuses until the window ends', async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ max: 3, windowMs: 1000 }, () => now);
    expect(await limiter.consume('a')).toBe(true);
    expect(await limiter.consume('a')).toBe(true);
    expect(await limiter.isLimited('a')).toBe(false);
    expect(await limiter.consume('a')).toBe(true);
    expect(await limiter.isLimited('a')).toBe(true);
    expect(await limiter.consume('a')).toBe(false);
    expect(await limiter.consume('b')).toBe(true);

    now = 1000;
    expect(await limiter.isLimited('a')).toBe(false);
    expect(await limiter.consume('a')).toBe(true);
  });

  it('forgets a key on reset', async () => {
    const limiter = new MemoryRateLimiter({ max: 1, windowMs: 60_000 });
    await limiter.consume('a');
    expect(await limiter.isLimited('a')).toBe(true);
    await limiter.reset('a');
    expect(await limiter.isLimited('a')).toBe(false);
  });
});

describe('RedisRateLimiter', () => {
  const url = testRedisUrl(13);

  it('counts one window across instances, which ends by itself', async () => {
    const [one, two] = [new Redis(url), new Redis(url)];
    const key = `test-${randomUUID()}`;
    const limit = { max: 2, windowMs: 60_000 };
    const [a, b] = [new RedisRateLimiter(one, 'test', limit), new RedisRateLimiter(two, 'test', limit)];
    expect(await a.consume(key)).toBe(true);
    expect(await b.consume(key)).toBe(true);
    expect(await a.isLimited(key)).toBe(true);
    expect(await b.consume(key)).toBe(false);
    const ttl = await one.pttl(`enishi:limit:test:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await b.reset(key);
    expect(await a.isLimited(key)).toBe(false);
    await Promise.all([one.quit(), two.quit()]);
  });
});
