import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock.js';
import type { Services } from '../services/container.js';

/** How long SIGTERM waits for frames in flight to be committed before closing sockets. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * What every chat connection shares: the services and the frames in flight, so that shutdown can wait for
 * what was accepted to be committed before it closes sockets.
 */
export class ChatGateway {
  readonly inFlight = new Set<Promise<void>>();
  draining = false;

  constructor(
    readonly services: Services,
    readonly log: FastifyBaseLogger,
    readonly authTimeoutMs: number,
    readonly clock: Clock,
  ) {}

  track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Stops taking frames and waits (bounded) for the ones in flight to finish. */
  async drain(): Promise<void> {
    this.draining = true;
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
