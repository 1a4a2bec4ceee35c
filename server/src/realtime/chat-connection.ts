import type { Socket } from 'node:net';
import { SOCKET_CLOSE, type ServerFrame } from '@enishi/contract';
import type { WebSocket } from 'ws';
import type { Actor } from '../services/session-service.js';
import { BadgeCounter } from './badge-counter.js';
import { errorFrame, handleFrame, type Frame, type ReadPictures } from './chat-frames.js';
import type { ChatGateway } from './chat-gateway.js';
import { FrameIntake } from './frame-intake.js';
import { FrameQueue } from './frame-queue.js';
import { LiveFeed } from './live-feed.js';
import { OnScreen } from './on-screen.js';
import { SocketCall } from './socket-call.js';
import { SocketSession } from './socket-session.js';
import { SocketStart } from './socket-start.js';

/** Bytes waiting to be written to a slow client before it is dropped. */
const MAX_SEND_BUFFER = 8 * 1024 * 1024;

const CLOSE_TRY_AGAIN_LATER = 1013;

/** Ends a connection's corked turn (see ChatConnection.sendJson): its frames go out in one write. */
function uncork(connection: ChatConnection): void {
  connection.corked = false;
  connection.tcp.uncork();
}

/**
 * One chat socket (product.md §15): its parts, each with one job, its session as it goes on, and what goes
 * out to it. Its start is SocketStart's, the frames coming in FrameIntake's (handled in order by
 * FrameQueue), the talk and page on screen OnScreen's, live events LiveFeed's, the badges BadgeCounter's,
 * voice calls SocketCall's. Small on purpose: an idle authenticated connection holds its actor, its
 * subscription and a few flags, and no timer.
 */
export class ChatConnection {
  closed = false;
  /** Whether this turn's frames are being gathered for one write (see sendJson). */
  corked = false;
  private readonly feed: LiveFeed;
  readonly alreadySent = (id: number): boolean => this.feed.alreadySent(id);
  readonly badges: BadgeCounter;
  private readonly session: SocketSession;
  private readonly queue: FrameQueue;
  private readonly intake: FrameIntake;
  private readonly start: SocketStart;
  private readonly screen: OnScreen;
  /** The user this socket is counted for (see ChatGateway.hold). */
  heldFor: number | null = null;
  private readonly call: SocketCall;

  constructor(
    private readonly ws: WebSocket,
    private readonly gateway: ChatGateway,
    /** The connection's TCP socket, under the WebSocket. */
    readonly tcp: Socket,
  ) {
    this.badges = new BadgeCounter(this, gateway);
    this.feed = new LiveFeed(gateway.services, this);
    this.session = new SocketSession(gateway.services.sessions, gateway.clock);
    this.call = new SocketCall(ws, gateway);
    this.screen = new OnScreen(gateway, this);
    this.queue = new FrameQueue(gateway, () => this.close(CLOSE_TRY_AGAIN_LATER));
    this.intake = new FrameIntake(ws, gateway, this, this.queue);
    this.start = new SocketStart(ws, gateway, this, {
      session: this.session,
      feed: this.feed,
      call: this.call,
    });
    ws.on('close', () => this.dispose());
  }

  get actor(): Actor | null {
    return this.session.actor;
  }

  /** Voice calls: which socket this is (SocketCall). */
  get socketId(): string {
    return this.call.socketId;
  }

  get carryingCall(): boolean {
    return this.call.carrying;
  }

  pictureTurnCame(): void {
    this.intake.pictureTurnCame();
  }

  /** The session frame, first as it must be: read in the socket's turn (SocketStart). */
  sessionFrame(frame: Frame): void {
    this.start.arrived();
    this.enqueue(() => this.start.authenticate(frame));
  }

  /** `pictures`: what the frame reader decoded of the frame's pictures (FrameReply). */
  async handle(frame: Frame, pictures: ReadPictures = null): Promise<void> {
    if (this.closed) return;
    const actor = await this.session.current();
    if (!actor) return this.close(SOCKET_CLOSE.sessionEnded);
    await handleFrame(this.gateway.services, this.gateway.log, this, actor, frame, pictures);
  }

  /** Runs `task` in this socket's turn, after the frames that came before it. */
  enqueue(task: () => Promise<void>): void {
    this.queue.add(task);
  }

  userChanged(): void {
    this.session.userChanged();
    // Read now rather than at the next frame: the change may hold the session to the second-factor setup
    // (the owner's requirement, product.md §11.7), which opens no chat; such a socket closes as ended.
    this.enqueue(async () => {
      if (!this.closed && this.actor && !(await this.session.current()))
        this.close(SOCKET_CLOSE.sessionEnded);
    });
  }

  sessionExpired(): boolean {
    return this.session.expired();
  }

  /** Called by the gateway's sweep: a session past its end is read again, and the socket closed if gone. */
  closeIfExpired(): void {
    if (this.closed || !this.session.expired()) return;
    this.enqueue(async () => {
      if (!this.closed && !(await this.session.reread())) this.close(SOCKET_CLOSE.sessionEnded);
    });
  }

  get openConversationId(): number | null {
    return this.screen.openConversationId;
  }

  openTalk(conversationId: number | null): Promise<void> {
    return this.screen.openTalk(conversationId);
  }

  setVisible(visible: boolean): void {
    this.screen.setVisible(visible);
  }

  markOpenTalkRead(): void {
    this.screen.markOpenTalkRead();
  }

  carryCall(carrying: boolean): void {
    this.call.carry(carrying && !this.closed);
  }

  send(frame: ServerFrame): void {
    this.sendJson(JSON.stringify(frame));
  }

  sendJson(json: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    // A client that stops reading must not make the server hold its frames without end.
    if (this.ws.bufferedAmount > MAX_SEND_BUFFER) return this.close(CLOSE_TRY_AGAIN_LATER);
    // The frames of one turn (a batch of stored messages fanned out, a catch-up) leave in one write, not one
    // each: every write wakes a proxy in front (HAProxy spent a quarter less per message, docs/capacity.md).
    if (!this.corked) {
      this.corked = true;
      this.tcp.cork();
      process.nextTick(uncork, this);
    }
    this.ws.send(json);
  }

  sendError(error: string, clientId?: string, retry = false): void {
    this.send(errorFrame(error, clientId, retry));
  }

  close(code: number, reason?: string): void {
    if (this.closed) return;
    this.dispose();
    this.ws.close(code, reason);
  }

  private dispose(): void {
    this.screen.dispose();
    this.call.disconnected(this.actor);
    this.closed = true;
    this.start.stopTimer();
    this.badges.dispose();
    this.intake.dispose();
    if (this.heldFor !== null) this.gateway.release(this.heldFor, this);
    this.heldFor = null;
    this.feed.stop();
  }
}
