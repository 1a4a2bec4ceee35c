import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sharedOrLocal } from '../lib/redis-connection.js';

/**
 * The sockets each user holds (product.md §9.8: at most 10 per user), counted club-wide. A socket takes a
 * seat once its session is known and gives it back when it closes.
 */
export interface SocketSeats {
  /** Takes a seat for socket `socket` of `uid`; false (nothing taken) when the user has `max` already. */
  take(uid: number, socket: number, max: number): Promise<boolean>;
  give(uid: number, socket: number): Promise<void>;
  close(): Promise<void>;
}

/** One instance: the seats are this process's sockets. */
export class InProcessSocketSeats implements SocketSeats {
  private readonly byUser = new Map<number, Set<number>>();

  async take(uid: number, socket: number, max: number): Promise<boolean> {
    const seats = this.byUser.get(uid) ?? new Set<number>();
    if (seats.size >= max) return false;
    seats.add(socket);
    this.byUser.set(uid, seats);
    return true;
  }

  async give(uid: number, socket: number): Promise<void> {
    const seats = this.byUser.get(uid);
    if (!seats?.delete(socket)) return;
    if (seats.size === 0) this.byUser.delete(uid);
  }

  async close(): Promise<void> {}
}

const key = (uid: number) => `enishi:sockets:${uid}`;

// Per user a sorted set of `<instance>:<socket>` scored by when the seat lapses unless refreshed; lapsed
// seats are dropped before counting, on Redis's clock, so an instance that died without giving its seats
// back stops counting after one lease.
const TAKE = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

// Renews this instance's seats: KEYS are the users, ARGV[2..] the members, one per key.
const REFRESH = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[1])
for i, user in ipairs(KEYS) do
  redis.call('ZADD', user, 'XX', now + lease, ARGV[i + 1])
  redis.call('PEXPIRE', user, lease)
end
return #KEYS`;

export interface SeatLease {
  /** How long a seat counts without a refresh. */
  leaseMs: number;
  /** How often this instance refreshes its seats (well under the lease). */
  refreshMs: number;
}

/**
 * Short enough that a socket killed with its instance, reconnecting again and again while instances die
 * and restart, never finds its user's 10 seats held by dead sockets for long (the kill bench, decision
 * 010); a refresh of all of an instance's seats every 5 s costs Redis one script call per `REFRESH_BATCH`.
 */
const DEFAULT_LEASE: SeatLease = { leaseMs: 15_000, refreshMs: 5_000 };

/** Seats one refresh call renews (see `refresh`). */
export const REFRESH_BATCH = 500;

/**
 * Across instances: every instance refreshes the seats of its open sockets on a timer (a heartbeat), so
 * the seats of a killed instance lapse after `leaseMs` instead of counting forever.
 */
export class RedisSocketSeats implements SocketSeats {
  private readonly instance = randomUUID();
  private readonly mine = new Map<string, number>();
  /** Seats taken while Redis was away. */
  private readonly local = new InProcessSocketSeats();
  private readonly timer: NodeJS.Timeout;
  private refreshing = false;

  constructor(
    private readonly redis: Redis,
    private readonly onError: (error: unknown) => void,
    private readonly lease: SeatLease = DEFAULT_LEASE,
  ) {
    this.timer = setInterval(() => void this.refresh(), lease.refreshMs).unref();
  }

  /** While Redis does not answer, seats are counted on this instance alone (decision 020). */
  async take(uid: number, socket: number, max: number): Promise<boolean> {
    const member = this.member(socket);
    return sharedOrLocal(
      async () => {
        const taken = Number(await this.redis.eval(TAKE, 1, key(uid), member, max, this.lease.leaseMs)) === 1;
        if (taken) this.mine.set(member, uid);
        return taken;
      },
      () => this.local.take(uid, socket, max),
    );
  }

  async give(uid: number, socket: number): Promise<void> {
    await this.local.give(uid, socket);
    const member = this.member(socket);
    if (!this.mine.delete(member)) return;
    await this.redis.zrem(key(uid), member).then(() => undefined, this.onError);
  }

  /** Stops the heartbeat and gives back every seat (a SIGTERM; a SIGKILL leaves them to lapse). */
  async close(): Promise<void> {
    this.stopHeartbeat();
    const seats = [...this.mine];
    this.mine.clear();
    if (seats.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [member, uid] of seats) pipeline.zrem(key(uid), member);
    await pipeline.exec().catch(this.onError);
  }

  /** What a killed instance does: nothing more. Tests call it to stand for a SIGKILL. */
  stopHeartbeat(): void {
    clearInterval(this.timer);
  }

  /**
   * Renews the seats `REFRESH_BATCH` at a time, one script call after another: a script runs alone on Redis,
   * and one call for all of an instance's seats held every other client (every message's rate limit) while it
   * ran. A refresh still running when the next is due lets it pass.
   */
  private async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const members = [...this.mine.keys()];
      for (let start = 0; start < members.length; start += REFRESH_BATCH) {
        // Seats given back while earlier batches ran are left out.
        const batch = members.slice(start, start + REFRESH_BATCH).filter((member) => this.mine.has(member));
        if (batch.length === 0) continue;
        const users = batch.map((member) => key(this.mine.get(member)!));
        await this.redis
          .eval(REFRESH, users.length, ...users, this.lease.leaseMs, ...batch)
          .then(() => undefined, this.onError);
      }
    } finally {
      this.refreshing = false;
    }
  }

  private member(socket: number): string {
    return `${this.instance}:${socket}`;
  }
}
