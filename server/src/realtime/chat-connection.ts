import {
  isStaffRole,
  ja,
  SessionFrame,
  SOCKET_CLOSE,
  SOCKET_FIRST_FRAME_MAX,
  SOCKET_MAX_PAYLOAD,
  type ServerFrame,
} from '@enishi/contract';
import type { WebSocket } from 'ws';
import { AppError } from '../errors.js';
import type { Actor } from '../services/session-service.js';
import { BadgeCounter } from './badge-counter.js';
import { sendCatchUp } from './catch-up.js';
import { clientIdOf, handleFrame, type Frame } from './chat-frames.js';
import type { ChatGateway } from './chat-gateway.js';
import type { RealtimeEvent } from './events.js';
import { hasUnstorableText } from '../lib/storable-text.js';
import { limitFrameSize, parseFrameJson } from './frame-guard.js';
import { applyLiveEvent } from './live-events.js';
import { SocketSession } from './socket-session.js';

/** Live events held while catching up; more means the client cannot keep up. */
const MAX_BUFFERED_EVENTS = 2000;
/** Frames waiting their turn on one connection (each is handled in order). */
const MAX_QUEUED_FRAMES = 32;
/** Bytes waiting to be written to a slow client before it is dropped. */
const MAX_SEND_BUFFER = 8 * 1024 * 1024;

const CLOSE_TRY_AGAIN_LATER = 1013;

/**
 * One chat socket (product.md §15): the protocol, the frame queue and the session. Small on purpose:
 * an idle authenticated connection holds its actor, its subscription and a few flags, and no timer.
 */
export class ChatConnection {
  closed = false;
  skipUpTo = 0;
  openConversationId: number | null = null;
  readonly badges: BadgeCounter;
  private readonly session: SocketSession;
  /** The user this socket is counted for (see ChatGateway.hold). */
  private heldFor: number | null = null;
  private authStarted = false;
  private authTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | null = null;
  /** Live events held while the catch-up is sent; null once live. */
  private held: RealtimeEvent[] | null = null;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private markPending = false;
  /** This socket's page is on screen (the `visibility` frame); counted in the foreground state. */
  private visible = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly gateway: ChatGateway,
  ) {
    this.badges = new BadgeCounter(this, gateway);
    this.session = new SocketSession(gateway.services.sessions, gateway.clock);
    // Before the session nothing big is taken: the session frame is small (product.md §15.5).
    limitFrameSize(ws, SOCKET_FIRST_FRAME_MAX);
    ws.on('message', (data, isBinary) => this.onFrame(parseFrameJson(data, isBinary)));
    ws.on('close', () => this.dispose());
    this.authTimer = setTimeout(() => this.close(SOCKET_CLOSE.unauthenticated), gateway.authTimeoutMs);
  }

  get actor(): Actor | null {
    return this.session.actor;
  }

  private onFrame(frame: Frame | null): void {
    if (this.closed || this.gateway.draining) return;
    if (!this.authStarted) {
      // The first frame must be the session frame.
      if (frame?.type !== 'session' || hasUnstorableText(frame))
        return this.close(SOCKET_CLOSE.unauthenticated);
      this.authStarted = true;
      return this.enqueue(() => this.authenticate(frame));
    }
    if (!frame) return this.sendError(ja.errors.malformedJson);
    if (hasUnstorableText(frame)) return this.sendError(ja.errors.unstorableText, clientIdOf(frame));
    if (this.queued >= MAX_QUEUED_FRAMES) return this.sendError(ja.errors.rateLimited, clientIdOf(frame));
    this.enqueue(async () => {
      if (this.closed) return;
      const actor = await this.session.current();
      if (!actor) return this.close(SOCKET_CLOSE.sessionEnded);
      await handleFrame(this.gateway.services, this.gateway.log, this, actor, frame);
    });
  }

  /** Frames are handled one at a time, in the order they came, so a client's messages keep their order. */
  private enqueue(task: () => Promise<void>): void {
    this.queued += 1;
    const work = this.queue
      .then(task)
      .catch((error: unknown) => this.gateway.log.error({ err: error }, 'chat socket task failed'))
      .finally(() => {
        this.queued -= 1;
      });
    this.queue = work;
    this.gateway.track(work);
  }

  private async authenticate(frame: Frame): Promise<void> {
    const { services } = this.gateway;
    const parsed = SessionFrame.safeParse(frame);
    const actor = parsed.success ? await this.session.start(parsed.data.session) : null;
    if (!parsed.success || !actor) return this.close(SOCKET_CLOSE.unauthenticated);
    if (this.closed) return;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    if (!this.gateway.hold(actor.uid, this)) {
      return this.close(SOCKET_CLOSE.tooManySockets, ja.errors.tooManySockets);
    }
    this.heldFor = actor.uid;
    limitFrameSize(this.ws, SOCKET_MAX_PAYLOAD);

    // Subscribe before reading the catch-up, and hold live events until it is sent, so nothing committed
    // in between is missed; ids already sent are dropped when the held events are let through.
    this.held = [];
    this.unsubscribe = services.delivery.subscribe(actor.uid, isStaffRole(actor.role), (event) =>
      this.onEvent(event),
    );
    const lastId = parsed.data.last_id;
    const readyId = await sendCatchUp(services.messages, actor, lastId, this);
    if (lastId != null) this.skipUpTo = readyId;
    if (this.closed) return;
    const held = this.held;
    this.held = null;
    for (const event of held) this.onEvent(event);
    this.send({ type: 'ready', last_id: readyId });

    if (parsed.data.conversation_id != null) await this.openTalk(parsed.data.conversation_id);
    else this.badges.refresh();
  }

  userChanged(): void {
    this.session.userChanged();
  }

  /** Called by the gateway's sweep: a session past its end is read again, and the socket closed if gone. */
  closeIfExpired(): void {
    if (this.closed || !this.session.expired()) return;
    this.enqueue(async () => {
      if (!this.closed && !(await this.session.reread())) this.close(SOCKET_CLOSE.sessionEnded);
    });
  }

  async openTalk(conversationId: number | null): Promise<void> {
    if (conversationId === null) {
      this.openConversationId = null;
      return;
    }
    try {
      const { moved } = await this.gateway.services.messages.markRead(this.actor!, conversationId);
      this.openConversationId = conversationId;
      // When the mark moved, `notifications.changed` brings fresh counters; otherwise send them now.
      if (!moved) this.badges.refresh();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.openConversationId = null;
      this.sendError(error.message);
    }
  }

  setVisible(visible: boolean): void {
    if (visible === this.visible || !this.actor || this.closed) return;
    this.visible = visible;
    void this.gateway.services.foreground.change(this.actor.uid, visible ? 1 : -1);
  }

  /** A message arrived in the talk on screen: it has been seen. Several arrivals make one mark. */
  markOpenTalkRead(): void {
    if (this.markPending || this.gateway.draining) return;
    this.markPending = true;
    this.enqueue(async () => {
      this.markPending = false;
      if (this.openConversationId !== null && this.actor && !this.closed) {
        await this.openTalk(this.openConversationId);
      }
    });
  }

  private onEvent(event: RealtimeEvent): void {
    if (this.closed || !this.actor) return;
    if (!this.held) return applyLiveEvent(this, this.actor, event);
    if (this.held.length >= MAX_BUFFERED_EVENTS) return this.close(CLOSE_TRY_AGAIN_LATER);
    this.held.push(event);
  }

  send(frame: ServerFrame): void {
    this.sendJson(JSON.stringify(frame));
  }

  sendJson(json: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    // A client that stops reading must not make the server hold its frames without end.
    if (this.ws.bufferedAmount > MAX_SEND_BUFFER) return this.close(CLOSE_TRY_AGAIN_LATER);
    this.ws.send(json);
  }

  sendError(error: string, clientId?: string): void {
    this.send(
      clientId === undefined ? { type: 'error', error } : { type: 'error', error, client_id: clientId },
    );
  }

  close(code: number, reason?: string): void {
    if (this.closed) return;
    this.dispose();
    this.ws.close(code, reason);
  }

  private dispose(): void {
    if (this.visible && this.actor) void this.gateway.services.foreground.change(this.actor.uid, -1);
    this.visible = false;
    this.closed = true;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    this.badges.dispose();
    if (this.heldFor !== null) this.gateway.release(this.heldFor, this);
    this.heldFor = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.held = null;
  }
}
