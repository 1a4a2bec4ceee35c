import { SOCKET_MAX_PER_USER } from '@enishi/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock.js';
import { MemoryRelief } from '../lib/memory-relief.js';
import type { SocketServices } from './socket-services.js';
import { Admission } from './admission.js';
import { FrameReader } from './frame-reader.js';
import { LARGE_FRAME_BYTES } from './frame-size.js';

/** How long SIGTERM waits for frames in flight to be committed before closing sockets. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Bytes of frames waiting or being handled, per user on this instance, over all their sockets: a few
 * messages of large pictures, not 32 of them on each socket (product.md §15.7 item 5).
 */
const MAX_QUEUED_BYTES_PER_USER = 96 * 1024 * 1024;

/** What the gateway asks of a connection it holds. */
export interface HeldSocket {
  /** Closes the socket when its session has ended by now (expiry is not announced by any event). */
  closeIfExpired(): void;
  /** Whether its session, as last read, has ended by now. */
  sessionExpired(): boolean;
  /** Its frame of pictures may arrive now (see takePictureTurn). */
  pictureTurnCame(): void;
}

/**
 * What every chat connection shares: the services, the frames in flight (so that shutdown can wait for
 * what was accepted to be committed before it closes sockets) and this instance's sockets by user, for the
 * per-user limit and the sweep that closes sockets of expired sessions.
 */
export class ChatGateway {
  readonly inFlight = new Set<Promise<void>>();
  draining = false;
  private readonly byUser = new Map<number, Set<HeldSocket>>();
  /** Each held socket's seat, and its session (the hash of its token, as sessions are stored). */
  private readonly heldAs = new Map<HeldSocket, { seat: number; sessionId: string }>();
  private readonly bySession = new Map<string, Set<HeldSocket>>();
  /** Per user, the sockets a frame of pictures is arriving on, in the order they began; the first is read. */
  private readonly pictureTurns = new Map<number, HeldSocket[]>();
  /** Per user, the pictures of frames taken in (at their header) that their budget has not counted yet. */
  private readonly picturesExpected = new Map<number, number>();
  /** Bytes of frames waiting or being handled, per user, over all their sockets on this instance. */
  private readonly queuedBytes = new Map<number, number>();
  private readonly relief = new MemoryRelief(LARGE_FRAME_BYTES);
  /** Reads frames of pictures off the event loop, for every socket of this instance. */
  readonly frames = new FrameReader();
  /** The order in which sockets arriving together are read and caught up. */
  readonly admission = new Admission();
  private nextSeat = 1;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly services: SocketServices,
    readonly log: FastifyBaseLogger,
    readonly authTimeoutMs: number,
    readonly clock: Clock,
    sweepMs: number,
    private readonly maxQueuedBytes = MAX_QUEUED_BYTES_PER_USER,
  ) {
    this.sweeper = setInterval(() => this.sweep(), sweepMs);
    this.sweeper.unref();
  }

  /**
   * Seats an authenticated socket for its user, club-wide (fair use, product.md §9.8); false (nothing
   * held) when the user has enough sockets already.
   */
  async hold(uid: number, sessionId: string, socket: HeldSocket): Promise<boolean> {
    const seat = this.nextSeat++;
    if (!(await this.services.fairUse.takeSeat(uid, seat))) return false;
    this.heldAs.set(socket, { seat, sessionId });
    add(this.byUser, uid, socket);
    add(this.bySession, sessionId, socket);
    return true;
  }

  release(uid: number, socket: HeldSocket): void {
    const held = this.heldAs.get(socket);
    if (!held) return;
    this.heldAs.delete(socket);
    void this.services.fairUse
      .giveSeat(uid, held.seat)
      .catch((error: unknown) => this.log.error({ err: error }, 'socket seat not given back'));
    remove(this.byUser, uid, socket);
    remove(this.bySession, held.sessionId, socket);
    this.givePictureTurn(uid, socket);
  }

  /**
   * Whether the session of `token` holds as many sockets here as its user may, with the session alive as
   * they last read it: another socket for it is then refused before anything is read from the database (a
   * flood of socket attempts with one session took the database for seconds, product.md §15.7 item 5).
   */
  sessionIsFull(token: string): boolean {
    const sockets = this.bySession.get(this.services.sessions.idOf(token));
    if (!sockets || sockets.size < SOCKET_MAX_PER_USER) return false;
    for (const socket of sockets) if (!socket.sessionExpired()) return true;
    return false;
  }

  /**
   * A frame of pictures begins to arrive on `socket` of `uid`: true when it may be read now. Otherwise the
   * socket waits until the member's frames before it on their other sockets are whole (`pictureTurnCame`):
   * assembling four at once took the event loop for half a second when a flood began (product.md §15.7 item 5).
   */
  takePictureTurn(uid: number, socket: HeldSocket): boolean {
    const queue = this.pictureTurns.get(uid) ?? [];
    if (!queue.includes(socket)) queue.push(socket);
    this.pictureTurns.set(uid, queue);
    return queue[0] === socket;
  }

  /** The frame of pictures on `socket` is whole (or the socket closed): the next one waiting may arrive. */
  givePictureTurn(uid: number, socket: HeldSocket): void {
    const queue = this.pictureTurns.get(uid);
    const index = queue?.indexOf(socket) ?? -1;
    if (!queue || index < 0) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.pictureTurns.delete(uid);
    else if (index === 0) queue[0]!.pictureTurnCame();
  }

  /** Counts `count` pictures of `uid` as on their way; returns how many were before them. */
  expectPictures(uid: number, count: number): number {
    const earlier = this.picturesExpected.get(uid) ?? 0;
    this.picturesExpected.set(uid, earlier + count);
    return earlier;
  }

  /** `count` of the pictures expected from `uid` are counted by their budget now, or will never come. */
  picturesCame(uid: number, count: number): void {
    const expected = (this.picturesExpected.get(uid) ?? 0) - count;
    if (expected <= 0) this.picturesExpected.delete(uid);
    else this.picturesExpected.set(uid, expected);
  }

  /** Counts `bytes` of a frame of `uid` until it is handled; false (nothing counted) when over the budget. */
  reserveBytes(uid: number, bytes: number): boolean {
    const queued = this.queuedBytes.get(uid) ?? 0;
    if (queued + bytes > this.maxQueuedBytes) return false;
    this.queuedBytes.set(uid, queued + bytes);
    return true;
  }

  releaseBytes(uid: number, bytes: number): void {
    this.relief.released(bytes);
    const queued = (this.queuedBytes.get(uid) ?? 0) - bytes;
    if (queued <= 0) this.queuedBytes.delete(uid);
    else this.queuedBytes.set(uid, queued);
  }

  private sweep(): void {
    for (const sockets of this.byUser.values()) for (const socket of sockets) socket.closeIfExpired();
  }

  track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Stops taking frames and waits (bounded) for the ones in flight to finish. */
  async drain(): Promise<void> {
    this.draining = true;
    clearInterval(this.sweeper);
    this.relief.stop();
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
    await this.frames.close();
  }
}

function add<K>(map: Map<K, Set<HeldSocket>>, key: K, socket: HeldSocket): void {
  const sockets = map.get(key) ?? new Set<HeldSocket>();
  sockets.add(socket);
  map.set(key, sockets);
}

function remove<K>(map: Map<K, Set<HeldSocket>>, key: K, socket: HeldSocket): void {
  const sockets = map.get(key);
  sockets?.delete(socket);
  if (sockets?.size === 0) map.delete(key);
}
