import type { WebSocket } from 'ws';

/**
 * A socket carrying a call is pinged this often, and dropped when it has not answered for CALL_SILENT_MS,
 * so a lost peer ends the call within 10 s (product.md §17.6).
 */
const CALL_PING_MS = 3000;
const CALL_SILENT_MS = 9000;

/** Keeps watch on a socket while it carries a call. */
export class CallKeepAlive {
  #watch: NodeJS.Timeout | undefined;
  #lastPong = 0;

  constructor(private readonly ws: WebSocket) {}

  /** Whether the socket carries a call now: it is then never left unread, as its pings must be answered. */
  get carrying(): boolean {
    return this.#watch !== undefined;
  }

  carry(carrying: boolean): void {
    if (!carrying) return this.stop();
    this.#lastPong = Date.now();
    if (this.#watch) return;
    if (this.ws.listenerCount('pong') === 0) this.ws.on('pong', () => (this.#lastPong = Date.now()));
    this.#watch = setInterval(() => {
      if (Date.now() - this.#lastPong > CALL_SILENT_MS) return this.ws.terminate();
      this.ws.ping();
    }, CALL_PING_MS);
    this.#watch.unref();
  }

  stop(): void {
    clearInterval(this.#watch);
    this.#watch = undefined;
  }
}
