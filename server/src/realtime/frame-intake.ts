import { ja, SOCKET_CLOSE, SOCKET_FIRST_FRAME_MAX } from '@enishi/contract';
import type { RawData, WebSocket } from 'ws';
import { hasUnstorableText } from '../lib/storable-text.js';
import { clientIdOf, type Frame, type ReadPictures } from './chat-frames.js';
import type { ChatGateway, HeldSocket } from './chat-gateway.js';
import { assembleLargeFrames } from './frame-assembly.js';
import { limitFrameSize } from './frame-guard.js';
import { parseFrameJson } from './frame-json.js';
import { byteLength, LARGE_FRAME_BYTES, leastPicturesIn } from './frame-size.js';
import type { FrameQueue } from './frame-queue.js';
import { PictureArrivals } from './picture-arrivals.js';
import { ReadHold } from './read-hold.js';

/** Frames waiting their turn on one connection (each is handled in order). */
const MAX_QUEUED_FRAMES = 32;

/** What the intake needs of its connection. */
export interface IntakeSocket extends HeldSocket {
  readonly closed: boolean;
  /** The user the socket is counted for (ChatGateway.hold); null before its session is settled. */
  readonly heldFor: number | null;
  /** A socket carrying a call is never left unread: its pings must be answered. */
  readonly carryingCall: boolean;
  sendError(error: string, clientId?: string): void;
  close(code: number): void;
  /** The session frame came first, as it must (its reading is the connection's to queue). */
  sessionFrame(frame: Frame): void;
  /** A frame that passed the checks, in its turn; `pictures`: what the frame reader decoded of them. */
  handle(frame: Frame, pictures?: ReadPictures): Promise<void>;
}

/**
 * The frames of one chat socket coming in (product.md §15.7): each read, checked and queued so that they are
 * handled one at a time in the order they came, within the budgets: frames waiting per socket, bytes waiting
 * per user (ChatGateway.reserveBytes) and the member's pictures (PictureArrivals, FairUse). Over a budget a
 * frame is refused and the socket left unread for a while (ReadHold), so that TCP makes the client wait.
 */
export class FrameIntake {
  private sessionStarted = false;
  private readonly readHold: ReadHold;
  private readonly pictures: PictureArrivals;

  constructor(
    private readonly ws: WebSocket,
    private readonly gateway: ChatGateway,
    private readonly socket: IntakeSocket,
    /** The socket's one queue: frames are handled in it, in the order they came. */
    private readonly queue: FrameQueue,
  ) {
    this.readHold = new ReadHold(ws, () => this.queue.end);
    // Before the session nothing big is taken: the session frame is small (product.md §15.5).
    limitFrameSize(ws, SOCKET_FIRST_FRAME_MAX);
    this.pictures = new PictureArrivals(gateway, socket, {
      closed: () => socket.closed,
      uid: () => socket.heldFor,
      carryingCall: () => socket.carryingCall,
      waitTurn: () => this.readHold.waitTurn(),
    });
    assembleLargeFrames(ws, LARGE_FRAME_BYTES, this.pictures);
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    const { letGo, counted: picturesCounted } = this.pictures.message();
    if (this.socket.closed || this.gateway.draining) return picturesCounted();
    if (!this.sessionStarted) {
      this.onFrame(parseFrameJson(data, isBinary));
      return;
    }
    if (letGo) {
      // Its pictures were more than the member's budget allowed when it began: it was never taken in.
      this.holdReading(this.gateway.services.fairUse.pictureWaitMs);
      return this.queue.add(async () => this.socket.sendError(ja.errors.imagesTooFast));
    }
    // Frames that come before the session is settled share one budget (uid 0, no one's).
    const uid = this.socket.heldFor ?? 0;
    const bytes = byteLength(data);
    // Over the budget, the frame is not even read: its bytes are dropped now (product.md §15.7 item 5).
    if (this.queue.length >= MAX_QUEUED_FRAMES || !this.gateway.reserveBytes(uid, bytes)) {
      picturesCounted();
      // Pictures faster than they are handled wait as long as the budget for them takes; other frames
      // wait until this socket's frames before them are handled.
      this.holdReading(bytes >= LARGE_FRAME_BYTES ? this.gateway.services.fairUse.pictureWaitMs : undefined);
      return this.socket.sendError(ja.errors.sendingTooFast);
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
    this.queue.add(async () => {
      try {
        const uid = this.socket.heldFor;
        if (uid !== null && !(await this.mayHavePictures(uid, leastPicturesIn(byteLength(data))))) {
          return this.socket.sendError(ja.errors.imagesTooFast);
        }
        const read = await this.gateway.frames.read(data, isBinary).catch((error: unknown) => {
          this.gateway.log.error({ err: error }, 'large frame not read');
          return null;
        });
        if (!read) return this.socket.sendError(ja.errors.internal);
        const frame = this.checked(read.frame, read.unstorable);
        // From here on the member's budget counts its pictures (the frame's handling takes them).
        counted();
        // Handled here, in this frame's turn: queueing it again would let later frames pass it.
        if (frame) await this.socket.handle(frame, read.pictures);
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

  /** The member's frame of pictures may arrive on this socket now (ChatGateway.takePictureTurn). */
  pictureTurnCame(): void {
    this.readHold.turnCame();
  }

  /** Leaves the socket unread (ReadHold); never one carrying a call, whose pings must be answered. */
  private holdReading(ms?: number): void {
    if (this.socket.closed || this.socket.carryingCall) return;
    if (ms === undefined) this.readHold.untilHandled();
    else this.readHold.for(ms);
  }

  /** Handles a parsed frame; true when it was queued and `done` will be called once it is handled. */
  private onFrame(frame: Frame | null, done: () => void = () => {}): boolean {
    if (!this.sessionStarted) {
      // The first frame must be the session frame.
      if (frame?.type !== 'session' || hasUnstorableText(frame)) {
        this.socket.close(SOCKET_CLOSE.unauthenticated);
        return false;
      }
      this.sessionStarted = true;
      this.socket.sessionFrame(frame);
      return false;
    }
    const checked = this.checked(frame);
    if (!checked) return false;
    this.queue.add(async () => {
      try {
        await this.socket.handle(checked);
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
      this.socket.sendError(ja.errors.malformedJson);
      return null;
    }
    if (unstorable) {
      this.socket.sendError(ja.errors.unstorableText, clientIdOf(frame));
      return null;
    }
    return frame;
  }

  /** The socket closes: its expected pictures will not come, and it is read again to see the closing. */
  dispose(): void {
    // Read again, so that a closing handshake (or the peer's end) is seen.
    this.readHold.release();
    this.pictures.dispose();
  }
}
