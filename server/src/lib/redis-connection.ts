import { Redis } from 'ioredis';

/** The longest wait between two tries to reach Redis again: it is back within this of its return. */
const RECONNECT_MAX_MS = 500;

/**
 * A connection to REDIS_URL as every Redis client of the server makes it (decision 020). A command while
 * Redis is away fails at once instead of waiting in ioredis's offline queue, so that the caller answers
 * from this instance alone meanwhile; ioredis reconnects (and subscribes again) by itself.
 */
export function redisConnection(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 50, RECONNECT_MAX_MS),
  });
}

/** Redis's answer, or, when Redis did not give one, this instance's own (decision 020). */
export async function sharedOrLocal<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
  try {
    return await shared();
  } catch {
    return local();
  }
}
