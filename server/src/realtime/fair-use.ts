import { ja, MESSAGE_IMAGES_MAX, SOCKET_MAX_PER_USER } from '@enishi/contract';
import { BurstLimiter, type BurstRate, type MakeLimiter } from '../lib/limiters.js';
import type { SocketSeats } from './socket-seats.js';

/**
 * Fair use of the chat socket per member (product.md §9.8): sockets per user, and rates with bursts on
 * messages over all their sockets (about 10 a second, bursts of 30) and on images, whose decoding is the
 * costly part. With Redis both are counted club-wide, so a member gains nothing from several instances.
 */
/** The longest a socket is left unread while its member is out of pictures. */
const PICTURE_WAIT_MAX_MS = 60_000;

export class FairUse {
  private readonly messages: BurstLimiter;
  private readonly images: BurstLimiter;
  private readonly imageBurst: number;
  /** How long the picture budget takes to allow a whole message of pictures again from empty. */
  readonly pictureWaitMs: number;

  constructor(
    limiter: MakeLimiter,
    private readonly seats: SocketSeats,
    limits: { chatMessages: BurstRate; chatImages: BurstRate },
  ) {
    this.messages = new BurstLimiter(limiter, 'chat-messages', limits.chatMessages);
    this.images = new BurstLimiter(limiter, 'chat-images', limits.chatImages);
    const { points, duration, burst } = limits.chatImages;
    this.imageBurst = burst;
    const refill = ((Math.min(MESSAGE_IMAGES_MAX, burst) * duration) / points) * 1000;
    this.pictureWaitMs = Math.min(PICTURE_WAIT_MAX_MS, Math.ceil(refill));
  }

  /** Counts one message of `imageCount` images from `uid`; the text to answer when it is one too many. */
  async refusal(uid: number, imageCount: number): Promise<string | null> {
    if (!(await this.messages.consume(String(uid)))) return ja.errors.sendingTooFast;
    if (imageCount > 0 && !(await this.images.consume(String(uid), imageCount)))
      return ja.errors.imagesTooFast;
    return null;
  }

  /** Whether `uid` may send `count` images now (a large frame is read only then); takes nothing. */
  mayHaveImages(uid: number, count = 1): Promise<boolean> {
    return this.images.allows(String(uid), count);
  }

  /**
   * Whether `uid` may send `count` pictures now after `earlier` ones on their way (taken in, not yet counted):
   * only when the budget holds them all, or, with none on their way, as `mayHaveImages`. Takes nothing.
   */
  roomForPictures(uid: number, earlier: number, count: number): Promise<boolean> {
    if (earlier > 0 && earlier + count > this.imageBurst) return Promise.resolve(false);
    return this.images.allows(String(uid), earlier + count);
  }

  /** Seats socket `socket` of `uid`; false when the user holds the most sockets allowed already. */
  takeSeat(uid: number, socket: number): Promise<boolean> {
    return this.seats.take(uid, socket, SOCKET_MAX_PER_USER);
  }

  giveSeat(uid: number, socket: number): Promise<void> {
    return this.seats.give(uid, socket);
  }
}
