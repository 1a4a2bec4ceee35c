import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Who has the app on screen (product.md §16): a socket whose page is visible suppresses that person's pushes.
 * Sockets report it with the `visibility` frame; a socket counts as hidden until it says otherwise.
 */
export interface Foreground {
  /**
   * One socket of `uid` became visible (+1) or hidden or closed (-1); resolves once shared, with whether
   * this instance's count for them went from 0 to 1 or from 1 to 0.
   */
  change(uid: number, delta: 1 | -1): Promise<boolean>;
  /** Those of `uids` with no visible socket anywhere. */
  away(uids: number[]): Promise<number[]>;
  close(): Promise<void>;
}

/** Visible sockets per user on this instance. */
class LocalCounts {
  readonly counts = new Map<number, number>();

  /** Returns whether the user's state flipped (first visible socket, or last one gone). */
  change(uid: number, delta: 1 | -1): boolean {
    const next = (this.counts.get(uid) ?? 0) + delta;
    if (next <= 0) this.counts.delete(uid);
    else this.counts.set(uid, next);
    return (delta === 1 && next === 1) || (delta === -1 && next === 0);
  }
}

export class InProcessForeground implements Foreground {
  private readonly local = new LocalCounts();

  async change(uid: number, delta: 1 | -1): Promise<boolean> {
    return this.local.change(uid, delta);
  }

  async away(uids: number[]): Promise<number[]> {
    return uids.filter((uid) => !this.local.counts.has(uid));
  }

  async close(): Promise<void> {}
}

/** How long an instance's word that someone is looking lasts, and how often it renews it. */
export interface ForegroundLease {
  /** Unless renewed, the word lapses after this: a crashed instance is forgotten. */
  leaseMs: number;
  /** How often the instance renews its users' words (well under the lease). */
  refreshMs: number;
}

const DEFAULT_LEASE: ForegroundLease = { leaseMs: 90_000, refreshMs: 30_000 };

/** Users one renewal pipeline carries (see `refreshAll`). */
export const REFRESH_BATCH = 200;

/**
 * Across instances: per user a sorted set of the instances showing them the app, scored by when that word
 * expires. Each instance refreshes its own entries, so a socket on any instance suppresses the push that the
 * publishing instance sends. With another `prefix`, the same counts any other per-socket state: the staff
 * presence of voice calls counts open sockets (product.md §17.8).
 */
export class RedisForeground implements Foreground {
  private readonly local = new LocalCounts();
  private readonly instance = randomUUID();
  private readonly timer: NodeJS.Timeout;
  private refreshing = false;

  private readonly key: (uid: number) => string;

  constructor(
    private readonly redis: Redis,
    private readonly onError: (error: unknown) => void,
    prefix = 'push-foreground',
    private readonly lease: ForegroundLease = DEFAULT_LEASE,
  ) {
    this.key = (uid) => `${prefix}:${uid}`;
    this.timer = setInterval(() => void this.refreshAll(), lease.refreshMs).unref();
  }

  async change(uid: number, delta: 1 | -1): Promise<boolean> {
    if (!this.local.change(uid, delta)) return false;
    if (delta === 1) await this.refresh([uid]);
    else await this.redis.zrem(this.key(uid), this.instance).then(() => undefined, this.onError);
    return true;
  }

  /**
   * Renews every user's word `REFRESH_BATCH` users a pipeline, one after another: one pipeline for 18,000
   * users (36,000 commands) held this instance's event loop and Redis for 80 ms and more, and every message's rate
   * limit with them. A renewal still running when the next is due lets it pass.
   */
  private async refreshAll(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const uids = [...this.local.counts.keys()];
      for (let start = 0; start < uids.length; start += REFRESH_BATCH) {
        // Users whose last visible socket went while earlier batches ran are left out.
        await this.refresh(
          uids.slice(start, start + REFRESH_BATCH).filter((uid) => this.local.counts.has(uid)),
        );
      }
    } finally {
      this.refreshing = false;
    }
  }

  private async refresh(uids: number[]): Promise<void> {
    if (uids.length === 0) return;
    const { leaseMs } = this.lease;
    const until = Date.now() + leaseMs;
    const pipeline = this.redis.pipeline();
    for (const uid of uids)
      pipeline.zadd(this.key(uid), until, this.instance).pexpire(this.key(uid), leaseMs);
    await pipeline.exec().then(() => undefined, this.onError);
  }

  async away(uids: number[]): Promise<number[]> {
    if (uids.length === 0) return [];
    const now = Date.now();
    const pipeline = this.redis.pipeline();
    for (const uid of uids) pipeline.zcount(this.key(uid), now, '+inf');
    const results = await pipeline.exec().catch(() => null);
    // Redis away (decision 020): only this instance's sockets are known.
    if (!results) return uids.filter((uid) => !this.local.counts.has(uid));
    return uids.filter((_, index) => !(Number(results[index]?.[1] ?? 0) > 0));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const uids = [...this.local.counts.keys()];
    this.local.counts.clear();
    if (uids.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const uid of uids) pipeline.zrem(this.key(uid), this.instance);
    await pipeline.exec().catch(this.onError);
  }
}
