/** The pool's queue is full: the job was not run. */
export class PoolFull extends Error {
  constructor() {
    super('job pool full');
    this.name = 'PoolFull';
  }
}

/**
 * Runs at most `concurrency` jobs at once; up to `maxWaiting` more wait their turn in arrival order, and
 * one more is refused with PoolFull at once rather than queued without end.
 */
export class JobPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    /** Told each time the line grows (+1) or shrinks (-1): the queue-depth metric. */
    private readonly onWaiting: (change: number) => void = () => {},
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running += 1;
    else if (this.waiting.length >= this.maxWaiting) throw new PoolFull();
    else {
      this.onWaiting(1);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      this.onWaiting(-1);
    }
    try {
      return await job();
    } finally {
      // A finished job hands its place to the next in line, or gives it back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  get busy(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
