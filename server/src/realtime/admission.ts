/**
 * The order in which an instance takes in sockets when many come at once (issue 25): the sockets of a
 * dead instance all reconnect to the one left, and each reads its session, takes a seat and catches up.
 * All at once, every one of them waited for all the others (1,000 took 5 to 12 s on a loaded 2-core
 * machine, and the first was ready no sooner than the last). A few at a time: staff sockets whose session
 * is read first, then the session frames (a query each, to learn who is staff), then members' sockets, so
 * that the readers of every talk are live again first. Nothing is refused: a socket only waits its turn.
 */
export const ADMISSION = {
  /** A staff socket whose session is read: its seat, catch-up and `ready`. */
  staff: 0,
  /** A session frame not yet read (one query): who is staff is known only once it is. */
  session: 1,
  /** A member's socket whose session is read. */
  member: 2,
} as const;

export type AdmissionTurn = (typeof ADMISSION)[keyof typeof ADMISSION];

/**
 * How many sockets are taken in at once: 1,000 arriving together on a loaded machine were all live sooner
 * with 32 than with 8 or with all of them at once.
 */
export const ADMISSION_AT_ONCE = 32;

export class Admission {
  private active = 0;
  /** Waiting tasks by turn, the earliest first in each. */
  private readonly waiting: (() => void)[][] = [[], [], []];

  constructor(private readonly atOnce = ADMISSION_AT_ONCE) {}

  /** Runs `task` once fewer than `atOnce` run and no earlier turn waits; its result is returned. */
  async run<T>(turn: AdmissionTurn, task: () => Promise<T>): Promise<T> {
    if (this.active < this.atOnce) this.active += 1;
    else await new Promise<void>((resolve) => this.waiting[turn]!.push(resolve));
    try {
      return await task();
    } finally {
      this.next();
    }
  }

  /** A task ended: its place goes to the first one waiting, by turn. */
  private next(): void {
    for (const queue of this.waiting) {
      const resume = queue.shift();
      if (resume) return resume();
    }
    this.active -= 1;
  }
}
