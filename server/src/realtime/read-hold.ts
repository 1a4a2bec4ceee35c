import type { WebSocket } from 'ws';

/**
 * Leaves one socket unread for a while (product.md §15.7 item 5, decision 010): for a time (as long as the
 * member's picture budget takes to allow a whole message of pictures again), until the frames the socket
 * sent before are handled, or until its member's frame of pictures arriving on another socket is whole.
 * `ws.pause()` stops taking bytes from TCP, so a client that keeps sending waits on its own side, and the
 * server spends neither memory nor CPU assembling frames it would refuse.
 */
export class ReadHold {
  #held: NodeJS.Timeout | 'until-handled' | undefined;
  /** Waiting for its turn to assemble a frame of pictures (ChatGateway.pictureTurn). */
  #waitingTurn = false;

  constructor(
    private readonly ws: WebSocket,
    /** The end of the socket's frame queue as it is now. */
    private readonly queueTail: () => Promise<void>,
  ) {}

  /** Holds for `ms`; this outlasts a hold until handled. */
  for(ms: number): void {
    if (this.#held !== undefined && this.#held !== 'until-handled') return;
    if (this.#held === undefined) this.#pause();
    this.#held = setTimeout(() => this.#endHold(), ms);
  }

  /** Holds until the frames queued now (and any taken in before the pause) are handled. */
  untilHandled(): void {
    if (this.#held !== undefined) return;
    this.#pause();
    this.#held = 'until-handled';
    this.#releaseWhenHandled();
  }

  /** Holds until `turnCame`, whatever else holds it. */
  waitTurn(): void {
    this.#pause();
    this.#waitingTurn = true;
  }

  turnCame(): void {
    this.#waitingTurn = false;
    this.#resumeIfFree();
  }

  /** Reads again now, whatever held it (also so that a closing handshake, or the peer's end, is seen). */
  release(): void {
    this.#waitingTurn = false;
    this.#endHold();
  }

  #endHold(): void {
    if (this.#held !== undefined && this.#held !== 'until-handled') clearTimeout(this.#held);
    this.#held = undefined;
    this.#resumeIfFree();
  }

  #pause(): void {
    if (!this.ws.isPaused) this.ws.pause();
  }

  #resumeIfFree(): void {
    if (this.#held === undefined && !this.#waitingTurn && this.ws.isPaused) this.ws.resume();
  }

  #releaseWhenHandled(): void {
    const last = this.queueTail();
    void last.then(() => {
      // Frames already taken in before the pause may have queued more behind it.
      if (this.queueTail() !== last) this.#releaseWhenHandled();
      else if (this.#held === 'until-handled') this.#endHold();
    });
  }
}
