import webPush, { WebPushError } from 'web-push';
import { metrics } from '../lib/metrics.js';
import type { StoredSubscription } from '../repositories/push-repository.js';
import type { VapidKeys } from './push-service.js';
import { checkedPushEndpoint } from '../lib/push-endpoint.js';
import { PushAddressRefused, PushAgent, type Resolve } from '../lib/push-connection.js';

/** How long a push may wait at the push service, and how soon it must arrive, per kind (product.md §16). */
export const PUSH_DELIVERY = {
  message: { TTL: 24 * 60 * 60, urgency: 'normal' },
  news: { TTL: 24 * 60 * 60, urgency: 'low' },
  // A call no one answers within a minute is over.
  call: { TTL: 60, urgency: 'high' },
} as const;
export type PushDelivery = (typeof PUSH_DELIVERY)[keyof typeof PUSH_DELIVERY];

export interface PushJob {
  subscription: StoredSubscription;
  payload: string;
  delivery: PushDelivery;
  /** Called once the push service took it (a bulk send's copy is counted as pushed, product.md §4.6). */
  onSent?: () => Promise<void>;
}

export interface PushQueueOptions {
  keys: () => Promise<VapidKeys>;
  subject: string;
  /** PUSH_ALLOWED_HOSTS: an endpoint stored before a rule tightened is checked again and never posted to. */
  allowedHosts: readonly string[];
  /** The endpoint is gone (404/410), or may no longer be posted to: forget it. */
  onGone: (endpoint: string) => Promise<void>;
  onError: (error: unknown) => void;
  /** Tests trust their local push receiver's certificate with it. */
  ca?: Buffer;
  /** Tests give the addresses a host name resolves to; otherwise the system's resolver. */
  resolve?: Resolve;
  concurrency?: number;
  maxAttempts?: number;
  /** The first retry's wait; each next one doubles. */
  backoffMs?: number;
}

const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After in seconds or as a date; null when absent or unreadable. */
function retryAfterMs(header: string | undefined, now: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Pushes go out after the commit, off the path of talking: queued, at most `concurrency` at the push services
 * at once, retried with backoff on 429 and 5xx (honouring Retry-After) a bounded number of times.
 */
export class PushQueue {
  private readonly waiting: PushJob[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  /** Every push connects through it: only to an address it checked (lib/push-connection.ts). */
  private readonly agent: PushAgent;

  constructor(private readonly options: PushQueueOptions) {
    const { allowedHosts, resolve, ca } = options;
    this.agent = new PushAgent({ allowedHosts, resolve, ca });
  }

  enqueue(job: PushJob): void {
    this.waiting.push(job);
    metrics.pushQueued(1);
    this.pump();
  }

  /** Resolves once nothing is waiting or being sent (tests and the bench). */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    const limit = this.options.concurrency ?? 8;
    while (this.running < limit && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running += 1;
      void this.send(job)
        .catch(this.options.onError)
        .finally(() => {
          this.running -= 1;
          metrics.pushQueued(-1);
          this.pump();
          if (this.running === 0 && this.waiting.length === 0) {
            for (const resolve of this.idleWaiters.splice(0)) resolve();
          }
        });
    }
  }

  private async send(job: PushJob): Promise<void> {
    const { maxAttempts = 4, backoffMs = 1000 } = this.options;
    const keys = await this.options.keys();
    const { endpoint, p256dh, auth } = job.subscription;
    if (checkedPushEndpoint(endpoint, this.options.allowedHosts) === null)
      return this.options.onGone(endpoint);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await webPush.sendNotification({ endpoint, keys: { p256dh, auth } }, job.payload, {
          vapidDetails: { subject: this.options.subject, ...keys },
          TTL: job.delivery.TTL,
          urgency: job.delivery.urgency,
          contentEncoding: 'aes128gcm',
          agent: this.agent,
        });
        await job.onSent?.();
        return;
      } catch (error) {
        // Not a push service: no retry will change that (the next resolution is checked again anyway).
        if (error instanceof PushAddressRefused) throw error;
        const status = error instanceof WebPushError ? error.statusCode : 0;
        metrics.pushFailed(status);
        if (status === 404 || status === 410) return this.options.onGone(endpoint);
        const retryable = status === 429 || status >= 500 || status === 0;
        if (!retryable || attempt >= maxAttempts) throw error;
        const header = error instanceof WebPushError ? error.headers['retry-after'] : undefined;
        const told = retryAfterMs(header, Date.now());
        await wait(Math.min(told ?? backoffMs * 2 ** (attempt - 1), MAX_RETRY_AFTER_MS));
      }
    }
  }
}
