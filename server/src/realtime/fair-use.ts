import { ja } from '@enishi/contract';
import type { RateLimit, RateLimiters } from '../lib/rate-limit.js';

/**
 * Fair use of the chat socket per member (product.md §9.8): messages over all their sockets (about 10 a
 * second in bursts, counted in 3 s windows) and, fewer, images, whose decoding is the costly part. Counted
 * where the other limits are, so shared across instances when the counters are in Redis.
 */
export class FairUse {
  private readonly messages;
  private readonly images;

  constructor(limiters: RateLimiters, limits: { chatMessages: RateLimit; chatImages: RateLimit }) {
    this.messages = limiters('chat-messages', limits.chatMessages);
    this.images = limiters('chat-images', limits.chatImages);
  }

  /** Counts one message of `imageCount` images from `uid`; the text to answer when it is one too many. */
  async refusal(uid: number, imageCount: number): Promise<string | null> {
    if (!(await this.messages.consume(String(uid)))) return ja.errors.sendingTooFast;
    for (let i = 0; i < imageCount; i += 1) {
      if (!(await this.images.consume(String(uid)))) return ja.errors.imagesTooFast;
    }
    return null;
  }
}
