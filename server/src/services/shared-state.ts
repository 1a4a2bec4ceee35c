import { Redis } from 'ioredis';
import { redisRateLimiters, type RateLimiters } from '../lib/rate-limit.js';
import { RedisFanout } from '../realtime/redis-fanout.js';

/** What several instances share through Redis: realtime delivery and the rate-limit counters. */
export interface SharedState {
  fanout: RedisFanout;
  rateLimiters: RateLimiters;
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
    return {
      fanout,
      rateLimiters: redisRateLimiters(counters),
      close: async () => {
        await fanout.close();
        await counters.quit();
      },
    };
  } catch (error) {
    counters.disconnect();
    throw error;
  }
}
