import type { ChatGateway } from './chat-gateway.js';

/**
 * One socket's frames, handled one at a time in the order they came, so that a client's messages keep their
 * order. The gateway tracks each task, so that shutdown waits for what was accepted.
 */
export class FrameQueue {
  private tail: Promise<void> = Promise.resolve();
  /** Tasks waiting or running. */
  length = 0;

  constructor(
    private readonly gateway: ChatGateway,
    /** A task failed unanswered (the session not read: the database away, decision 020). */
    private readonly failed: () => void,
  ) {}

  /** The end of the queue as it is now. */
  get end(): Promise<void> {
    return this.tail;
  }

  add(task: () => Promise<void>): void {
    this.length += 1;
    const work = this.tail
      .then(task)
      .catch((error: unknown) => {
        // Left unanswered: the client reconnects.
        this.gateway.log.warn({ err: error }, 'chat socket task failed');
        this.failed();
      })
      .finally(() => {
        this.length -= 1;
      });
    this.tail = work;
    this.gateway.track(work);
  }
}
