import type { Redis } from 'ioredis';
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/*
 * Every rate limit of the server is a rate-limiter-flexible limiter (decision 033): counted in this
 * process's memory, or in Redis when REDIS_URL is set, so that every instance counts together. While Redis
 * does not answer, each Redis limiter counts in this instance's memory meanwhile (its insurance limiter,
 * decision 020).
 */

/** At most `points` per key in `duration` seconds; over them, the key waits `blockDuration` seconds if set. */
export interface LimitSpec {
  /** Which limit this is (e.g. `login-address`): each counts in keys of its own. */
  keyPrefix: string;
  points: number;
  duration: number;
  blockDuration?: number;
}

/** At most `max` events per key in a window of `windowMs` (how the configuration states a limit). */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** A limiter's spec from a configured limit. */
export const perWindow = (keyPrefix: string, { max, windowMs }: RateLimit): LimitSpec => ({
  keyPrefix,
  points: max,
  duration: Math.max(1, Math.round(windowMs / 1000)),
});

// A Node timer waits at most 2^31-1 ms (24.8 days); the memory store's expiry is one, so no longer than
// this. A count in memory does not outlive a restart anyway.
const MEMORY_DURATION_MAX_S = 24 * 24 * 60 * 60;

/** One limit, counted per key. */
export class RateLimiter {
  constructor(
    /** The library's limiter; BurstLimiter pairs two of them. */
    readonly counter: RateLimiterAbstract,
    private readonly points: number,
  ) {}

  /** Counts `points` for `key`; false when that is over the limit (the count stays, as an attempt does). */
  async consume(key: string, points = 1): Promise<boolean> {
    try {
      await this.counter.consume(key, points);
      return true;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return false;
      throw outcome;
    }
  }

  /** True when `key` has already reached the limit in its current window. */
  async isLimited(key: string): Promise<boolean> {
    return (await this.remaining(key)) <= 0;
  }

  /** How many points `key` has left in its current window. */
  async remaining(key: string): Promise<number> {
    const state = await this.counter.get(key);
    // Every limit here has a window, so a count whose window is over (not yet dropped) counts nothing.
    if (!state || state.msBeforeNext <= 0) return this.points;
    return Math.max(0, this.points - state.consumedPoints);
  }

  /** Gives `points` back to `key` (an event that was refused after all). */
  async refund(key: string, points: number): Promise<void> {
    await this.counter.reward(key, points);
  }

  /** Forgets `key` (e.g. after a successful login). */
  async reset(key: string): Promise<void> {
    await this.counter.delete(key);
  }
}

/** Makes the limiter of one limit; the container picks memory or Redis once, for every limit. */
export type MakeLimiter = (spec: LimitSpec) => RateLimiter;

const memoryCounter = (spec: LimitSpec) =>
  new RateLimiterMemory({ ...spec, duration: Math.min(spec.duration, MEMORY_DURATION_MAX_S) });

/** Limits counted in this process. */
export const memoryLimiters = (): MakeLimiter => (spec) => new RateLimiter(memoryCounter(spec), spec.points);

/** Limits counted in Redis for every instance, in memory while Redis does not answer. */
export const redisLimiters =
  (redis: Redis): MakeLimiter =>
  (spec) =>
    new RateLimiter(
      new RateLimiterRedis({
        ...spec,
        keyPrefix: `enishi:limit:${spec.keyPrefix}`,
        storeClient: redis,
        // Straight to the insurance while the connection is down, rather than waiting for it.
        rejectIfRedisNotReady: true,
        insuranceLimiter: memoryCounter(spec),
      }),
      spec.points,
    );

/**
 * A rate with bursts (product.md §9.8): `points` per `duration` seconds, and up to `burst` at once. The
 * library's BurstyRateLimiter pairs the rate with an allowance of the rest of the burst, which comes back
 * over ten times the time the rate takes to make up a burst (so it adds less than a tenth to the rate).
 */
export interface BurstRate {
  points: number;
  duration: number;
  burst: number;
}

export class BurstLimiter {
  private readonly rate: RateLimiter;
  private readonly allowance: RateLimiter | null;
  private readonly both: BurstyRateLimiter | null;
  /** The most one event may count and still pass (all from the rate or all from the allowance). */
  private readonly largest: number;

  constructor(make: MakeLimiter, keyPrefix: string, { points, duration, burst }: BurstRate) {
    // The rate's window never holds more than the burst: a burst of 1 at 60 a minute is 1 a second.
    const atOnce = Math.min(points, burst);
    this.rate = make({
      keyPrefix,
      points: atOnce,
      duration: Math.max(1, Math.round((duration * atOnce) / points)),
    });
    const extra = burst - atOnce;
    this.allowance =
      extra > 0
        ? make({
            keyPrefix: `${keyPrefix}-burst`,
            points: extra,
            duration: Math.ceil((10 * burst * duration) / points),
          })
        : null;
    this.both = this.allowance ? new BurstyRateLimiter(this.rate.counter, this.allowance.counter) : null;
    this.largest = Math.max(atOnce, extra);
  }

  /** Counts `count` events of `key`, all or none; false (nothing counted) when they are over the limit. */
  async consume(key: string, count = 1): Promise<boolean> {
    if (!this.both)
      return (await this.rate.consume(key, count)) || (await this.giveBack([this.rate], key, count));
    try {
      await this.both.consume(key, count);
      return true;
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      return this.giveBack([this.rate, this.allowance!], key, count);
    }
  }

  /** Whether `count` events of `key` (at most the largest that can pass at once) would pass now; counts none. */
  async allows(key: string, count = 1): Promise<boolean> {
    const wanted = Math.min(count, this.largest);
    if ((await this.rate.remaining(key)) >= wanted) return true;
    return this.allowance !== null && (await this.allowance.remaining(key)) >= wanted;
  }

  // A refused event counted in each limiter that refused it: given back, so a refusal costs nothing.
  private async giveBack(limiters: RateLimiter[], key: string, count: number): Promise<false> {
    await Promise.all(limiters.map((limiter) => limiter.refund(key, count)));
    return false;
  }
}
