/**
 * Delivers events to every subscriber of a topic (e.g. `user-42`), across server instances once a shared
 * implementation (Redis, when REDIS_URL is set) backs it. Publishers call it only after the database
 * write is committed, so a subscriber never sees something that could still roll back.
 */
export interface Fanout {
  publish(topic: string, payload: unknown): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe(topic: string, handler: (payload: unknown) => void): () => void;
  close(): Promise<void>;
}

/** Freezes a JSON value all the way down, so the one copy can be shared by every subscriber. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * One process, no network. A payload is JSON-copied once, as Redis would deliver it, and that frozen copy
 * goes to every subscriber: a message for the whole staff is not copied once per staff socket.
 */
export class InProcessFanout implements Fanout {
  private readonly topics = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  async publish(topic: string, payload: unknown): Promise<void> {
    const handlers = this.topics.get(topic);
    if (!handlers || handlers.size === 0) return;
    const copy = deepFreeze(JSON.parse(JSON.stringify(payload)) as unknown);
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

  subscribe(topic: string, handler: (payload: unknown) => void): () => void {
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

  async close(): Promise<void> {
    this.topics.clear();
  }
}
