import { CALL_DROP_MS } from '@enishi/contract';
import { isBusy } from './call-state';
import type { CallLine } from './call-line';
import type { CallStore } from './call-store';

/*
 * Trouble on the line of the app's one call (product.md §17): the connection failing or the chat socket down
 * (signalling needs it). Trouble restarts ICE from the offering side and ends the call if it lasts
 * CALL_DROP_MS less a margin, so both sides end within CALL_DROP_MS even when the other side learns it from
 * the server.
 */

/** Trouble lasting this long ends the call (the server's CALL_DROP_MS bounds both sides). */
export const DROP_AFTER_MS = CALL_DROP_MS - 2000;

export type WatchHost = {
  store: CallStore;
  line: CallLine;
  /** The call dropped: `tell` the other side (a call on the line), or not (one still ringing). */
  drop: (tell: boolean) => void;
  restartIce: () => void;
};

export class CallWatch {
  private socketLive = true;
  private dropTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: WatchHost) {}

  /** The connection says connected: true when the line is well (the socket is live too). */
  connected(): boolean {
    if (!this.socketLive) return false; // still in trouble until the socket is back
    this.clear();
    return true;
  }

  /** The line is in trouble: the call ends unless it recovers in time. */
  trouble(): void {
    const { phase } = this.host.store.get();
    if (phase !== 'connecting' && phase !== 'active') return;
    this.host.store.set({ reconnecting: true });
    this.dropTimer ??= setTimeout(() => this.host.drop(true), DROP_AFTER_MS);
  }

  /** The chat socket went down or came back: a long outage ends the call. */
  onSocket(live: boolean): void {
    this.socketLive = live;
    const state = this.host.store.get();
    if (!isBusy(state.phase)) return;
    const ringing = state.phase === 'calling' || state.phase === 'incoming';
    if (live) {
      if (this.host.line.up || ringing) {
        this.clear();
        if (state.reconnecting) this.host.store.set({ reconnecting: false });
      } else if (state.reconnecting) this.host.restartIce();
      return;
    }
    if (ringing) {
      this.dropTimer ??= setTimeout(() => this.host.drop(false), DROP_AFTER_MS);
      return;
    }
    this.trouble();
  }

  clear(): void {
    clearTimeout(this.dropTimer);
    this.dropTimer = undefined;
  }
}
