import { randomUUID } from 'node:crypto';
import {
  isStaffRole,
  ja,
  SessionFrame,
  SOCKET_CLOSE,
  SOCKET_FIRST_FRAME_MAX,
  SOCKET_MAX_PAYLOAD,
  type ServerFrame,
} from '@enishi/contract';
import type { RawData, WebSocket } from 'ws';
import { AppError } from '../errors.js';
import type { Actor } from '../services/session-service.js';
import { BadgeCounter } from './badge-counter.js';
import { CallKeepAlive } from './call-keepalive.js';
import { ADMISSION } from './admission.js';
import { clientIdOf, errorFrame, handleFrame, type Frame, type ReadPictures } from './chat-frames.js';
import type { ChatGateway } from './chat-gateway.js';
import { hasUnstorableText } from '../lib/storable-text.js';
import { assembleLargeFrames } from './frame-assembly.js';
import { limitFrameSize } from './frame-guard.js';
import { parseFrameJson } from './frame-json.js';
import { byteLength, LARGE_FRAME_BYTES, leastPicturesIn } from './frame-size.js';
import { LiveFeed } from './live-feed.js';
import { PictureArrivals } from './picture-arrivals.js';
import { ReadHold } from './read-hold.js';
import { SocketSession } from './socket-session.js';

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
  private readonly feed: LiveFeed;
  readonly alreadySent = (id: number): boolean => this.feed.alreadySent(id);
  openConversationId: number | null = null;
  readonly badges: BadgeCounter;
  private readonly session: SocketSession;
  /** The user this socket is counted for (see ChatGateway.hold). */
  private heldFor: number | null = null;
  private authStarted = false;
  private authTimer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private markPending = false;
  /** This socket's page is on screen (the `visibility` frame); counted in the foreground state. */
  private visible = false;
  /** Voice calls: this socket's id, whether it is counted in presence, and its ping while in a call. */
  readonly socketId = randomUUID();
  private present = false;
  private readonly call: CallKeepAlive;
  private readonly readHold: ReadHold;
  private readonly pictures: PictureArrivals;

  constructor(
    private readonly ws: WebSocket,
    private readonly gateway: ChatGateway,
  ) {
    this.badges = new BadgeCounter(this, gateway);
    this.feed = new LiveFeed(gateway.services, this);
    this.session = new SocketSession(gateway.services.sessions, gateway.clock);
    this.readHold = new ReadHold(ws, () => this.queue);
    this.call = new CallKeepAlive(ws);
    // Before the session nothing big is taken: the session frame is small (product.md §15.5).
    limitFrameSize(ws, SOCKET_FIRST_FRAME_MAX);
    this.pictures = new PictureArrivals(gateway, this, {
      closed: () => this.closed,
      uid: () => this.heldFor,
      carryingCall: () => this.call.carrying,
      waitTurn: () => this.readHold.waitTurn(),
    });
    assembleLargeFrames(ws, LARGE_FRAME_BYTES, this.pictures);
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => this.dispose());
    this.authTimer = setTimeout(() => this.close(SOCKET_CLOSE.unauthenticated), gateway.authTimeoutMs);
  }

  get actor(): Actor | null {
    return this.session.actor;
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    const { letGo, counted: picturesCounted } = this.pictures.message();
    if (this.closed || this.gateway.draining) return picturesCounted();
    if (!this.authStarted) {
      this.onFrame(parseFrameJson(data, isBinary));
      return;
    }
    if (letGo) {
      // Its pictures were more than the member's budget allowed when it began: it was never taken in.
      this.holdReading(this.gateway.services.fairUse.pictureWaitMs);
      return this.enqueue(async () => this.sendError(ja.errors.imagesTooFast));
    }
    // Frames that come before the session is settled share one budget (uid 0, no one's).
    const uid = this.heldFor ?? 0;
    const bytes = byteLength(data);
    // Over the budget, the frame is not even read: its bytes are dropped now (product.md §15.7 item 5).
    if (this.queued >= MAX_QUEUED_FRAMES || !this.gateway.reserveBytes(uid, bytes)) {
      picturesCounted();
      // Pictures faster than they are handled wait as long as the budget for them takes; other frames
      // wait until this socket's frames before them are handled.
      this.holdReading(bytes >= LARGE_FRAME_BYTES ? this.gateway.services.fairUse.pictureWaitMs : undefined);
      return this.sendError(ja.errors.sendingTooFast);
    }
    const release = () => {
      picturesCounted();
      this.gateway.releaseBytes(uid, bytes);
    };
    if (bytes >= LARGE_FRAME_BYTES) return this.onLargeFrame(data, isBinary, release, picturesCounted);
    let handed = false;
    try {
      handed = this.onFrame(parseFrameJson(data, isBinary), release);
    } finally {
      if (!handed) release();
    }
  }

  /**
   * A frame this large carries pictures: it is read in its turn, and only while the member may send a
   * picture (otherwise it is refused unread), by the gateway's frame reader, off the event loop.
   */
  private onLargeFrame(data: RawData, isBinary: boolean, release: () => void, counted: () => void): void {
    this.enqueue(async () => {
      try {
        const uid = this.heldFor;
        if (uid !== null && !(await this.mayHavePictures(uid, leastPicturesIn(byteLength(data))))) {
          return this.sendError(ja.errors.imagesTooFast);
        }
        const read = await this.gateway.frames.read(data, isBinary).catch((error: unknown) => {
          this.gateway.log.error({ err: error }, 'large frame not read');
          return null;
        });
        if (!read) return this.sendError(ja.errors.internal);
        const frame = this.checked(read.frame, read.unstorable);
        // From here on the member's budget counts its pictures (the frame's handling takes them).
        counted();
        // Handled here, in this frame's turn: queueing it again would let later frames pass it.
        if (frame) await this.handle(frame, read.pictures);
        // Its pictures may have been the last allowed: the next frame of them is not taken in until more are.
        if (uid !== null) await this.mayHavePictures(uid);
      } finally {
        release();
      }
    });
    // One frame of pictures at a time per socket: the next waits in TCP, not in memory, until this one is
    // handled (a flood's first frames took the server's memory from 500 MB to 900 MB at once).
    this.holdReading();
  }

  /** Whether `uid` may send `count` pictures now; when not, this socket is left unread for a while. */
  private async mayHavePictures(uid: number, count = 1): Promise<boolean> {
    const may = await this.gateway.services.fairUse.mayHaveImages(uid, count);
    if (!may) this.holdReading(this.gateway.services.fairUse.pictureWaitMs);
    return may;
  }

  pictureTurnCame(): void {
    this.readHold.turnCame();
  }

  /** Leaves the socket unread (ReadHold); never one carrying a call, whose pings must be answered. */
  private holdReading(ms?: number): void {
    if (this.closed || this.call.carrying) return;
    if (ms === undefined) this.readHold.untilHandled();
    else this.readHold.for(ms);
  }

  /** Handles a parsed frame; true when it was queued and `done` will be called once it is handled. */
  private onFrame(frame: Frame | null, done: () => void = () => {}): boolean {
    if (!this.authStarted) {
      // The first frame must be the session frame.
      if (frame?.type !== 'session' || hasUnstorableText(frame)) {
        this.close(SOCKET_CLOSE.unauthenticated);
        return false;
      }
      this.authStarted = true;
      // SOCKET_AUTH_MS is for the frame to arrive; reading the session may take longer on a busy instance.
      this.authTimer = void clearTimeout(this.authTimer);
      this.enqueue(() => this.authenticate(frame));
      return false;
    }
    const checked = this.checked(frame);
    if (!checked) return false;
    this.enqueue(async () => {
      try {
        await this.handle(checked);
      } finally {
        done();
      }
    });
    return true;
  }

  /** The frame when it may be handled; otherwise it has been answered and null is returned. */
  private checked(
    frame: Frame | null,
    unstorable = frame !== null && hasUnstorableText(frame),
  ): Frame | null {
    if (!frame) {
      this.sendError(ja.errors.malformedJson);
      return null;
    }
    if (unstorable) {
      this.sendError(ja.errors.unstorableText, clientIdOf(frame));
      return null;
    }
    return frame;
  }

  /** `pictures`: what the frame reader decoded of the frame's pictures (FrameReply). */
  private async handle(frame: Frame, pictures: ReadPictures = null): Promise<void> {
    if (this.closed) return;
    const actor = await this.session.current();
    if (!actor) return this.close(SOCKET_CLOSE.sessionEnded);
    await handleFrame(this.gateway.services, this.gateway.log, this, actor, frame, pictures);
  }

  /** Frames are handled one at a time, in the order they came, so a client's messages keep their order. */
  private enqueue(task: () => Promise<void>): void {
    this.queued += 1;
    const work = this.queue
      .then(task)
      .catch((error: unknown) => {
        // Left unanswered (the session not read: the database away, decision 020): the client reconnects.
        this.gateway.log.warn({ err: error }, 'chat socket task failed');
        this.close(CLOSE_TRY_AGAIN_LATER);
      })
      .finally(() => {
        this.queued -= 1;
      });
    this.queue = work;
    this.gateway.track(work);
  }

  /** The session frame: read in its turn among the sockets arriving (admission.ts), then caught up. */
  private async authenticate(frame: Frame): Promise<void> {
    const { admission } = this.gateway;
    const parsed = SessionFrame.safeParse(frame);
    if (!parsed.success) return this.close(SOCKET_CLOSE.unauthenticated);
    const { session: token, last_id: lastId, conversation_id: talkId } = parsed.data;
    if (this.gateway.sessionIsFull(token)) {
      return this.close(SOCKET_CLOSE.tooManySockets, ja.errors.tooManySockets);
    }
    // A socket that closed while it waited its turn (its client gave up) is not read at all.
    const actor = await admission.run(ADMISSION.session, async () =>
      this.closed ? null : this.session.start(token),
    );
    if (!actor) return this.close(SOCKET_CLOSE.unauthenticated);
    if (this.closed) return;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    const turn = isStaffRole(actor.role) ? ADMISSION.staff : ADMISSION.member;
    if (!(await admission.run(turn, () => this.goLive(actor, lastId)))) return;
    if (talkId != null) await this.openTalk(talkId);
    else this.badges.refresh();
  }

  /** Seats the socket, sends the catch-up and `ready`; false when the socket closed meanwhile. */
  private async goLive(actor: Actor, lastId: number | null | undefined): Promise<boolean> {
    if (this.closed) return false;
    // Seats that cannot be counted close the socket with 1013 (enqueue): the client tries again later.
    const seated = await this.gateway.hold(actor.uid, actor.sessionId, this);
    if (!seated) {
      this.close(SOCKET_CLOSE.tooManySockets, ja.errors.tooManySockets);
      return false;
    }
    // Closed while the seat was being taken: give it back at once.
    if (this.closed) {
      this.gateway.release(actor.uid, this);
      return false;
    }
    this.heldFor = actor.uid;
    limitFrameSize(this.ws, SOCKET_MAX_PAYLOAD);
    // Subscribed before the catch-up is read (LiveFeed), and before the call presence, which may signal it.
    this.feed.subscribe(actor);
    this.present = true;
    await this.gateway.services.calls.connected(actor, this.socketId);
    const readyId = await this.feed.catchUp(actor, lastId);
    if (readyId === null) return false;
    this.send({ type: 'ready', last_id: readyId });
    return true;
  }

  userChanged(): void {
    this.session.userChanged();
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
    if (this.visible && this.actor) void this.gateway.services.foreground.change(this.actor.uid, -1);
    this.visible = false;
    if (this.present && this.actor) {
      const work = this.gateway.services.calls
        .disconnected(this.actor, this.socketId)
        .catch((error: unknown) => this.gateway.log.error({ err: error }, 'call presence failed'));
      this.gateway.track(work);
    }
    this.present = false;
    this.call.stop();
    // Read again, so that a closing handshake (or the peer's end) is seen.
    this.readHold.release();
    this.closed = true;
    clearTimeout(this.authTimer);
    this.authTimer = undefined;
    this.badges.dispose();
    this.pictures.dispose();
    if (this.heldFor !== null) this.gateway.release(this.heldFor, this);
    this.heldFor = null;
    this.feed.stop();
  }
}
