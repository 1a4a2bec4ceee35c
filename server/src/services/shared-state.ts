import { Redis } from 'ioredis';
import { redisRateLimiters, type RateLimiters } from '../lib/rate-limit.js';
import { RedisForeground } from '../realtime/foreground.js';
import { RedisFanout } from '../realtime/redis-fanout.js';

/** What several instances share through Redis: realtime delivery, rate-limit counters, who is looking. */
export interface SharedState {
  fanout: RedisFanout;
  rateLimiters: RateLimiters;
  foreground: RedisForeground;
  close(): Promise<void>;
}

/**
 * Connects to REDIS_URL before the server accepts anyone; an unreachable Redis stops the start (a lone
 * instance that cannot reach the others would split delivery without anyone noticing).
 */
export async function connectSharedState(
  url: string,
  onError: (error: unknown) => void,
): Promise<SharedState> {
  const counters = new Redis(url, { lazyConnect: true });
  counters.on('error', onError);
  try {
    await counters.connect();
    const fanout = await RedisFanout.connect(url, onError);
    const foreground = new RedisForeground(counters, onError);
    return {
      fanout,
      rateLimiters: redisRateLimiters(counters),
      foreground,
      close: async () => {
        await foreground.close();
        await fanout.close();
        await counters.quit();
      },
    };
  } catch (error) {
    counters.disconnect();
    throw error;
  }
}
