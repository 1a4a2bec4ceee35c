import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { connectSharedState, type SharedState } from '../composition/shared-state.js';
import type { TestContext } from './app.js';
import type { Clock } from '../lib/clock.js';

/**
 * TEST_REDIS_URL (default the local Redis) with a database number of the caller's: each test file that
 * uses Redis takes its own, so counters and realtime channels (which name the database) never mix.
 */
export function testRedisUrl(db: number): string {
  const url = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = `/${db}`;
  return url.toString();
}

/**
 * `count` apps on the context's database sharing the Redis database of `url` (fan-out and rate limits), as
 * several instances run; `close` ends their Redis connections (the context closes the apps).
 */
export async function appsOnRedis(
  ctx: TestContext,
  url: string,
  count = 2,
  clock?: Clock,
): Promise<{ apps: FastifyInstance[]; close(): Promise<void> }> {
  const shared: SharedState[] = [];
  const apps: FastifyInstance[] = [];
  for (let i = 0; i < count; i += 1) {
    const state = await connectSharedState(url, (error) => {
      throw error;
    });
    shared.push(state);
    apps.push(
      await ctx.buildApp({}, clock, {
        fanout: state.fanout,
        rateLimiters: state.rateLimiters,
        secondStepCounters: state.secondStepCounters,
      }),
    );
  }
  return {
    apps,
    close: async () => {
      for (const state of shared) await state.close();
    },
  };
}

/**
 * Cuts the `count` Redis subscriptions on the database of `url` (only the calling file uses it) and waits
 * until they are back: whatever was published in between never arrived.
 */
export async function cutSubscriptions(url: string, count = 2): Promise<void> {
  const db = new URL(url).pathname.slice(1);
  const admin = new Redis(url);
  try {
    const subscribers = async () =>
      ((await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string)
        .split('\n')
        .filter((line) => line.includes(` db=${db} `))
        .map((line) => /id=(\d+)/.exec(line)![1]!);
    const cut = await subscribers();
    if (cut.length !== count) throw new Error(`${cut.length} subscriptions, not ${count}`);
    for (const id of cut) await admin.call('CLIENT', 'KILL', 'ID', id);
    for (;;) {
      const now = await subscribers();
      if (now.length === count && now.every((id) => !cut.includes(id))) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    admin.disconnect();
  }
}
