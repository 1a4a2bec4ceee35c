import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './rate-limit.js';

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
