import { metrics } from '../lib/metrics.js';
import type {
  InsertOutcome,
  MessageBatchRepository,
  NewBulkSend,
  NewMessage,
} from '../repositories/message-batch-repository.js';

/** Messages waiting for a batch: one talk message, or a bulk send, whose messages go together. */
interface Pending {
  inputs: NewMessage[];
  bulk?: NewBulkSend;
  resolve: (outcomes: InsertOutcome[]) => void;
  reject: (error: unknown) => void;
}

/** How many messages a pending write stores. */
const sizeOf = (pending: Pick<Pending, 'inputs' | 'bulk'>) =>
  pending.bulk ? pending.bulk.deskIds.length + 1 : pending.inputs.length;

/** Messages written in one transaction at most; a bigger backlog goes in several. */
const MAX_BATCH = 200;
/**
 * Batches at the database at once. They run one after the other on one connection (the order lock would
 * serialise them anyway), but the second is already there when the first commits, so the database goes on
 * without waiting for a round trip to the server. Measured: 2 as good as 3, both better than 1.
 */
const IN_FLIGHT = 2;

/**
 * Group commit for messages. While batches are being written, new messages wait and go together in the
 * next, so a busy club pays the order lock and the commit once per batch instead of once per message, and
 * a quiet one writes each message at once, with no timer in between. Batches are written, and answered, in
 * the order they were started (MessageBatchRepository.insertBatch runs on a connection of its own). The
 * container makes the one writer.
 */
export class MessageWriter {
  private waiting: Pending[] = [];
  private inFlight = 0;

  constructor(private readonly messages: MessageBatchRepository) {}

  /** Resolves once the message is committed (or found already stored under its client id). */
  async write(input: NewMessage): Promise<InsertOutcome> {
    const [outcome] = await this.enqueue({ inputs: [input] });
    return outcome!;
  }

  /**
   * A bulk send: its messages and its record in one batch of their own, whatever its size, so that all are
   * stored or none (decision 005), in its own statement (decision 027). Outcomes come back history message
   * first, then the copies in recipient order.
   */
  writeBulk(bulk: NewBulkSend): Promise<InsertOutcome[]> {
    return this.enqueue({ inputs: [], bulk });
  }

  private enqueue(pending: Omit<Pending, 'resolve' | 'reject'>): Promise<InsertOutcome[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...pending, resolve, reject });
      metrics.queue('message_writer', sizeOf(pending));
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.waiting.length > 0 && this.inFlight < IN_FLIGHT) {
      this.inFlight += 1;
      void this.writeBatch(this.nextBatch()).finally(() => {
        this.inFlight -= 1;
        this.startBatches();
      });
    }
  }

  /** Talk messages in arrival order up to MAX_BATCH; a bulk send always alone. */
  private nextBatch(): Pending[] {
    let count = 1;
    if (!this.waiting[0]!.bulk) {
      while (count < MAX_BATCH && count < this.waiting.length && !this.waiting[count]!.bulk) count += 1;
    }
    const batch = this.waiting.splice(0, count);
    metrics.queue('message_writer', -batch.reduce((sum, pending) => sum + sizeOf(pending), 0));
    return batch;
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    try {
      const bulk = batch[0]!.bulk;
      const outcomes = bulk
        ? await this.messages.insertBulk(bulk)
        : await this.messages.insertBatch(batch.flatMap((pending) => pending.inputs));
      if (bulk) return batch[0]!.resolve(outcomes);
      let next = 0;
      for (const pending of batch) {
        pending.resolve(outcomes.slice(next, next + pending.inputs.length));
        next += pending.inputs.length;
      }
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One bad message (its talk deleted meanwhile, say) must not fail the others: each goes alone.
      for (const pending of batch) await this.writeBatch([pending]);
    }
  }
}
