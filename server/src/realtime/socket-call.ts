import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Actor } from '../services/session-service.js';
import { CallKeepAlive } from './call-keepalive.js';
import type { ChatGateway } from './chat-gateway.js';

/**
 * One socket in voice calls (product.md §17): its id (a call's frames go to the socket that placed or took
 * it), its place in the call presence from the time it is live, and its ping while it carries a call.
 */
export class SocketCall {
  readonly socketId = randomUUID();
  private present = false;
  private readonly keepAlive: CallKeepAlive;

  constructor(
    ws: WebSocket,
    private readonly gateway: ChatGateway,
  ) {
    this.keepAlive = new CallKeepAlive(ws);
  }

  /** Whether the socket carries a call now: it is then never left unread, as its pings must be answered. */
  get carrying(): boolean {
    return this.keepAlive.carrying;
  }

  carry(carrying: boolean): void {
    this.keepAlive.carry(carrying);
  }

  /** The socket is live for `actor`: counted in presence (after it subscribed, as presence may signal it). */
  async connected(actor: Actor): Promise<void> {
    this.present = true;
    await this.gateway.services.calls.connected(actor, this.socketId);
  }

  /** The socket closes: out of presence (its call, if any, dropped by the call service), no more pings. */
  disconnected(actor: Actor | null): void {
    if (this.present && actor) {
      const work = this.gateway.services.calls
        .disconnected(actor, this.socketId)
        .catch((error: unknown) => this.gateway.log.error({ err: error }, 'call presence failed'));
      this.gateway.track(work);
    }
    this.present = false;
    this.keepAlive.stop();
  }
}
