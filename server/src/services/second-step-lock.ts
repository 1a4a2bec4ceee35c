import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import {
  SECOND_STEP_DAILY_FAILURES,
  SECOND_STEP_FAILURES,
  SECOND_STEP_LOCK_MEMORY_S,
  SECOND_STEP_LOCK_S,
  SECOND_STEP_WINDOW_S,
  jaSecondStep,
} from '@enishi/contract';
import { rateLimited } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { NoticeRepository } from '../repositories/notice-repository.js';

/*
 * Wrong second-step answers (TOTP codes, recovery codes) counted per account, whichever ticket, address or
 * session they came with (product.md §11.7, decision 035). Each try is counted before it is checked, so tries
 * sent in parallel cannot pass the count together; a right answer gives its try back. The 5th wrong answer
 * within 15 minutes locks the account's codes: the lock is a `second_step_locked` notice (so the person is
 * told at their next login), and it lasts 15 minutes, twice as long for each lock of the day before it. At
 * most 20 wrong answers count in a day: past them, answers wait until the day's count ends.
 */

/** The counts of wrong answers: per 15 minutes (5 lock), and per day (20 lock until the day's count ends). */
export interface SecondStepCounters {
  window: RateLimiterAbstract;
  day: RateLimiterAbstract;
}

/**
 * The counters of wrong answers: in memory, or in Redis when instances must count together (a Redis that
 * does not answer falls back to this instance's own count, decision 020). The one place they are made.
 */
export function secondStepCounters(redis?: Redis, keyPrefix = 'enishi:second-step'): SecondStepCounters {
  const make = (suffix: string, points: number, duration: number) => {
    const options = { keyPrefix: `${keyPrefix}${suffix}`, points, duration };
    if (!redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: redis,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  };
  return {
    window: make('', SECOND_STEP_FAILURES, SECOND_STEP_WINDOW_S),
    day: make(':day', SECOND_STEP_DAILY_FAILURES, 24 * 60 * 60),
  };
}

const LOCK_MS = SECOND_STEP_LOCK_S * 1000;
const MEMORY_MS = SECOND_STEP_LOCK_MEMORY_S * 1000;

/** Counts one try; null when it is over the limit. */
async function count(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
  try {
    return await limiter.consume(key);
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return null;
    throw refusal;
  }
}

/** When the lock made at each of these times ends: 15 minutes, doubled for every lock of the day before it. */
export function lockEnds(locks: Date[]): number[] {
  return locks.map((at, index) => {
    const before = locks.slice(0, index).filter((earlier) => earlier.getTime() > at.getTime() - MEMORY_MS);
    return at.getTime() + Math.min(LOCK_MS * 2 ** before.length, MEMORY_MS);
  });
}

export class SecondStepLock {
  constructor(
    private readonly counters: SecondStepCounters,
    private readonly notices: NoticeRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks one code-like answer of `uid` under the count: refused (429) while the account is locked or when
   * this try is past the count; `check` says whether the answer is right.
   */
  async guard(uid: number, check: () => Promise<boolean>): Promise<boolean> {
    const key = String(uid);
    // Checked before the try is counted (a locked account's tries count nothing) and after (a lock made
    // meanwhile, whose count was started afresh).
    if (await this.locked(uid)) throw rateLimited(jaSecondStep.errors.locked);
    const [inWindow, inDay] = await Promise.all([
      count(this.counters.window, key),
      count(this.counters.day, key),
    ]);
    if (!inWindow || !inDay || (await this.locked(uid))) {
      await Promise.all([
        inWindow && this.counters.window.reward(key),
        inDay && this.counters.day.reward(key),
      ]);
      throw rateLimited(jaSecondStep.errors.locked);
    }
    if (await check()) {
      await Promise.all([this.counters.window.reward(key), this.counters.day.reward(key)]);
      return true;
    }
    const windowFull = inWindow.consumedPoints >= SECOND_STEP_FAILURES;
    if (windowFull || inDay.consumedPoints >= SECOND_STEP_DAILY_FAILURES) {
      // The lock (a committed row) comes before the window's count starts again, so no try counted afresh
      // misses it. The day's count is kept: past it, answers wait for the day's count to end.
      await this.notices.add(uid, 'second_step_locked', new Date(this.clock()));
      if (windowFull) await this.counters.window.delete(key);
    }
    return false;
  }

  /** Whether the account's codes are refused now. */
  async locked(uid: number): Promise<boolean> {
    const now = this.clock();
    const locks = await this.notices.madeSince(uid, 'second_step_locked', new Date(now - 2 * MEMORY_MS));
    return lockEnds(locks).some((end) => end > now);
  }
}
