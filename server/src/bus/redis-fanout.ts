import type { Redis } from 'ioredis';
import { metrics } from '../lib/metrics.js';
import { redisConnection } from '../lib/redis-connection.js';
import { sharedCopy, Subscribers, type Fanout } from './fanout.js';

/**
 * Every instance of one club listens on this one channel (docs/decisions/008-several-instances.md). Pub/sub
 * ignores Redis database numbers, so the channel names the database: clubs (or test runs) on one Redis
 * with different databases (`redis://host/3`) do not hear each other.
 */
export const realtimeChannel = (db: number) => `enishi:realtime:${db}`;

/** One event and the topics it was published to in a row. */
interface Batch {
  payload: unknown;
  topics: string[];
}

/**
 * Realtime delivery between instances through Redis pub/sub. Each instance holds one subscription, made
 * before it serves anyone, so `subscribe` stays local and synchronous and a socket that subscribes and then
 * reads its catch-up cannot miss an event that Redis had not yet started sending it.
 *
 * One event for several topics (a message for a member and for staff) is one Redis message: the topics it
 * was published to in the same tick travel together, serialised once. A receiving instance reads the
 * topics line first and parses the JSON only when a local socket holds one of them.
 */
export class RedisFanout implements Fanout {
  private readonly subscribers: Subscribers;
  /** What was published since the last write, in publishing order; written together a microtask later. */
  private queued: Batch[] = [];
  private written: Promise<void> = Promise.resolve();
  private readonly channel: string;
  private readonly healthListeners: ((healthy: boolean) => void)[] = [];
  private healthy = true;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    onError: (error: unknown) => void,
  ) {
    this.subscribers = new Subscribers(onError);
    this.channel = realtimeChannel(publisher.options.db ?? 0);
    subscriber.on('message', (_channel: string, message: string) => {
      try {
        this.receive(message);
      } catch (error) {
        onError(error);
      }
    });
    // Whatever is published while the subscription is down never arrives: say so at once, and say it is
    // whole again only once Redis confirmed the subscription after reconnecting (ioredis subscribes again
    // on its own first; replies come in order, so ours confirms both).
    subscriber.on('close', () => this.setHealthy(false));
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(
        () => this.setHealthy(true),
        (error: unknown) => onError(error),
      );
    });
  }

  onHealth(listener: (healthy: boolean) => void): void {
    this.healthListeners.push(listener);
  }

  private setHealthy(healthy: boolean): void {
    if (this.healthy === healthy) return;
    this.healthy = healthy;
    for (const listener of this.healthListeners) listener(healthy);
  }

  /** Connects and subscribes; resolves once Redis confirmed the subscription. */
  static async connect(url: string, onError: (error: unknown) => void): Promise<RedisFanout> {
    const publisher = redisConnection(url);
    const subscriber = publisher.duplicate();
    // ioredis reconnects (and subscribes again) by itself; an error event only needs to be seen.
    publisher.on('error', onError);
    subscriber.on('error', onError);
    metrics.watchRedis('publisher', publisher);
    metrics.watchRedis('subscriber', subscriber);
    try {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(realtimeChannel(publisher.options.db ?? 0));
    } catch (error) {
      publisher.disconnect();
      subscriber.disconnect();
      throw error;
    }
    return new RedisFanout(publisher, subscriber, onError);
  }

  publish(topic: string, payload: unknown): Promise<void> {
    const last = this.queued.at(-1);
    if (last && last.payload === payload) {
      last.topics.push(topic);
      return this.written;
    }
    this.queued.push({ payload, topics: [topic] });
    // One microtask later, after the same event's other topics joined (Realtime.toAudience publishes them
    // all at once) and the other messages of the same commit were published: one write for them all,
    // in publishing order, on one connection (decision 028).
    if (this.queued.length === 1) this.written = Promise.resolve().then(() => this.send());
    return this.written;
  }

  connected(): boolean {
    return this.publisher.status === 'ready' && this.subscriber.status === 'ready';
  }

  subscribe(topic: string, handler: (payload: unknown) => void): () => void {
    return this.subscribers.add(topic, handler);
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
  }

  /**
   * Publishes on the club's channel. While Redis is away this instance's own sockets still get the event
   * (decision 020), handed over here since the subscription would not bring it back; the other instances
   * miss it (new messages they read from the database, decision 019).
   */
  private async send(): Promise<void> {
    const messages = this.queued.map(
      ({ topics, payload }) => `${topics.join(' ')}\n${JSON.stringify(payload)}`,
    );
    this.queued = [];
    const pipeline = this.publisher.pipeline();
    for (const message of messages) pipeline.publish(this.channel, message);
    const replies = await pipeline.exec().catch(() => null);
    for (const [index, message] of messages.entries()) {
      // ioredis answers [error, reply] per command; no answer at all when the write itself failed.
      const published = replies?.[index]?.[0] === null;
      if (!published || !this.healthy) this.receive(message);
    }
  }

  private receive(message: string): void {
    const newline = message.indexOf('\n');
    const topics = message.slice(0, newline).split(' ');
    const local = topics.filter((topic) => this.subscribers.has(topic));
    if (local.length === 0) return;
    const copy = sharedCopy(message.slice(newline + 1));
    for (const topic of local) this.subscribers.deliver(topic, copy);
  }
}
