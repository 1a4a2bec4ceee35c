import type { Redis } from 'ioredis';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { sharedOrLocal } from './redis-connection.js';

/** A bucket of `burst` tokens that refills at `perSecond` tokens a second. */
export interface BucketSize {
  perSecond: number;
  burst: number;
}

/**
 * Token buckets per key (product.md §9.8): a full bucket allows a burst, then events pass at the refill
 * rate. In memory for one instance, in Redis (RedisTokenBuckets) when several instances count together.
 */
export interface TokenBuckets {
  /** Takes `count` tokens from `key`'s bucket, all or none; false (nothing taken) when too few are left. */
  take(key: string, count?: number): Promise<boolean>;
  /** Whether at least `count` tokens (at most a full bucket) are left for `key` now; takes none. */
  hasTokens(key: string, count?: number): Promise<boolean>;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class MemoryTokenBuckets implements TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly size: BucketSize,
    private readonly clock: Clock = systemClock,
  ) {}

  async take(key: string, count = 1): Promise<boolean> {
    const now = this.clock();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.size.burst, at: now };
    bucket.tokens = this.refilled(bucket, now);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < count) return false;
    bucket.tokens -= count;
    return true;
  }

  async hasTokens(key: string, count = 1): Promise<boolean> {
    const bucket = this.buckets.get(key);
    return !bucket || this.refilled(bucket, this.clock()) >= Math.min(count, this.size.burst);
  }

  private refilled(bucket: Bucket, now: number): number {
    return Math.min(this.size.burst, bucket.tokens + ((now - bucket.at) * this.size.perSecond) / 1000);
  }

  // A bucket that has refilled is the same as no bucket: drop those now and then, so a spray of keys
  // cannot grow the map without bound.
  private sweep(now: number): void {
    const fullAfterMs = (this.size.burst / this.size.perSecond) * 1000;
    if (now - this.lastSweep < fullAfterMs) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (this.refilled(bucket, now) >= this.size.burst) this.buckets.delete(key);
    }
  }
}

// One atomic step in Redis, on Redis's own clock so that instances whose clocks differ still agree. The
// key expires once the bucket would be full again (a full bucket and no key are the same).
const TAKE = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local perMs = tonumber(ARGV[1]) / 1000
local burst = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * perMs)
local taken = 0
if tokens >= count then
  tokens = tokens - count
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perMs) + 1)
return taken`;

// Reads without writing: the same refill, nothing taken.
const HAS_TOKENS = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if not state[1] then return 1 end
local tokens = tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * tonumber(ARGV[1]) / 1000
if tokens >= tonumber(ARGV[2]) then return 1 end
return 0`;

/**
 * The same buckets in Redis, shared by every instance that uses the same Redis database. While Redis does
 * not answer, this instance's own buckets count (decision 020): a member's messages go on.
 */
export class RedisTokenBuckets implements TokenBuckets {
  private readonly local: MemoryTokenBuckets;

  constructor(
    private readonly redis: Redis,
    /** Which limit this is (e.g. `chat-messages`): each counts in keys of its own. */
    private readonly name: string,
    private readonly size: BucketSize,
  ) {
    this.local = new MemoryTokenBuckets(size);
  }

  take(key: string, count = 1): Promise<boolean> {
    const { perSecond, burst } = this.size;
    return sharedOrLocal(
      async () => Number(await this.redis.eval(TAKE, 1, this.key(key), perSecond, burst, count)) === 1,
      () => this.local.take(key, count),
    );
  }

  hasTokens(key: string, count = 1): Promise<boolean> {
    const { perSecond, burst } = this.size;
    const least = Math.min(count, burst);
    return sharedOrLocal(
      async () => Number(await this.redis.eval(HAS_TOKENS, 1, this.key(key), perSecond, least)) === 1,
      () => this.local.hasTokens(key, count),
    );
  }

  private key(key: string): string {
    return `enishi:bucket:${this.name}:${key}`;
  }
}

/** Makes the buckets of one named limit; the container picks memory or Redis once. */
export type TokenBucketsFactory = (name: string, size: BucketSize) => TokenBuckets;

export const memoryTokenBuckets =
  (clock: Clock = systemClock): TokenBucketsFactory =>
  (_name, size) =>
    new MemoryTokenBuckets(size, clock);

export const redisTokenBuckets =
  (redis: Redis): TokenBucketsFactory =>
  (name, size) =>
    new RedisTokenBuckets(redis, name, size);
