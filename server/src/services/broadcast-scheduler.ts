/** How often each instance looks for due scheduled sends: well inside the minute a send may be late. */
export const SCHEDULE_POLL_MS = 15_000;

/**
 * Sends scheduled bulk sends when due (product.md §4.6). Every instance runs one: each look claims due sends
 * one at a time in the database (BroadcastService.sendDue), so instances share the work and none goes
 * twice. It looks at start (a send that fell due while no instance ran goes out then) and every
 * `pollMs`; a look that fails is logged and the next one tries again.
 */
export class BroadcastScheduler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | null = null;

  constructor(
    private readonly sendDue: () => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
    private readonly pollMs = SCHEDULE_POLL_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.pollMs);
    this.timer.unref();
  }

  /** Stops looking and waits for a look under way to end. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Sends everything due now; a look already under way is awaited instead of a second one started. */
  tick(): Promise<void> {
    this.running ??= (async () => {
      try {
        while (await this.sendDue()) {
          // The next due send, if any, at once.
        }
      } catch (error) {
        this.onError(error);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
