import { isStaffRole, ja, SessionFrame, SOCKET_CLOSE, type ServerFrame } from '@enishi/contract';
import type { RawData, WebSocket } from 'ws';
import { AppError } from '../errors.js';
import type { Actor } from '../services/session-service.js';
import { BadgeCounter } from './badge-counter.js';
import { sendCatchUp } from './catch-up.js';
import { clientIdOf, handleFrame, type Frame } from './chat-frames.js';
import type { ChatGateway } from './chat-gateway.js';
import type { RealtimeEvent } from './events.js';
import { applyLiveEvent } from './live-events.js';

/** Live events held while catching up; more means the client cannot keep up. */
const MAX_BUFFERED_EVENTS = 2000;
/** Frames waiting their turn on one connection (each is handled in order). */
const MAX_QUEUED_FRAMES = 32;
/** Bytes waiting to be written to a slow client before it is dropped. */
const MAX_SEND_BUFFER = 8 * 1024 * 1024;
/**
 * A connection reads its session again before a frame when this long has passed since the last read.
 * Logout, a new password, an account deleted or changed reach it at once as events (session.ended,
 * user.changed); this bounds what only the database knows, such as a session row deleted by hand.
 */
export const SESSION_RECHECK_MS = 30_000;

const CLOSE_TRY_AGAIN_LATER = 1013;

function parseFrame(data: RawData, isBinary: boolean): Frame | null {
  if (isBinary) return null;
  try {
    const parsed: unknown = JSON.parse(data.toString());
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Frame) : null;
  } catch {
    return null;
  }
}

/**
 * One chat socket (API.md "Chat socket"): the protocol, the frame queue and the session. Small on purpose:
 * an idle authenticated connection holds its actor, its subscription and a few flags, and no timer.
 */
export class ChatConnection {
  actor: Actor | null = null;
  closed = false;
  skipUpTo = 0;
  openConversationId: number | null = null;
  readonly badges: BadgeCounter;
  private token = '';
  /** When the session was last read, and whether an event said the user changed since. */
  private actorReadAt = 0;
  private actorStale = false;
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
    ws.on('message', (data, isBinary) => this.onFrame(parseFrame(data, isBinary)));
    ws.on('close', () => this.dispose());
    this.authTimer = setTimeout(() => this.close(SOCKET_CLOSE.unauthenticated), gateway.authTimeoutMs);
  }

  private onFrame(frame: Frame | null): void {
    if (this.closed || this.gateway.draining) return;
    if (!this.authStarted) {
      // The first frame must be the session frame.
      if (frame?.type !== 'session') return this.close(SOCKET_CLOSE.unauthenticated);
      this.authStarted = true;
      return this.enqueue(() => this.authenticate(frame));
    }
    if (!frame) return this.sendError(ja.errors.malformedJson);
    if (this.queued >= MAX_QUEUED_FRAMES) return this.sendError(ja.errors.rateLimited, clientIdOf(frame));
    this.enqueue(async () => {
      if (this.closed) return;
      const actor = await this.currentActor();
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
    const actor = parsed.success ? await services.sessions.resolve(parsed.data.session) : null;
    if (!parsed.success || !actor) return this.close(SOCKET_CLOSE.unauthenticated);
    if (this.closed) return;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    this.actor = actor;
    this.actorReadAt = this.gateway.clock();
    this.token = parsed.data.session;

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

  /** The actor, read again from the session when it may be out of date (see SESSION_RECHECK_MS). */
  private async currentActor(): Promise<Actor | null> {
    const now = this.gateway.clock();
    if (this.actor && !this.actorStale && now - this.actorReadAt < SESSION_RECHECK_MS) return this.actor;
    this.actorStale = false;
    const actor = await this.gateway.services.sessions.resolve(this.token);
    this.actor = actor;
    this.actorReadAt = now;
    return actor;
  }

  userChanged(): void {
    this.actorStale = true;
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

  close(code: number): void {
    if (this.closed) return;
    this.dispose();
    this.ws.close(code);
  }

  private dispose(): void {
    if (this.visible && this.actor) void this.gateway.services.foreground.change(this.actor.uid, -1);
    this.visible = false;
    this.closed = true;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    this.badges.dispose();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.held = null;
  }
}
