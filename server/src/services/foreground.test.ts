import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../test/redis.js';
import { InProcessForeground, RedisForeground } from './foreground.js';

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
});
