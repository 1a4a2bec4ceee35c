import { randomUUID } from 'node:crypto';
import type { ServerFrame } from '@enishi/contract';
import WebSocket from 'ws';

/*
 * Clients of a cluster (test/cluster.ts) for cluster.test.ts and outages.test.ts: members streaming messages
 * through the balancer, reconnecting and resending as the web app's outbox does, and their echoes counted.
 */

/** Echoes counted over any number of clients (pass `onAck` to each); `reach(n)` resolves once n came. */
export class AckCounter {
  count = 0;
  private waiting: { count: number; resolve: () => void } | undefined;

  readonly onAck = (): void => {
    this.count += 1;
    if (this.waiting && this.count >= this.waiting.count) this.waiting.resolve();
  };

  reach(count: number): Promise<void> {
    if (this.count >= count) return Promise.resolve();
    return new Promise<void>((resolve) => (this.waiting = { count, resolve }));
  }
}

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;
type ErrorFrame = Extract<ServerFrame, { type: 'error' }>;

/** A client reconnects this soon after its socket failed to open (e.g. both instances restarting). */
const RETRY_MS = 100;
/** A frame refused for now (`retry`: the database was away) is sent again this much later, as the outbox does. */
export const RESEND_MS = 500;

/**
 * A chat client as the web app behaves: keeps a few text frames in flight, and when its socket dies it
 * connects again through the balancer with `last_id` (the highest id it saw) and re-sends every frame not
 * yet echoed, under the same client id. A frame answered with an error that says `retry` is sent again
 * after RESEND_MS.
 */
export class StreamingClient {
  readonly sent: string[] = [];
  /** client id -> message id, from the first echo. */
  readonly acked = new Map<string, number>();
  /** Every message id this client received, with how often. */
  readonly received = new Map<number, number>();
  /** Echoes that named another id than the first echo for the same client id. */
  readonly mismatches: string[] = [];
  /** Error frames about this client's messages, with when they came. */
  readonly refusals: { frame: ErrorFrame; at: number }[] = [];
  /** Every answer (echo or error) to a frame sent: when it came, and how long after the frame was sent. */
  readonly answers: { at: number; ms: number }[] = [];
  /** client id -> how many times its frame went out (a re-send after a reconnect or a `retry` counts). */
  private readonly timesSent = new Map<string, number>();
  /** client id -> when it was last sent, and when it was last answered (an echo or an error). */
  private readonly sentAt = new Map<string, number>();
  private readonly answeredAt = new Map<string, number>();
  private readonly unacked = new Map<string, string>();
  private lastId: number | null = null;
  private sending = true;
  private ready = false;
  private closed = false;
  private ws: WebSocket | undefined;
  private drained: (() => void) | undefined;
  private onReceived: (() => void) | undefined;
  reconnects = 0;

  constructor(
    private readonly url: string,
    private readonly origin: string,
    private readonly ssid: string,
    private readonly conversationId: number,
    private readonly inFlight: number,
    private readonly onAck: () => void,
  ) {}

  /** Connects; `lastId` is the newest message the client already has (null: none, start from the newest). */
  start(lastId: number | null = null): void {
    this.lastId = lastId;
    this.connect();
  }

  /** Stops sending new frames; resolves once every frame sent was echoed. The socket stays open. */
  async finish(): Promise<void> {
    this.sending = false;
    if (this.unacked.size > 0) await new Promise<void>((resolve) => (this.drained = resolve));
  }

  /** Resolves once every id in `ids` was received, or when `ms` have passed (the caller sees what is missing). */
  async sees(ids: number[], ms: number): Promise<void> {
    const missing = () => ids.some((id) => !this.received.has(id));
    if (!missing()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.onReceived = () => {
        if (!missing()) done();
      };
    });
    this.onReceived = undefined;
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }

  private connect(): void {
    const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/ws/chat`, { origin: this.origin });
    this.ws = ws;
    this.ready = false;
    ws.on('error', () => {});
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'session', session: this.ssid, last_id: this.lastId })),
    );
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as ServerFrame;
      if (frame.type === 'message') this.onMessage(frame);
      if (frame.type === 'error') this.onError(ws, frame);
      if (frame.type === 'ready') {
        this.ready = true;
        this.lastId = Math.max(this.lastId ?? 0, frame.last_id);
        for (const [clientId, text] of this.unacked) this.send(ws, clientId, text);
        this.topUp();
      }
    });
    ws.on('close', () => {
      if (this.closed) return;
      this.reconnects += 1;
      if (this.ready) this.connect();
      else setTimeout(() => this.connect(), RETRY_MS);
    });
  }

  private onMessage(frame: MessageFrame): void {
    this.received.set(frame.id, (this.received.get(frame.id) ?? 0) + 1);
    this.onReceived?.();
    this.lastId = Math.max(this.lastId ?? 0, frame.id);
    if (!frame.own || !frame.client_id) return;
    if (this.unacked.has(frame.client_id)) this.answered(frame.client_id);
    const first = this.acked.get(frame.client_id);
    if (first !== undefined && first !== frame.id) this.mismatches.push(frame.client_id);
    if (!this.unacked.delete(frame.client_id)) return;
    this.acked.set(frame.client_id, frame.id);
    this.onAck();
    this.topUp();
    if (this.unacked.size === 0) this.drained?.();
  }

  /** Frames sent more than `ms` ago and not answered since (neither echoed nor refused): silently dropped. */
  unanswered(ms: number): string[] {
    const now = Date.now();
    return [...this.unacked.keys()].filter((clientId) => {
      const sent = this.sentAt.get(clientId) ?? now;
      return now - sent > ms && (this.answeredAt.get(clientId) ?? 0) < sent;
    });
  }

  private onError(ws: WebSocket, frame: ErrorFrame): void {
    const clientId = frame.client_id;
    if (!clientId || !this.unacked.has(clientId)) return;
    this.answered(clientId);
    this.refusals.push({ frame, at: Date.now() });
    if (!frame.retry) return;
    setTimeout(() => {
      const text = this.unacked.get(clientId);
      if (text && this.ws === ws && this.ready && ws.readyState === WebSocket.OPEN)
        this.send(ws, clientId, text);
    }, RESEND_MS);
  }

  private answered(clientId: string): void {
    const now = Date.now();
    this.answeredAt.set(clientId, now);
    this.answers.push({ at: now, ms: now - (this.sentAt.get(clientId) ?? now) });
  }

  /**
   * Message ids received more often than they may be: once, or for the client's own message once per frame
   * it sent (API.md: a repeated client_id is answered with the message already stored, so a frame re-sent
   * after a reconnect may be answered besides the first frame's echo reaching the new socket).
   */
  doubles(): number[] {
    const clientIdOf = new Map([...this.acked].map(([clientId, id]) => [id, clientId]));
    return [...this.received]
      .filter(([id, times]) => {
        const clientId = clientIdOf.get(id);
        return times > (clientId === undefined ? 1 : (this.timesSent.get(clientId) ?? 1));
      })
      .map(([id]) => id);
  }

  private send(ws: WebSocket, clientId: string, text: string): void {
    this.timesSent.set(clientId, (this.timesSent.get(clientId) ?? 0) + 1);
    this.sentAt.set(clientId, Date.now());
    ws.send(text);
  }

  private topUp(): void {
    const ws = this.ws;
    while (
      this.sending &&
      this.ready &&
      ws?.readyState === WebSocket.OPEN &&
      this.unacked.size < this.inFlight
    ) {
      const clientId = randomUUID();
      const text = JSON.stringify({
        type: 'text',
        conversation_id: this.conversationId,
        message: `負荷 ${this.sent.length + 1}`,
        image: [],
        reply: null,
        announce: false,
        client_id: clientId,
      });
      this.sent.push(clientId);
      this.unacked.set(clientId, text);
      this.send(ws, clientId, text);
    }
  }
}
