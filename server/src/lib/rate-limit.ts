import type { Clock } from './clock.js';
import { systemClock } from './clock.js';

/**
 * Counts events per key in a fixed window. Kept behind this interface so a shared store (Redis) can
 * replace the in-memory one when several instances run.
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
    private readonly limit: { max: number; windowMs: number },
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
