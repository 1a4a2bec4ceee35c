import type { InsertOutcome, MessageRepository, NewMessage } from '../repositories/message-repository.js';

interface Pending {
  input: NewMessage;
  resolve: (outcome: InsertOutcome) => void;
  reject: (error: unknown) => void;
}

/** Messages written in one transaction at most; a bigger backlog goes in several. */
const MAX_BATCH = 200;

/**
 * Group commit for messages. While one batch is being written, new messages wait and go together in the
 * next, so a busy club pays the order lock and the commit once per batch instead of once per message, and
 * a quiet one writes each message at once, with no timer in between.
 */
export class MessageWriter {
  private waiting: Pending[] = [];
  private writing = false;

  constructor(private readonly messages: MessageRepository) {}

  /** Resolves once the message is committed (or found already stored under its client id). */
  write(input: NewMessage): Promise<InsertOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.writing) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) await this.writeBatch(this.waiting.splice(0, MAX_BATCH));
    } finally {
      this.writing = false;
    }
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.messages.insertBatch(batch.map((pending) => pending.input));
      batch.forEach((pending, index) => pending.resolve(outcomes[index]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One bad message (its talk deleted meanwhile, say) must not fail the others: each goes alone.
      for (const pending of batch) await this.writeBatch([pending]);
    }
  }
}
