import type { Redis } from 'ioredis';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { sharedOrLocal } from './redis-connection.js';

/** At most `max` events per key in a fixed window of `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * Counts events per key in a fixed window: in memory for one instance, in Redis (RedisRateLimiter) when
 * several instances must count together.
 */
export interface RateLimiter {
  /** Records one event for `key`; false when this event is over the limit. */
  consume(key: string): Promise<boolean>;
  /** True when `key` has already reached the limit in the current window. */
  isLimited(key: string): Promise<boolean>;
  /** Forgets `key` (e.g. after a successful login). */
  reset(key: string): Promise<void>;
}

interface Window {
  count: number;
  resetAt: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly clock: Clock = systemClock,
  ) {}

  async consume(key: string): Promise<boolean> {
    const now = this.clock();
    this.sweep(now);
    const current = this.windows.get(key);
    if (!current || current.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.limit.windowMs });
      return this.limit.max >= 1;
    }
    current.count += 1;
    return current.count <= this.limit.max;
  }

  async isLimited(key: string): Promise<boolean> {
    const current = this.windows.get(key);
    return !!current && current.resetAt > this.clock() && current.count >= this.limit.max;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  // Drop finished windows now and then so the map cannot grow without bound under a spray of keys.
  private sweep(now: number): void {
    if (now - this.lastSweep < this.limit.windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

// Atomic in Redis: the first event of a window starts its expiry, so a window can never be left without one.
const CONSUME = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/**
 * The same counting in Redis, shared by every instance that uses the same Redis database. While Redis does
 * not answer, this instance counts on its own (decision 020).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly local: MemoryRateLimiter;

  constructor(
    private readonly redis: Redis,
    /** Which limit this is (e.g. `login-address`): each limit counts in keys of its own. */
    private readonly name: string,
    private readonly limit: RateLimit,
  ) {
    this.local = new MemoryRateLimiter(limit);
  }

  consume(key: string): Promise<boolean> {
    return sharedOrLocal(
      async () =>
        Number(await this.redis.eval(CONSUME, 1, this.key(key), this.limit.windowMs)) <= this.limit.max,
      () => this.local.consume(key),
    );
  }

  isLimited(key: string): Promise<boolean> {
    return sharedOrLocal(
      async () => Number((await this.redis.get(this.key(key))) ?? 0) >= this.limit.max,
      () => this.local.isLimited(key),
    );
  }

  async reset(key: string): Promise<void> {
    await this.local.reset(key);
    await sharedOrLocal(
      async () => void (await this.redis.del(this.key(key))),
      async () => {},
    );
  }

  private key(key: string): string {
    return `enishi:limit:${this.name}:${key}`;
  }
}

/** Makes the limiter for one named limit; the container picks memory or Redis once. */
export type RateLimiters = (name: string, limit: RateLimit) => RateLimiter;

export const memoryRateLimiters =
  (clock: Clock = systemClock): RateLimiters =>
  (_name, limit) =>
    new MemoryRateLimiter(limit, clock);

export const redisRateLimiters =
  (redis: Redis): RateLimiters =>
  (name, limit) =>
    new RedisRateLimiter(redis, name, limit);
