import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { BurstLimiter, RateLimiter, memoryLimiters, perWindow, redisLimiters } from './limiters.js';
import { redisConnection } from './redis-connection.js';
import { testRedisUrl } from '../test/redis.js';

// The limiters read the time of day; a test that moves it fakes Date only (timers run as ever).
const at = (now: number) => vi.useFakeTimers({ toFake: ['Date'], now });
afterEach(() => void vi.useRealTimers());

describe('limits counted in memory', () => {
  const limiter = (points: number, duration: number) =>
    memoryLimiters()({ keyPrefix: 'test', points, duration });

  it('allows its points in a window, then refuses until the window ends', async () => {
    at(0);
    const limit = limiter(3, 1);
    expect(await limit.consume('a')).toBe(true);
    expect(await limit.consume('a')).toBe(true);
    expect(await limit.isLimited('a')).toBe(false);
    expect(await limit.consume('a')).toBe(true);
    expect(await limit.isLimited('a')).toBe(true);
    expect(await limit.consume('a')).toBe(false);
    expect(await limit.consume('b')).toBe(true);
    vi.setSystemTime(1000);
    expect(await limit.isLimited('a')).toBe(false);
    expect(await limit.consume('a')).toBe(true);
  });

  it('forgets a key on reset', async () => {
    const limit = limiter(1, 60);
    await limit.consume('a');
    expect(await limit.isLimited('a')).toBe(true);
    await limit.reset('a');
    expect(await limit.isLimited('a')).toBe(false);
  });

  // The bug this guards against: a clean-up that drops the live counts and keeps the finished ones.
  it('keeps a count for its whole window while other keys come and go around it', async () => {
    const start = 1_000_000;
    at(start);
    const limit = limiter(3, 1);
    await limit.consume('first');
    vi.setSystemTime(start + 600);
    for (let i = 0; i < 3; i += 1) expect(await limit.consume('guesser')).toBe(true);
    // Another key's first window has ended: the time when finished counts are dropped.
    vi.setSystemTime(start + 1000);
    expect(await limit.consume('other')).toBe(true);
    vi.setSystemTime(start + 1100);
    expect(await limit.consume('other')).toBe(true);
    // The guesser's window runs until start + 1600.
    expect(await limit.isLimited('guesser')).toBe(true);
    expect(await limit.consume('guesser')).toBe(false);
    vi.setSystemTime(start + 1600);
    expect(await limit.consume('guesser')).toBe(true);
  });

  // The same with the clean-up itself running: the memory store drops each count by a timer when its window
  // ends. A clean-up that dropped the live counts with the finished ones passed the test above, whose timers
  // never fire.
  it('keeps a count for its whole window while the counts around it are cleaned up', async () => {
    const start = 1_000_000;
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: start });
    const limit = limiter(3, 1);
    await limit.consume('first');
    vi.advanceTimersByTime(600);
    for (let i = 0; i < 3; i += 1) expect(await limit.consume('guesser')).toBe(true);
    // The first key's window ends and its count is cleaned up: only its.
    vi.advanceTimersByTime(400);
    expect(await limit.remaining('first')).toBe(3);
    expect(await limit.isLimited('guesser')).toBe(true);
    expect(await limit.consume('guesser')).toBe(false);
    vi.advanceTimersByTime(599);
    expect(await limit.consume('guesser')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await limit.consume('guesser')).toBe(true);
  });

  it('frees finished counts: a spray of addresses leaves no memory behind', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const limit = limiter(5, 1);
    const base = heap();
    // All in one moment (however long the spray takes here), so all in one window.
    at(Date.now());
    for (let i = 0; i < 100_000; i += 1) await limit.consume(`198.51.${i >> 8}.${i & 255}-${i}`);
    const held = heap() - base;
    // Sanity: while their window is live, the counts are really kept.
    expect(held).toBeGreaterThan(4_000_000);
    vi.useRealTimers();
    // Once it is over (a second), they go; a new key keeps the limiter in use meanwhile.
    await expect
      .poll(
        async () => {
          await limit.consume('now and then');
          return heap() - base;
        },
        { interval: 250, timeout: 10_000 },
      )
      .toBeLessThan(held / 5);
  });
});

describe('a limit as the configuration states it', () => {
  it('counts its max in a window of whole seconds, at least one', () => {
    expect(perWindow('login', { max: 5, windowMs: 60_000 })).toEqual({
      keyPrefix: 'login',
      points: 5,
      duration: 60,
    });
    expect(perWindow('fast', { max: 1, windowMs: 200 }).duration).toBe(1);
    expect(perWindow('half', { max: 1, windowMs: 2_600 }).duration).toBe(3);
  });
});

describe('limits counted in Redis', () => {
  const url = testRedisUrl(13);
  const [one, two] = [new Redis(url), new Redis(url)];
  // Connected before the first count: until then a limiter counts in memory (as while Redis is away).
  beforeAll(() => Promise.all([one.ping(), two.ping()]));
  afterAll(() => Promise.all([one.quit(), two.quit()]));

  it('counts one window across instances, which ends by itself', async () => {
    const key = `test-${randomUUID()}`;
    const spec = { keyPrefix: 'test', points: 2, duration: 60 };
    const [a, b] = [redisLimiters(one)(spec), redisLimiters(two)(spec)];
    expect(await a.consume(key)).toBe(true);
    expect(await b.consume(key)).toBe(true);
    expect(await a.isLimited(key)).toBe(true);
    expect(await b.consume(key)).toBe(false);
    const ttl = await one.pttl(`enishi:limit:test:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await b.reset(key);
    expect(await a.isLimited(key)).toBe(false);
  });

  it('counts in this instance while Redis does not answer (decision 020)', async () => {
    // A connection as the server makes it, to where no Redis listens: never ready.
    const away = redisConnection('redis://127.0.0.1:1');
    const limit = redisLimiters(away)({ keyPrefix: 'test', points: 2, duration: 60 });
    expect(await limit.consume('a')).toBe(true);
    expect(await limit.consume('a')).toBe(true);
    expect(await limit.isLimited('a')).toBe(true);
    expect(await limit.consume('a')).toBe(false);
    expect(await limit.consume('b')).toBe(true);
    away.disconnect();
  });
});

describe('rates with bursts', () => {
  const memory = memoryLimiters();

  it('allows a burst at once, then the rate, and the burst again only later', async () => {
    at(0);
    const messages = new BurstLimiter(memory, 'messages', { points: 10, duration: 1, burst: 30 });
    for (let i = 0; i < 30; i += 1) expect(await messages.consume('a')).toBe(true);
    expect(await messages.consume('a')).toBe(false);
    expect(await messages.consume('b')).toBe(true);
    // A second later: the rate's ten, not a new burst.
    vi.setSystemTime(1000);
    for (let i = 0; i < 10; i += 1) expect(await messages.consume('a')).toBe(true);
    expect(await messages.consume('a')).toBe(false);
    // The burst's allowance is back after ten times the time the rate takes to make a burst (30 s).
    vi.setSystemTime(30_000);
    for (let i = 0; i < 30; i += 1) expect(await messages.consume('a')).toBe(true);
    expect(await messages.consume('a')).toBe(false);
  });

  it('holds about its rate over a long run', async () => {
    at(0);
    const messages = new BurstLimiter(memory, 'long-run', { points: 10, duration: 1, burst: 30 });
    let passed = 0;
    // 100 attempts a second for 60 s.
    for (let tick = 0; tick < 6000; tick += 1) {
      vi.setSystemTime(tick * 10);
      if (await messages.consume('a')) passed += 1;
    }
    // 10 a second, and the burst's 20 more every 30 s: at most a tenth above the rate.
    expect(passed).toBeGreaterThanOrEqual(600);
    expect(passed).toBeLessThanOrEqual(660);
  });

  it('counts several all or none, and a refusal costs nothing', async () => {
    at(0);
    const images = new BurstLimiter(memory, 'images', { points: 20, duration: 60, burst: 20 });
    expect(await images.consume('a', 18)).toBe(true);
    expect(await images.consume('a', 4)).toBe(false);
    expect(await images.consume('a', 2)).toBe(true);
    expect(await images.consume('a', 1)).toBe(false);
  });

  it('a burst of one at 60 a minute is one a second', async () => {
    at(0);
    const images = new BurstLimiter(memory, 'one', { points: 60, duration: 60, burst: 1 });
    expect(await images.consume('a')).toBe(true);
    expect(await images.consume('a')).toBe(false);
    expect(await images.consume('a', 2)).toBe(false);
    vi.setSystemTime(1000);
    expect(await images.consume('a')).toBe(true);
  });

  it('tells whether some would pass now without counting them', async () => {
    at(0);
    const images = new BurstLimiter(memory, 'peek', { points: 5, duration: 5, burst: 5 });
    expect(await images.allows('a', 9)).toBe(true);
    expect(await images.consume('a', 3)).toBe(true);
    expect([await images.allows('a', 2), await images.allows('a', 3)]).toEqual([true, false]);
    expect(await images.allows('a')).toBe(true);
    vi.setSystemTime(5000);
    expect(await images.allows('a', 9)).toBe(true);
    expect(await images.consume('a', 5)).toBe(true);
  });

  it('windows the rate over the time a burst takes, and the allowance over ten times that', async () => {
    at(0);
    // 2 every 2 s, up to 5 at once: the rate's window holds 2 for 2 s; the allowance of 3 more comes back
    // after ten times the 5 s the rate takes to make a burst (50 s).
    const limit = new BurstLimiter(memory, 'windows', { points: 2, duration: 2, burst: 5 });
    expect(await limit.consume('a', 6)).toBe(false);
    for (let i = 0; i < 5; i += 1) expect(await limit.consume('a')).toBe(true);
    expect(await limit.consume('a')).toBe(false);
    vi.setSystemTime(1999);
    expect(await limit.consume('a')).toBe(false);
    vi.setSystemTime(20_000);
    expect([await limit.consume('a'), await limit.consume('a'), await limit.consume('a')]).toEqual([
      true,
      true,
      false,
    ]);
    vi.setSystemTime(50_000);
    expect(await limit.consume('a', 3)).toBe(true);
  });

  it('passes on what the store throws that is not a refusal', async () => {
    const broken = new RateLimiter(
      { consume: () => Promise.reject(new Error('store away')) } as unknown as RateLimiterAbstract,
      1,
    );
    await expect(broken.consume('a')).rejects.toThrow('store away');
    const make = () => broken;
    await expect(
      new BurstLimiter(make, 'x', { points: 1, duration: 1, burst: 1 }).consume('a'),
    ).rejects.toThrow('store away');
    await expect(
      new BurstLimiter(make, 'x', { points: 1, duration: 1, burst: 3 }).consume('a'),
    ).rejects.toThrow('store away');
  });

  it('shares one rate between instances through Redis', async () => {
    const url = testRedisUrl(10);
    const [one, two] = [new Redis(url), new Redis(url)];
    await Promise.all([one.ping(), two.ping()]);
    const prefix = `test-${randomUUID()}`;
    const rate = { points: 1, duration: 60, burst: 3 };
    const [a, b] = [
      new BurstLimiter(redisLimiters(one), prefix, rate),
      new BurstLimiter(redisLimiters(two), prefix, rate),
    ];
    expect(await a.consume('a')).toBe(true);
    expect(await b.consume('a')).toBe(true);
    expect(await a.allows('a')).toBe(true);
    expect(await b.consume('a')).toBe(true);
    expect(await a.allows('a')).toBe(false);
    expect(await a.consume('a')).toBe(false);
    expect(await b.consume('a', 1)).toBe(false);
    // The rate and the allowance count in keys of their own.
    expect(await one.exists(`enishi:limit:${prefix}:a`, `enishi:limit:${prefix}-burst:a`)).toBe(2);
    await Promise.all([one.quit(), two.quit()]);
  });
});
