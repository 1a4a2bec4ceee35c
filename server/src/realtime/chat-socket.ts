import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import websocket from '@fastify/websocket';
import {
  DeleteFrame,
  firstErrorMessage,
  isStaffRole,
  ja,
  OpenFrame,
  SessionFrame,
  SOCKET_AUTH_MS,
  SOCKET_CLOSE,
  SOCKET_MAX_PAYLOAD,
  TextFrame,
  type Notifications,
  type ServerFrame,
} from '@enishi/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { presentMessage, type MessageFact } from '../presenters/message-presenter.js';
import type { Services } from '../services/container.js';
import { addUnread, badgeOf, raisesBadge } from '../rules/conversation-rules.js';
import type { Actor } from '../services/session-service.js';
import { Realtime, type RealtimeEvent } from './events.js';

export interface ChatSocketOptions {
  publicOrigin: string;
  /** The session frame must arrive within this (API.md: 5 s); tests shorten it. */
  authTimeoutMs?: number;
  /** Tests move time with their own clock. */
  clock?: Clock | undefined;
}

/** Catch-up after `last_id` comes in batches; a client further behind than this reloads over HTTP. */
const CATCH_UP_BATCH = 200;
const CATCH_UP_MAX_BATCHES = 50;
/** Live events held while catching up; more means the client cannot keep up. */
const MAX_BUFFERED_EVENTS = 2000;
/** Frames waiting their turn on one connection (each is handled in order). */
const MAX_QUEUED_FRAMES = 32;
/** Bytes waiting to be written to a slow client before it is dropped. */
const MAX_SEND_BUFFER = 8 * 1024 * 1024;
/** How long SIGTERM waits for frames in flight to be committed before closing sockets. */
const DRAIN_TIMEOUT_MS = 10_000;
/**
 * A connection reads its session again before a frame when this long has passed since the last read.
 * Logout, a new password, an account deleted or changed reach it at once as events (session.ended,
 * user.changed); this bounds what only the database knows, such as a session row deleted by hand.
 */
export const SESSION_RECHECK_MS = 30_000;
/** Badge counters are recomputed at most this often per connection; changes in between make one more run. */
const NOTIFICATION_INTERVAL_MS = 1000;

const CLOSE_GOING_AWAY = 1001;
const CLOSE_TRY_AGAIN_LATER = 1013;

/**
 * The chat socket of every connection, and what they share: the services and the frames in flight, so
 * that shutdown can wait for what was accepted to be committed before it closes sockets.
 */
export class ChatGateway {
  readonly inFlight = new Set<Promise<void>>();
  draining = false;

  constructor(
    readonly services: Services,
    readonly log: FastifyBaseLogger,
    readonly authTimeoutMs: number,
    readonly clock: Clock,
  ) {}

  track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Stops taking frames and waits (bounded) for the ones in flight to finish. */
  async drain(): Promise<void> {
    this.draining = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
      timer.unref();
    });
    // Finishing work may queue a little more (e.g. a read mark); a few rounds settle it.
    for (let round = 0; round < 5 && this.inFlight.size > 0; round += 1) {
      await Promise.race([Promise.allSettled([...this.inFlight]), timeout]);
    }
    clearTimeout(timer);
  }
}

type Frame = Record<string, unknown>;

/**
 * A new message's frame for each kind of reader, made once per message instead of once per socket: a
 * desk message reaches every staff socket, and all but its sender read the same bytes.
 */
const messageFrames = new WeakMap<MessageFact, Map<string, string>>();

function messageFrame(viewer: Actor, fact: MessageFact): string {
  const key = `${viewer.role}:${fact.from === viewer.uid}:${fact.reply?.from === viewer.uid}`;
  let frames = messageFrames.get(fact);
  if (!frames) {
    frames = new Map();
    messageFrames.set(fact, frames);
  }
  let json = frames.get(key);
  if (json === undefined) {
    const frame: ServerFrame = { type: 'message', ...presentMessage(viewer, fact) };
    json = JSON.stringify(frame);
    frames.set(key, json);
  }
  return json;
}

function clientIdOf(frame: Frame): string | undefined {
  const id = frame.client_id;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
}

/**
 * One chat socket (API.md "Chat socket"). Small on purpose: an idle authenticated connection holds its
 * actor, its subscriptions and a few flags, and no timer.
 */
class ChatConnection {
  private actor: Actor | null = null;
  private token = '';
  /** When the session was last read, and whether an event said the user changed since. */
  private actorReadAt = 0;
  private actorStale = false;
  private authStarted = false;
  private closed = false;
  private authTimer: NodeJS.Timeout | undefined;
  private unsubscribes: (() => void)[] = [];
  /** Live events held while the catch-up is sent; null once live. */
  private buffer: RealtimeEvent[] | null = null;
  /** Message ids up to this were sent by the catch-up (or the client had them). */
  private skipUpTo = 0;
  /** The talk on screen: its new messages are marked read as they arrive. */
  private openConversationId: number | null = null;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private markPending = false;
  /** The badge counters as last sent (null until counted), and what is owed to the client. */
  private counters: Notifications | null = null;
  private recountDue = false;
  private countersChanged = false;
  private counting = false;
  private countersSentAt = 0;
  private countersTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly gateway: ChatGateway,
  ) {
    ws.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    ws.on('close', () => this.dispose());
    this.authTimer = setTimeout(() => this.close(SOCKET_CLOSE.unauthenticated), gateway.authTimeoutMs);
  }

  private get services(): Services {
    return this.gateway.services;
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    if (this.closed || this.gateway.draining) return;
    let frame: Frame | null = null;
    if (!isBinary) {
      try {
        const parsed: unknown = JSON.parse(data.toString());
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) frame = parsed as Frame;
      } catch {
        // answered below
      }
    }

    if (!this.authStarted) {
      // The first frame must be the session frame.
      if (frame?.type !== 'session') return this.close(SOCKET_CLOSE.unauthenticated);
      this.authStarted = true;
      this.enqueue(() => this.authenticate(frame));
      return;
    }
    if (!frame) return this.sendError(ja.errors.malformedJson);
    if (this.queued >= MAX_QUEUED_FRAMES) return this.sendError(ja.errors.rateLimited, clientIdOf(frame));
    this.enqueue(() => this.handle(frame));
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
    const parsed = SessionFrame.safeParse(frame);
    const actor = parsed.success ? await this.services.sessions.resolve(parsed.data.session) : null;
    if (!parsed.success || !actor) return this.close(SOCKET_CLOSE.unauthenticated);
    if (this.closed) return;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    this.actor = actor;
    this.actorReadAt = this.gateway.clock();
    this.token = parsed.data.session;

    // Subscribe before reading the catch-up, and hold live events until it is sent, so nothing committed
    // in between is missed; ids already sent are dropped when the held events are let through.
    this.buffer = [];
    const onEvent = (payload: unknown) => this.onEvent(payload as RealtimeEvent);
    this.unsubscribes = Realtime.topicsFor(actor.uid, isStaffRole(actor.role)).map((topic) =>
      this.services.realtime.fanout.subscribe(topic, onEvent),
    );

    const lastId = parsed.data.last_id;
    let readyId: number;
    if (lastId != null) {
      let after = lastId;
      for (let batch = 0; batch < CATCH_UP_MAX_BATCHES; batch += 1) {
        const messages = await this.services.messages.after(actor, after, CATCH_UP_BATCH);
        for (const message of messages) this.send({ type: 'message', ...presentMessage(actor, message) });
        after = messages.at(-1)?.id ?? after;
        if (messages.length < CATCH_UP_BATCH || this.closed) break;
      }
      this.skipUpTo = after;
      readyId = after;
    } else {
      readyId = await this.services.messages.newestVisibleId(actor);
    }
    if (this.closed) return;

    const held = this.buffer;
    this.buffer = null;
    for (const event of held) this.deliver(event);
    this.send({ type: 'ready', last_id: readyId });

    if (parsed.data.conversation_id != null) await this.openTalk(parsed.data.conversation_id);
    else this.refreshNotifications();
  }

  private async handle(frame: Frame): Promise<void> {
    if (this.closed) return;
    const actor = await this.currentActor();
    if (!actor) return this.close(SOCKET_CLOSE.sessionEnded);

    try {
      switch (frame.type) {
        case 'text':
          return await this.handleText(actor, frame);
        case 'delete': {
          const parsed = this.parse(DeleteFrame, frame);
          if ('delete_message_id' in parsed)
            await this.services.messages.delete(actor, parsed.delete_message_id);
          else await this.services.messages.unpin(actor, parsed.delete_announce_id);
          return;
        }
        case 'open': {
          const parsed = this.parse(OpenFrame, frame);
          if (parsed.conversation_id == null) {
            this.openConversationId = null;
            return;
          }
          return await this.openTalk(parsed.conversation_id);
        }
        default:
          throw new AppError('bad-request', ja.errors.badRequest);
      }
    } catch (error) {
      if (error instanceof AppError) return this.sendError(error.message, clientIdOf(frame));
      this.gateway.log.error({ err: error }, 'chat frame failed');
      this.sendError(ja.errors.internal, clientIdOf(frame));
    }
  }

  /** The actor, read again from the session when it may be out of date (see SESSION_RECHECK_MS). */
  private async currentActor(): Promise<Actor | null> {
    const now = this.gateway.clock();
    if (this.actor && !this.actorStale && now - this.actorReadAt < SESSION_RECHECK_MS) return this.actor;
    this.actorStale = false;
    const actor = await this.services.sessions.resolve(this.token);
    this.actor = actor;
    this.actorReadAt = now;
    return actor;
  }

  private parse<S extends z.ZodType>(schema: S, frame: Frame): z.output<S> {
    const result = schema.safeParse(frame);
    if (!result.success) throw new AppError('bad-request', firstErrorMessage(result.error));
    return result.data;
  }

  private async handleText(actor: Actor, frame: Frame): Promise<void> {
    const input = this.parse(TextFrame, frame);
    const result = await this.services.messages.send(actor, input);
    // A new message reaches this socket through the fan-out like everyone else's copy. A repeat is
    // answered here only: the others already have it.
    if (result.outcome === 'duplicate') {
      this.send({ type: 'message', ...presentMessage(actor, result.message) });
    } else if (result.outcome === 'deleted') {
      this.send({
        type: 'delete',
        conversation_id: result.conversationId,
        delete_message_id: result.messageId,
      });
    }
  }

  private async openTalk(conversationId: number): Promise<void> {
    const actor = this.actor!;
    try {
      const { moved } = await this.services.messages.markRead(actor, conversationId);
      this.openConversationId = conversationId;
      // When the mark moved, `notifications.changed` brings fresh counters; otherwise send them now.
      if (!moved) this.refreshNotifications();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.openConversationId = null;
      this.sendError(error.message);
    }
  }

  private onEvent(event: RealtimeEvent): void {
    if (this.closed) return;
    if (this.buffer) {
      if (this.buffer.length >= MAX_BUFFERED_EVENTS) return this.close(CLOSE_TRY_AGAIN_LATER);
      this.buffer.push(event);
      return;
    }
    this.deliver(event);
  }

  private deliver(event: RealtimeEvent): void {
    const actor = this.actor;
    if (!actor || this.closed) return;
    switch (event.event) {
      case 'message.created': {
        const message = event.message;
        if (message.id <= this.skipUpTo) return;
        this.sendJson(messageFrame(actor, message));
        if (message.from === actor.uid) this.countOwn(message);
        else if (message.conversation_id === this.openConversationId) this.markOpenTalkRead();
        else this.countArrival(message);
        return;
      }
      case 'message.deleted':
        this.send({
          type: 'delete',
          conversation_id: event.conversationId,
          delete_message_id: event.messageId,
        });
        this.refreshNotifications();
        return;
      case 'announcement.removed':
        this.send({
          type: 'delete',
          conversation_id: event.conversationId,
          delete_announce_id: event.messageId,
        });
        return;
      case 'conversation.read':
        if (event.reader !== actor.uid) {
          this.send({
            type: 'read',
            conversation_id: event.conversationId,
            reader: event.reader,
            last_read_id: event.lastReadId,
          });
        }
        return;
      case 'notifications.changed':
        this.refreshNotifications();
        return;
      case 'user.changed':
        this.actorStale = true;
        return;
      case 'session.ended':
        if (event.sessionId === null || event.sessionId === actor.sessionId)
          this.close(SOCKET_CLOSE.sessionEnded);
        return;
    }
  }

  /** A message arrived in the talk on screen: it has been seen. Several arrivals make one mark. */
  private markOpenTalkRead(): void {
    if (this.markPending || this.gateway.draining) return;
    this.markPending = true;
    this.enqueue(async () => {
      this.markPending = false;
      if (this.openConversationId !== null && this.actor && !this.closed) {
        await this.openTalk(this.openConversationId);
      }
    });
  }

  /** The badge counters need counting again (a talk was read, a message deleted, news changed...). */
  private refreshNotifications(): void {
    this.recountDue = true;
    this.scheduleCounters();
  }

  /**
   * A message for another talk arrived: it raises a badge by one. The counters known from the last count
   * are moved here without a query, as long as no count is due or running (that count will include it).
   */
  private countArrival(message: MessageFact): void {
    const actor = this.actor!;
    if (!this.counters || this.recountDue || this.counting) return this.refreshNotifications();
    if (!raisesBadge(actor, message)) return;
    addUnread(this.counters, isStaffRole(actor.role), message.kind, message.member_role, 1);
    this.countersChanged = true;
    this.scheduleCounters();
  }

  /**
   * The user wrote a message: whoever writes has read what came before, so the talk's unread messages are
   * gone from its badge. Only a count can tell how many; it is needed only if that badge shows any.
   */
  private countOwn(message: MessageFact): void {
    const badge = badgeOf(isStaffRole(this.actor!.role), message.kind, message.member_role);
    if (badge && this.counters && this.counters[badge] > 0) this.refreshNotifications();
  }

  /**
   * Sends the badge counters, counting them first when due. Bursts coalesce: at most one frame per
   * NOTIFICATION_INTERVAL_MS per connection, plus one trailing frame for changes that came meanwhile, so a
   * busy desk costs each staff socket one frame a second and a count only when something other than a new
   * message changed them.
   */
  private scheduleCounters(): void {
    if (this.counting || this.countersTimer || this.closed) return;
    const wait = this.countersSentAt + NOTIFICATION_INTERVAL_MS - this.gateway.clock();
    if (wait > 0) {
      this.countersTimer = setTimeout(() => {
        this.countersTimer = undefined;
        this.scheduleCounters();
      }, wait);
      return;
    }
    this.countersSentAt = this.gateway.clock();
    if (!this.recountDue) {
      if (this.countersChanged && this.counters) this.send({ type: 'notifications', ...this.counters });
      this.countersChanged = false;
      return;
    }
    this.recountDue = false;
    this.countersChanged = false;
    this.counting = true;
    const work = (async () => {
      try {
        if (this.closed || !this.actor) return;
        this.counters = await this.services.conversations.notifications(this.actor);
        this.send({ type: 'notifications', ...this.counters });
      } catch (error) {
        this.counters = null;
        this.gateway.log.error({ err: error }, 'notification counters failed');
      } finally {
        this.counting = false;
        if (this.recountDue || this.countersChanged) this.scheduleCounters();
      }
    })();
    this.gateway.track(work);
  }

  private send(frame: ServerFrame): void {
    this.sendJson(JSON.stringify(frame));
  }

  private sendJson(json: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    // A client that stops reading must not make the server hold its frames without end.
    if (this.ws.bufferedAmount > MAX_SEND_BUFFER) return this.close(CLOSE_TRY_AGAIN_LATER);
    this.ws.send(json);
  }

  private sendError(error: string, clientId?: string): void {
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
    this.closed = true;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    clearTimeout(this.countersTimer);
    this.countersTimer = undefined;
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes = [];
    this.buffer = null;
  }
}

/**
 * Registers `GET /ws/chat`. The Origin must be PUBLIC_ORIGIN (a page elsewhere cannot open a socket with
 * a member's session). On close (SIGTERM), frames in flight are committed first, then every socket is
 * closed with 1001 so clients reconnect to another instance or after the restart.
 */
export async function installChatSocket(
  app: FastifyInstance,
  services: Services,
  options: ChatSocketOptions,
): Promise<ChatGateway> {
  const gateway = new ChatGateway(
    services,
    app.log,
    options.authTimeoutMs ?? SOCKET_AUTH_MS,
    options.clock ?? systemClock,
  );
  const onSocketError = function (this: WebSocket, error: Error) {
    app.log.info({ err: error }, 'chat socket error');
    this.terminate();
  };

  await app.register(websocket, {
    options: { maxPayload: SOCKET_MAX_PAYLOAD, perMessageDeflate: false, clientTracking: true },
    errorHandler: (error, socket) => {
      app.log.info({ err: error }, 'chat socket error');
      socket.terminate();
    },
    preClose: async function (this: FastifyInstance) {
      await gateway.drain();
      for (const client of this.websocketServer.clients) client.close(CLOSE_GOING_AWAY);
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
    },
  });

  app.get(
    '/ws/chat',
    {
      websocket: true,
      preValidation: async (request, reply) => {
        // A plain GET (no upgrade) gets the route's 404.
        if (request.ws && request.headers.origin !== options.publicOrigin) {
          request.log.info({ origin: request.headers.origin }, 'chat socket refused: origin');
          return reply.code(403).send({ error: ja.errors.forbidden });
        }
      },
    },
    (socket, request) => {
      // Keep an idle connection small (the benchmark aims at 12 KB each): the upgrade's HTTP response stays
      // attached to the TCP socket, and the plugin's error listener holds the Fastify request and reply;
      // both would live as long as the connection. Detach the one, replace the other with a shared one.
      const tcp = request.raw.socket as Socket & { _httpMessage?: ServerResponse | null };
      tcp._httpMessage?.detachSocket(tcp);
      socket.removeAllListeners('error');
      socket.on('error', onSocketError);
      if (gateway.draining) return socket.close(CLOSE_GOING_AWAY);
      new ChatConnection(socket, gateway);
    },
  );
  return gateway;
}
