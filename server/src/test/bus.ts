import { sharedCopy, Subscribers, type Fanout } from '../bus/fanout.js';

/** What happens to an instance's publishes: they go out, wait for `release`, or are lost (the writer died). */
export type BusMode = 'pass' | 'hold' | 'drop';

/**
 * A fan-out between instances in one process, for tests of several instances without Redis: each instance
 * gets its own endpoint (its own subscribers), and a test can hold or lose one instance's publishes. Not an
 * InProcessFanout, so each instance orders messages as it does with Redis (decision 019).
 */
export class TestBus {
  private readonly endpoints: BusEndpoint[] = [];

  endpoint(): BusEndpoint {
    const endpoint = new BusEndpoint(this);
    this.endpoints.push(endpoint);
    return endpoint;
  }

  send(topic: string, json: string): void {
    for (const endpoint of this.endpoints) endpoint.receive(topic, json);
  }
}

export class BusEndpoint implements Fanout {
  mode: BusMode = 'pass';
  private readonly subscribers = new Subscribers(() => {});
  private held: [string, string][] = [];

  constructor(private readonly bus: TestBus) {}

  async publish(topic: string, payload: unknown): Promise<void> {
    const json = JSON.stringify(payload);
    if (this.mode === 'drop') return;
    if (this.mode === 'hold') this.held.push([topic, json]);
    else this.bus.send(topic, json);
  }

  /** Sends what was held, in the order it was published, and lets later publishes through. */
  release(): void {
    this.mode = 'pass';
    const held = this.held;
    this.held = [];
    for (const [topic, json] of held) this.bus.send(topic, json);
  }

  receive(topic: string, json: string): void {
    if (this.subscribers.has(topic)) this.subscribers.deliver(topic, sharedCopy(json));
  }

  subscribe(topic: string, handler: (payload: unknown) => void): () => void {
    return this.subscribers.add(topic, handler);
  }

  async close(): Promise<void> {}
}
