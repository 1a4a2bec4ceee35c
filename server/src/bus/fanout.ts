/**
 * Delivers events to every subscriber of a topic (e.g. `user-42`), across server instances once a shared
 * implementation (Redis, when REDIS_URL is set) backs it. Publishers call it only after the database
 * write is committed, so a subscriber never sees something that could still roll back.
 */
export interface Fanout {
  publish(topic: string, payload: unknown): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe(topic: string, handler: (payload: unknown) => void): () => void;
  /**
   * Tells `listener` when events from other instances may be missed (false: the shared subscription is down)
   * and when they flow again (true). A fan-out within one process never misses any and never calls it.
   */
  onHealth?(listener: (healthy: boolean) => void): void;
  close(): Promise<void>;
  /** Whether it reaches the other instances now (Redis connected); in-process fan-outs always do. */
  connected?(): boolean;
}

/** Freezes a JSON value all the way down, so the one copy can be shared by every subscriber. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The local subscribers of each topic; both fan-outs deliver through it. */
export class Subscribers {
  private readonly topics = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  has(topic: string): boolean {
    return this.topics.has(topic);
  }

  /** Hands the one frozen copy to every handler of the topic. */
  deliver(topic: string, copy: unknown): void {
    const handlers = this.topics.get(topic);
    if (!handlers) return;
    // A copy of the set: a handler may unsubscribe while we deliver.
    for (const handler of [...handlers]) {
      try {
        handler(copy);
      } catch (error) {
        // One broken subscriber must not keep the event from the others.
        this.onError(error);
      }
    }
  }

  add(topic: string, handler: (payload: unknown) => void): () => void {
    let handlers = this.topics.get(topic);
    if (!handlers) {
      handlers = new Set();
      this.topics.set(topic, handlers);
    }
    handlers.add(handler);
    return () => {
      const current = this.topics.get(topic);
      current?.delete(handler);
      if (current?.size === 0) this.topics.delete(topic);
    };
  }

  clear(): void {
    this.topics.clear();
  }
}

/** The copy every subscriber shares: parsed from JSON (as it arrives from Redis) and frozen. */
export function sharedCopy(json: string): unknown {
  return deepFreeze(JSON.parse(json) as unknown);
}

/**
 * One process, no network. A payload is JSON-copied once, as Redis would deliver it, and that frozen copy
 * goes to every subscriber: a message for the whole staff is not copied once per staff socket.
 */
export class InProcessFanout implements Fanout {
  private readonly subscribers: Subscribers;

  constructor(onError: (error: unknown) => void = () => {}) {
    this.subscribers = new Subscribers(onError);
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    if (!this.subscribers.has(topic)) return;
    this.subscribers.deliver(topic, sharedCopy(JSON.stringify(payload)));
  }

  subscribe(topic: string, handler: (payload: unknown) => void): () => void {
    return this.subscribers.add(topic, handler);
  }

  async close(): Promise<void> {
    this.subscribers.clear();
  }
}
