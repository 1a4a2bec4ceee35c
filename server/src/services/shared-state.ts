import { metrics } from '../lib/metrics.js';
import { redisConnection } from '../lib/redis-connection.js';
import { redisRateLimiters, type RateLimiters } from '../lib/rate-limit.js';
import { RedisCallStore } from '../realtime/call-store.js';
import { RedisForeground } from '../realtime/foreground.js';
import { redisTokenBuckets } from '../lib/token-bucket.js';
import { RedisFanout } from '../realtime/redis-fanout.js';
import { RedisSocketSeats } from '../realtime/socket-seats.js';
import type { CallDeps, FairUseDeps } from './container.js';

/**
 * What several instances share through Redis: realtime delivery, rate-limit counters, fair use (token
 * buckets, socket seats), who is looking.
 */
export interface SharedState {
  fanout: RedisFanout;
  rateLimiters: RateLimiters;
  fairUse: Required<FairUseDeps>;
  foreground: RedisForeground;
  /** Voice calls: the call store and staff presence (open sockets per user). */
  calls: CallDeps;
  close(): Promise<void>;
}

/**
 * Connects to REDIS_URL before the server accepts anyone; an unreachable Redis stops the start (a lone
 * instance that cannot reach the others would split delivery without anyone noticing). Once running, Redis
 * going away does not stop it: counts fall back to this instance's own until it returns (decision 020).
 */
export async function connectSharedState(
  url: string,
  onError: (error: unknown) => void,
): Promise<SharedState> {
  const counters = redisConnection(url);
  counters.on('error', onError);
  metrics.watchRedis('commands', counters);
  try {
    await counters.connect();
    const fanout = await RedisFanout.connect(url, onError);
    const foreground = new RedisForeground(counters, onError);
    const presence = new RedisForeground(counters, onError, 'call-presence');
    const seats = new RedisSocketSeats(counters, onError);
    return {
      fanout,
      rateLimiters: redisRateLimiters(counters),
      fairUse: { buckets: redisTokenBuckets(counters), seats },
      foreground,
      calls: { store: new RedisCallStore(counters), presence },
      close: async () => {
        await seats.close();
        await foreground.close();
        await presence.close();
        await fanout.close();
        await counters.quit();
      },
    };
  } catch (error) {
    counters.disconnect();
    throw error;
  }
}
