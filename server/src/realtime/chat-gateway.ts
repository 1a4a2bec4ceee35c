import { SOCKET_MAX_PER_USER } from '@enishi/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock.js';
import type { Services } from '../services/container.js';

/** How long SIGTERM waits for frames in flight to be committed before closing sockets. */
const DRAIN_TIMEOUT_MS = 10_000;

/** What the gateway asks of a connection it holds. */
export interface HeldSocket {
  /** Closes the socket when its session has ended by now (expiry is not announced by any event). */
  closeIfExpired(): void;
}

/**
 * What every chat connection shares: the services, the frames in flight (so that shutdown can wait for
 * what was accepted to be committed before it closes sockets) and this instance's sockets by user, for the
 * per-user limit and the sweep that closes sockets of expired sessions.
 */
export class ChatGateway {
  readonly inFlight = new Set<Promise<void>>();
  draining = false;
  private readonly byUser = new Map<number, Set<HeldSocket>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly services: Services,
    readonly log: FastifyBaseLogger,
    readonly authTimeoutMs: number,
    readonly clock: Clock,
    sweepMs: number,
  ) {
    this.sweeper = setInterval(() => this.sweep(), sweepMs);
    this.sweeper.unref();
  }

  /** Counts an authenticated socket for its user; false (nothing held) when the user has enough already. */
  hold(uid: number, socket: HeldSocket): boolean {
    let sockets = this.byUser.get(uid);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(uid, sockets);
    }
    if (sockets.size >= SOCKET_MAX_PER_USER) return false;
    sockets.add(socket);
    return true;
  }

  release(uid: number, socket: HeldSocket): void {
    const sockets = this.byUser.get(uid);
    if (!sockets?.delete(socket)) return;
    if (sockets.size === 0) this.byUser.delete(uid);
  }

  private sweep(): void {
    for (const sockets of this.byUser.values()) for (const socket of sockets) socket.closeIfExpired();
  }

  track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Stops taking frames and waits (bounded) for the ones in flight to finish. */
  async drain(): Promise<void> {
    this.draining = true;
    clearInterval(this.sweeper);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
      timer.unref();
    });
    // Finishing work may queue a little more (e.g. a read mark); a few rounds settle it.
    for (let round = 0; round < 5 && this.inFlight.size > 0; round += 1) {
      await Promise.race([Promise.allSettled([...this.inFlight]), timeout]);
    }
    clearTimeout(timer);
  }
}
