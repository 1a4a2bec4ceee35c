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
  /** The look under way, and the one more that follows it for those who asked meanwhile. */
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

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

  /** Stops looking and waits for the looks under way to end. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.next;
    await this.running;
  }

  /**
   * Sends everything due by the time of the call. A look already under way may have asked before a send fell
   * due, so one more look follows it, shared by everyone who asks meanwhile (never more than one waits).
   */
  tick(): Promise<void> {
    if (!this.running) return this.look();
    this.next ??= this.running.then(() => {
      this.next = null;
      // A look begun since the first ended began after these callers asked: it is theirs too.
      return this.running ?? this.look();
    });
    return this.next;
  }

  private look(): Promise<void> {
    this.running = (async () => {
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
