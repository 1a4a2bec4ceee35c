import type { SocketServices } from './socket-services.js';
import type { Actor } from '../services/session-service.js';
import { CATCH_UP_MAX, SentByCatchUp, sendCatchUp } from './catch-up.js';
import { topicsHeardBy } from '../services/listeners.js';
import type { RealtimeEvent } from '../bus/events.js';
import { applyLiveEvent, type LiveSocket } from './live-events.js';

/**
 * Live events held while catching up; more means the client cannot keep up. As many as a catch-up may send
 * (CATCH_UP_MAX): a staff socket back from a dead instance catches up thousands of messages while the club
 * goes on writing, and each held event is a reference to one shared copy. At 2,000, such a socket was closed
 * before it was live, again and again under load (the kill bench, product.md §20).
 */
export const MAX_HELD_EVENTS = CATCH_UP_MAX;

const CLOSE_TRY_AGAIN_LATER = 1013;

/** What the feed needs of its socket besides what a live event needs. */
export interface FedSocket extends LiveSocket {
  readonly closed: boolean;
  /** The session's actor as last read (it changes when the user does). */
  readonly actor: Actor | null;
}

/**
 * One socket's live events (product.md §15): subscribed before the catch-up is read and held until it is
 * sent, so nothing committed in between is missed; ids the catch-up sent are dropped when the held events
 * are let through.
 */
export class LiveFeed {
  private sent = new SentByCatchUp(null);
  /** Live events held while the catch-up is sent; null once live. */
  private held: RealtimeEvent[] | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly services: SocketServices,
    private readonly socket: FedSocket,
  ) {}

  /** Whether the message was sent by the catch-up, or the client said it had it (`last_id`). */
  alreadySent(id: number): boolean {
    return this.sent.has(id);
  }

  /** Starts holding the actor's live events. */
  subscribe(actor: Actor): void {
    this.held = [];
    this.unsubscribe = this.services.delivery.subscribe(topicsHeardBy(actor), (event) => this.onEvent(event));
  }

  /** Sends the catch-up after `lastId`, then the held events; the id for `ready`, or null once closed. */
  async catchUp(actor: Actor, lastId: number | null | undefined): Promise<number | null> {
    this.sent = new SentByCatchUp(lastId);
    const readyId = await sendCatchUp(this.services.messages, actor, this.sent, this.socket);
    if (this.socket.closed || !this.held) return null;
    const held = this.held;
    this.held = null;
    for (const event of held) this.onEvent(event);
    return readyId;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.held = null;
  }

  private onEvent(event: RealtimeEvent): void {
    const actor = this.socket.actor;
    if (this.socket.closed || !actor) return;
    if (!this.held) return applyLiveEvent(this.socket, actor, event);
    if (this.held.length >= MAX_HELD_EVENTS) return this.socket.close(CLOSE_TRY_AGAIN_LATER);
    this.held.push(event);
  }
}
