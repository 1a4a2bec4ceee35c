import { metrics } from '../lib/metrics.js';
import { redisConnection } from '../lib/redis-connection.js';
import { redisLimiters, type MakeLimiter } from '../lib/limiters.js';
import { RedisCallStore } from '../services/call-store.js';
import { RedisForeground } from '../services/foreground.js';
import { RedisFanout } from '../bus/redis-fanout.js';
import { RedisSocketSeats } from '../realtime/socket-seats.js';
import type { CallDeps, FairUseDeps } from './container.js';
import { secondStepCounters, type SecondStepCounters } from '../services/second-step-lock.js';

/**
 * What several instances share through Redis: realtime delivery, rate limits (fair use's among them),
 * socket seats, who is looking.
 */
export interface SharedState {
  fanout: RedisFanout;
  rateLimiters: MakeLimiter;
  /** Wrong second-step answers per account (second-step-lock.ts). */
  secondStepCounters: SecondStepCounters;
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
      rateLimiters: redisLimiters(counters),
      secondStepCounters: secondStepCounters(counters),
      fairUse: { seats },
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
