// One chat socket of the kill bench (bench/kill.ts) through the balancer, behaving as the web app's
// (web/src/lib/chat/socket.ts): reconnects after 4.5 s ± 1 s with `last_id`, drops a connection not live
// after 15 s, reads the room list after `reload`, and sends again what was not echoed.
import WebSocket from 'ws';
import { socketReconnectDelay } from '../packages/contract/src/limits.js';

/**
 * How long a dropped socket waits: the web app's 4.5 s ± 1 s, or BENCH_KILL_RETRY_MS ± half of it (what a
 * quicker client would get; 0 tries again at once).
 */
const retryDelay = () => {
  const quick = process.env.BENCH_KILL_RETRY_MS;
  return quick === undefined ? socketReconnectDelay() : Number(quick) * (0.5 + Math.random());
};
/** As the web app: a connection not live this long after opening is dropped and made again. */
const READY_TIMEOUT_MS = 15_000;
/** Socket closes by code (1006: the instance died; 4429: the user's sockets were all taken). */
export const closes = new Map<number, number>();

export interface Sent {
  frame: string;
  id?: number;
  /** When the echo came: the message was committed by then. */
  ackedAt?: number;
}

/** One socket through the balancer that reconnects with `last_id` as the web app does. */
export class Client {
  private ws: WebSocket | undefined;
  private lastId: number | null = null;
  private ready = false;
  private closed = false;
  private readyTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Sockets opened, how many became live and how long that took, and the `reload` frames followed. */
  readonly tally = { opened: 0, ready: 0, readyMs: [] as number[], reloads: 0 };
  /** Optional trace of this socket's life (BENCH_KILL_TRACE). */
  trace: ((line: string) => void) | null = null;
  /** Frames not yet echoed, by client id. */
  readonly unacked = new Map<string, string>();
  /** Message id -> times received, and when first. */
  readonly received = new Map<number, { times: number; at: number }>();
  /** When this client's sockets were live: from `ready` to their close (`to` unset while open). */
  readonly live: { from: number; to?: number }[] = [];
  /**
   * Ids a `reload` stood for (after the `last_id` sent, up to the `ready` that followed): the web app reads
   * those over HTTP, so they never come on the socket.
   */
  readonly reloaded: { after: number; upTo: number }[] = [];
  private reloadAfter: number | null = null;

  constructor(
    private readonly url: string,
    private readonly session: string,
    private readonly onEcho: (clientId: string, id: number) => void,
  ) {}

  start(): void {
    if (this.closed) return;
    const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/ws/chat`, {
      origin: this.url,
      perMessageDeflate: false,
    });
    const openedAt = performance.now();
    this.ws = ws;
    this.ready = false;
    this.tally.opened += 1;
    this.trace?.('open');
    ws.on('error', () => {});
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: 'session', session: this.session, last_id: this.lastId }));
      this.readyTimer = setTimeout(() => ws.terminate(), READY_TIMEOUT_MS);
    });
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as {
        type: string;
        id?: number;
        own?: boolean;
        client_id?: string;
        last_id?: number;
      };
      if (frame.type === 'reload') {
        this.tally.reloads += 1;
        this.reloadAfter = this.lastId ?? 0;
        this.trace?.('reload');
        void this.reload();
      } else if (frame.type === 'ready') {
        clearTimeout(this.readyTimer);
        this.ready = true;
        this.live.push({ from: performance.now() });
        this.tally.ready += 1;
        this.tally.readyMs.push(performance.now() - openedAt);
        this.trace?.(`ready after ${Math.round(performance.now() - openedAt)} ms`);
        this.lastId = Math.max(this.lastId ?? 0, frame.last_id ?? 0);
        if (this.reloadAfter !== null) this.reloaded.push({ after: this.reloadAfter, upTo: this.lastId });
        this.reloadAfter = null;
        for (const text of this.unacked.values()) ws.send(text);
      } else if (frame.type === 'message' && frame.id !== undefined) {
        const seen = this.received.get(frame.id);
        if (seen) seen.times += 1;
        else this.received.set(frame.id, { times: 1, at: performance.now() });
        this.lastId = Math.max(this.lastId ?? 0, frame.id);
        if (frame.own && frame.client_id && this.unacked.delete(frame.client_id))
          this.onEcho(frame.client_id, frame.id);
      }
    });
    ws.on('close', (code) => {
      clearTimeout(this.readyTimer);
      const wasReady = this.ready;
      const open = this.live.at(-1);
      if (wasReady && open && open.to === undefined) open.to = performance.now();
      this.ready = false;
      if (this.closed) return;
      this.trace?.(`close ${code}${wasReady ? '' : ' before ready'}`);
      closes.set(code, (closes.get(code) ?? 0) + 1);
      this.retryTimer = setTimeout(() => this.start(), retryDelay());
    });
  }

  /** What the web app does on `reload`: its lists (and the open talk) are read again over HTTP. */
  private async reload(): Promise<void> {
    await fetch(`${this.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.url },
      body: JSON.stringify({ ssid: this.session, type: 'men', search: '', page: 0 }),
    }).then(
      (reply) => reply.arrayBuffer(),
      () => null,
    );
  }

  send(clientId: string, text: string): void {
    this.unacked.set(clientId, text);
    if (this.ready && this.ws?.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  /** Whether `id` was among the messages a `reload` told this client to read over HTTP. */
  wasReloaded(id: number): boolean {
    return this.reloaded.some((range) => range.after < id && id <= range.upTo);
  }

  /** Whether a socket of this client was live (ready, not closed) all through `from`..`to`. */
  liveThrough(from: number, to: number): boolean {
    return this.live.some((span) => span.from <= from && (span.to ?? Infinity) >= to);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.readyTimer);
    clearTimeout(this.retryTimer);
    this.ws?.terminate();
  }
}
