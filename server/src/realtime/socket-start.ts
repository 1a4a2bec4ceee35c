import {
  ja,
  scope,
  SessionFrame,
  SOCKET_CLOSE,
  SOCKET_MAX_PAYLOAD,
  type ServerFrame,
} from '@enishi/contract';
import type { WebSocket } from 'ws';
import type { Actor } from '../services/session-service.js';
import { ADMISSION } from './admission.js';
import type { BadgeCounter } from './badge-counter.js';
import type { Frame } from './chat-frames.js';
import type { ChatGateway, HeldSocket } from './chat-gateway.js';
import { limitFrameSize } from './frame-guard.js';
import type { LiveFeed } from './live-feed.js';
import type { SocketCall } from './socket-call.js';
import type { SocketSession } from './socket-session.js';

/** What the start needs of its socket. */
export interface StartingSocket extends HeldSocket {
  readonly closed: boolean;
  /** The user the socket is counted for, set once it is seated (ChatGateway.hold). */
  heldFor: number | null;
  readonly badges: BadgeCounter;
  close(code: number, reason?: string): void;
  send(frame: ServerFrame): void;
  openTalk(conversationId: number): Promise<void>;
}

/**
 * A chat socket's start (product.md §15.5): the session frame must come within SOCKET_AUTH_MS; its session is
 * read in its turn among the sockets arriving (admission.ts), then the socket is seated, subscribed, counted in
 * the call presence and caught up, and gets `ready`.
 */
export class SocketStart {
  private authTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly gateway: ChatGateway,
    private readonly socket: StartingSocket,
    private readonly parts: { session: SocketSession; feed: LiveFeed; call: SocketCall },
  ) {
    this.authTimer = setTimeout(() => socket.close(SOCKET_CLOSE.unauthenticated), gateway.authTimeoutMs);
  }

  /** The session frame came: SOCKET_AUTH_MS was for it to arrive; reading it may take longer on a busy instance. */
  arrived(): void {
    this.stopTimer();
  }

  /** The session frame, in the socket's turn: read, then the socket goes live and opens its talk. */
  async authenticate(frame: Frame): Promise<void> {
    const { admission } = this.gateway;
    const parsed = SessionFrame.safeParse(frame);
    if (!parsed.success) return this.socket.close(SOCKET_CLOSE.unauthenticated);
    const { session: token, last_id: lastId, conversation_id: talkId } = parsed.data;
    if (this.gateway.sessionIsFull(token)) {
      return this.socket.close(SOCKET_CLOSE.tooManySockets, ja.errors.tooManySockets);
    }
    // A socket that closed while it waited its turn (its client gave up) is not read at all.
    const actor = await admission.run(ADMISSION.session, async () =>
      this.socket.closed ? null : this.parts.session.start(token),
    );
    if (!actor) return this.socket.close(SOCKET_CLOSE.unauthenticated);
    if (this.socket.closed) return;
    this.stopTimer();
    // Readers of every talk (staff) first, so that every talk has its readers live again soonest.
    const turn = scope(actor, 'talk.read').all ? ADMISSION.staff : ADMISSION.member;
    if (!(await admission.run(turn, () => this.goLive(actor, lastId)))) return;
    if (talkId != null) await this.socket.openTalk(talkId);
    else this.socket.badges.refresh();
  }

  /** Seats the socket, sends the catch-up and `ready`; false when the socket closed meanwhile. */
  private async goLive(actor: Actor, lastId: number | null | undefined): Promise<boolean> {
    const { socket } = this;
    if (socket.closed) return false;
    // Seats that cannot be counted close the socket with 1013 (FrameQueue): the client tries again later.
    const seated = await this.gateway.hold(actor.uid, actor.sessionId, socket);
    if (!seated) {
      socket.close(SOCKET_CLOSE.tooManySockets, ja.errors.tooManySockets);
      return false;
    }
    // Closed while the seat was being taken: give it back at once.
    if (socket.closed) {
      this.gateway.release(actor.uid, socket);
      return false;
    }
    socket.heldFor = actor.uid;
    limitFrameSize(this.ws, SOCKET_MAX_PAYLOAD);
    // Subscribed before the catch-up is read (LiveFeed), and before the call presence, which may signal it.
    this.parts.feed.subscribe(actor);
    await this.parts.call.connected(actor);
    const readyId = await this.parts.feed.catchUp(actor, lastId);
    if (readyId === null) return false;
    socket.send({ type: 'ready', last_id: readyId });
    return true;
  }

  /** The socket closed: no session frame is waited for any more. */
  stopTimer(): void {
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
  }
}
