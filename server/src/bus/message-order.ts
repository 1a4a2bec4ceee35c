import { metrics } from '../lib/metrics.js';
import { MinHeap } from '../lib/min-heap.js';
import type { RealtimeEvent } from './events.js';

/** A committed message on its way to this instance's sockets: its id, the topics it reaches, the event. */
export interface LiveMessage {
  id: number;
  topics: string[];
  event: RealtimeEvent;
}

/** What the order reads from the database when a publish is missing (decision 019). */
export interface StoredMessages {
  /** The newest committed message id (0 for none). */
  newestId(): Promise<number>;
  /** Committed, not deleted messages with `afterId < id <= upToId`, oldest first, at most `limit`. */
  between(afterId: number, upToId: number, limit: number): Promise<LiveMessage[]>;
}

/**
 * How often the database is asked for its newest id, the most read at once when filling a gap, and how
 * long a gap waits for its publish before it is read (0: at once).
 */
export interface OrderTiming {
  tailMs: number;
  fillLimit: number;
  gapMs: number;
}

/**
 * Two instances writing in turn leave a gap before nearly every batch: the other's message, committed just
 * before and published right after, is usually on its way. Reading it instead cost a query per batch and
 * held every later message behind it (decision 025); 50 ms keeps a dead writer's message well within 2 s.
 */
export const ORDER_TIMING: OrderTiming = { tailMs: 250, fillLimit: 500, gapMs: 50 };

/**
 * Hands this instance's sockets every committed message once, in id order, with no gap (decision 019).
 * Ids commit in id order (the order lock, decision 003), so once message N is known committed, every
 * smaller id is committed or never will be: a publish that arrives with a gap before it makes the order
 * read the gap from the database once it has waited `gapMs` for the publish, and a tail that asks for the
 * newest id finds messages whose publish never came (the writer died after its commit, Redis was down).
 * Whichever comes first closes a gap: a publish arriving while the read is out is handed on at once. A
 * copy that comes after its id was handed on, by the writer, Redis or the database, is dropped.
 *
 * Without `stored` (one instance, in-process fan-out) every message arrives in commit order from the one
 * writer, and is handed on as it comes.
 */
export class MessageOrder {
  /** Every message up to this id was handed on (or was stored before this instance started). */
  private upTo = 0;
  private readonly pending = new Map<number, LiveMessage>();
  /** The ids in `pending`, smallest first: handing on a backlog of n messages takes O(n log n), not O(n²). */
  private readonly pendingIds = new MinHeap();
  /** A read from the database is out; what arrives meanwhile still goes on when it closes the gap. */
  private filling = false;
  /** Reads the gap ahead once it has waited `gapMs` for its publish. */
  private gapTimer: NodeJS.Timeout | undefined;
  /** The newest id the last tail saw beyond `upTo`; filled on the next tail if still not handed on. */
  private behind = 0;
  private retryAfter = 0;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** Whether start() has read the newest id: until then, what is heard waits (no gap is filled from 0). */
  private ready = false;

  constructor(
    private readonly handOn: (message: LiveMessage) => void,
    private readonly stored: StoredMessages | null,
    private readonly onError: (error: unknown) => void,
    private readonly timing: OrderTiming = ORDER_TIMING,
  ) {}

  /** Reads where the database stands and starts the tail (before the instance serves anyone). */
  async start(): Promise<void> {
    if (!this.stored || this.started) return;
    this.started = true;
    this.upTo = Math.max(this.upTo, await this.stored.newestId());
    this.ready = true;
    this.timer = setInterval(() => void this.tail(), this.timing.tailMs);
    this.timer.unref();
    this.drain();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clearGapTimer();
  }

  /** A committed message, from its writer on this instance or from another one. */
  accept(message: LiveMessage): void {
    if (!this.stored) return this.handOn(message);
    if (message.id <= this.upTo || this.pending.has(message.id)) return;
    this.addPending(message);
    if (this.ready) this.drain();
  }

  /** Hands on pending messages while they follow `upTo`; a gap before one is read from the database. */
  private drain(): void {
    while (this.pending.size > 0) {
      const next = this.smallestPending();
      // Heard before start() read the newest id, or filled since: already at or below where this stands.
      if (next.id <= this.upTo) {
        this.removeSmallest();
        continue;
      }
      if (next.id !== this.upTo + 1) return this.awaitGap();
      this.passSmallest();
    }
    this.clearGapTimer();
  }

  /** A gap before the smallest pending id: its publish has `gapMs` to come, then it is read (one read at a time). */
  private awaitGap(): void {
    if (this.filling || this.gapTimer) return;
    const wait = Math.max(this.timing.gapMs, this.retryAfter - Date.now());
    if (wait <= 0) return this.fillGap();
    metrics.orderGap('waited');
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      this.fillGap();
    }, wait);
    this.gapTimer.unref();
  }

  private fillGap(): void {
    if (this.filling || this.pending.size === 0) return;
    const next = this.smallestPending().id;
    if (next > this.upTo + 1) void this.fill(next - 1);
  }

  private clearGapTimer(): void {
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
  }

  private addPending(message: LiveMessage): void {
    this.pending.set(message.id, message);
    this.pendingIds.push(message.id);
  }

  /** Pending messages leave only from the smallest id, so the map and the heap hold the same ids. */
  private smallestPending(): LiveMessage {
    return this.pending.get(this.pendingIds.peek()!)!;
  }

  private removeSmallest(): void {
    this.pending.delete(this.pendingIds.pop()!);
  }

  /** Hands on the smallest pending message (unless already handed on). */
  private passSmallest(): void {
    const message = this.smallestPending();
    this.removeSmallest();
    if (message.id <= this.upTo) return;
    this.upTo = message.id;
    try {
      this.handOn(message);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Reads the committed messages up to `upToId` (known committed) and hands them on with what is pending. */
  private async fill(upToId: number): Promise<void> {
    metrics.orderGap('read');
    this.filling = true;
    this.clearGapTimer();
    try {
      while (this.upTo < upToId) {
        const found = await this.stored!.between(this.upTo, upToId, this.timing.fillLimit);
        const last = found.length < this.timing.fillLimit ? upToId : found.at(-1)!.id;
        // What arrived meanwhile is the writer's own copy: it wins over the one read back (or already went on).
        for (const message of found)
          if (message.id > this.upTo && !this.pending.has(message.id)) this.addPending(message);
        while (this.pending.size > 0 && this.smallestPending().id <= last) this.passSmallest();
        this.upTo = Math.max(this.upTo, last);
      }
    } catch (error) {
      // The database is away: the next tail (or publish) tries again.
      this.retryAfter = Date.now() + this.timing.tailMs;
      this.onError(error);
    } finally {
      this.filling = false;
    }
    this.drain();
  }

  /** Finds messages whose publish has not come one tail after they were seen committed. */
  private async tail(): Promise<void> {
    if (this.filling) return;
    try {
      const newest = await this.stored!.newestId();
      if (this.behind > this.upTo && !this.filling) {
        this.retryAfter = 0;
        await this.fill(this.behind);
      }
      this.behind = newest > this.upTo ? newest : 0;
    } catch (error) {
      this.onError(error);
    }
  }
}
