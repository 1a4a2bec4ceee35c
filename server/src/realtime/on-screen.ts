import { AppError } from '../errors.js';
import type { Actor } from '../services/session-service.js';
import type { BadgeCounter } from './badge-counter.js';
import type { ChatGateway } from './chat-gateway.js';

/** What the screen state needs of its socket. */
export interface ScreenSocket {
  readonly closed: boolean;
  readonly actor: Actor | null;
  readonly badges: BadgeCounter;
  sendError(error: string): void;
  /** Runs `task` in the socket's turn, after the frames before it (FrameIntake.enqueue). */
  enqueue(task: () => Promise<void>): void;
}

/**
 * What one socket's page shows (product.md §15): the talk open on screen, whose messages are marked read as
 * they arrive (既読 for the other side), and whether the app is on screen at all, counted in the foreground
 * state, which holds pushes back while it is.
 */
export class OnScreen {
  openConversationId: number | null = null;
  private markPending = false;
  /** This socket's page is on screen (the `visibility` frame); counted in the foreground state. */
  private visible = false;

  constructor(
    private readonly gateway: ChatGateway,
    private readonly socket: ScreenSocket,
  ) {}

  /** Opens a talk (null: none on screen) and marks it read. */
  async openTalk(conversationId: number | null): Promise<void> {
    if (conversationId === null) {
      this.openConversationId = null;
      return;
    }
    try {
      const { moved } = await this.gateway.services.messages.markRead(this.socket.actor!, conversationId);
      this.openConversationId = conversationId;
      // When the mark moved, `notifications.changed` brings fresh counters; otherwise send them now.
      if (!moved) this.socket.badges.refresh();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.openConversationId = null;
      this.socket.sendError(error.message);
    }
  }

  setVisible(visible: boolean): void {
    const { actor } = this.socket;
    if (visible === this.visible || !actor || this.socket.closed) return;
    this.visible = visible;
    void this.gateway.services.foreground.change(actor.uid, visible ? 1 : -1);
  }

  /** A message arrived in the talk on screen: it has been seen. Several arrivals make one mark. */
  markOpenTalkRead(): void {
    if (this.markPending || this.gateway.draining) return;
    this.markPending = true;
    this.socket.enqueue(async () => {
      this.markPending = false;
      if (this.openConversationId !== null && this.socket.actor && !this.socket.closed) {
        await this.openTalk(this.openConversationId);
      }
    });
  }

  /** The socket closes: its page is no longer on screen. */
  dispose(): void {
    if (this.visible && this.socket.actor)
      void this.gateway.services.foreground.change(this.socket.actor.uid, -1);
    this.visible = false;
  }
}
