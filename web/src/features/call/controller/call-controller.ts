import type { CallClientFrame, CallParty, CallServerFrame } from '@enishi/contract';
import { CallLine, type LineDeps } from './call-line';
import { CallSignals } from './call-signals';
import { IDLE, isBusy, onTheLine, type CallEnd, type CallState } from './call-state';
import { CallStore } from './call-store';
import { CallWatch } from './call-watch';
import type { Ringer } from './ringer';

/*
 * The app's one call (product.md §17), as a state machine over the chat socket's call frames: what the user
 * does and what the server says move it from phase to phase. The server's frames are the signals'
 * (call-signals.ts), the connection and its offers the line's (call-line.ts), trouble on it and when it ends
 * the call the watch's (call-watch.ts), the state the overlay shows the store's (call-store.ts). The callee
 * accepts by making the first offer; the caller answers.
 */

export type CallDeps = LineDeps & {
  ringer: Ringer;
  now?: () => number;
};

export { DROP_AFTER_MS } from './call-watch';
/** A screen that tells the call ended closes itself after this. */
export const ENDED_SHOWN_MS = 4000;

export class CallController {
  private readonly now: () => number;
  private readonly store = new CallStore();
  private readonly line: CallLine;
  private readonly watch: CallWatch;
  private readonly signals: CallSignals;
  private endedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: CallDeps) {
    this.now = this.deps.now ?? Date.now;
    this.line = new CallLine(deps, {
      candidate: (ice) => {
        const to = this.state.party?.uid;
        if (to !== undefined) this.send({ type: 'candidate', to, ice });
      },
      state: (connection) => this.onPeerState(connection),
      failed: (end) => this.leave(end),
    });
    this.watch = new CallWatch({
      store: this.store,
      line: this.line,
      drop: (tell) => (tell ? this.leave('dropped') : this.finish('dropped')),
      restartIce: () => this.restartIce(),
    });
    this.signals = new CallSignals({
      store: this.store,
      line: this.line,
      ringer: deps.ringer,
      finish: (end) => this.finish(end),
      clearEnded: () => clearTimeout(this.endedTimer),
    });
  }

  private get state(): CallState {
    return this.store.get();
  }

  private send(frame: CallClientFrame): boolean {
    return this.deps.send(frame);
  }

  /** The call is over: show why (closing by itself after a while), or go straight back to idle. */
  private finish(end: CallEnd | null): void {
    const { connectedAt, party, direction } = this.state;
    const endedAfter = connectedAt === null ? null : Math.round((this.now() - connectedAt) / 1000);
    this.deps.ringer.stop();
    this.watch.clear();
    this.line.release();
    clearTimeout(this.endedTimer);
    if (end === null) {
      this.store.set(IDLE);
      return;
    }
    this.store.set({ ...IDLE, phase: 'ended', party, direction, end, endedAfter });
    this.endedTimer = setTimeout(() => this.dismiss(), ENDED_SHOWN_MS);
  }

  /** Tell the other side the call is over, then end it here. */
  private leave(end: CallEnd | null): void {
    if (this.state.party) this.send({ type: 'cancelCall', to: this.state.party.uid });
    this.finish(end);
  }

  private onPeerState(connection: 'connected' | 'disconnected' | 'failed'): void {
    if (connection === 'connected') {
      if (this.watch.connected()) {
        this.store.set({
          phase: 'active',
          connectedAt: this.state.connectedAt ?? this.now(),
          reconnecting: false,
        });
      }
      return;
    }
    this.watch.trouble();
    if (connection === 'failed') this.restartIce();
  }

  /** The offering side offers again with an ICE restart. */
  private restartIce(): void {
    if (!this.line.offering || !this.state.party || this.state.phase === 'ended') return;
    this.line.offer(this.state.party.uid, true);
  }

  // --- what the user does ---------------------------------------------------------------------------------

  /** The phone button: ask "start an emergency voice call?" first. */
  ask(party: CallParty): void {
    if (isBusy(this.state.phase)) return;
    clearTimeout(this.endedTimer);
    this.store.set({ ...IDLE, phase: 'prompt', party, direction: 'out' });
  }

  start(): void {
    if (this.state.phase !== 'prompt' || !this.state.party) return;
    if (!this.send({ type: 'calling', to: this.state.party.uid })) {
      this.finish('notConnected');
      return;
    }
    this.store.set({ phase: 'calling' });
  }

  accept(): void {
    if (this.state.phase !== 'incoming' || !this.state.party) return;
    this.deps.ringer.stop();
    this.line.offering = true;
    this.store.set({ phase: 'connecting' });
    void this.line.connect().then((ok) => {
      const to = this.state.party?.uid;
      if (ok && to !== undefined) this.line.offer(to, false);
    });
  }

  decline(): void {
    if (this.state.phase === 'incoming') this.leave(null);
  }

  /** Cancel the prompt or the outgoing call, or hang up. */
  hangUp(): void {
    const { phase } = this.state;
    if (phase === 'prompt') this.finish(null);
    else if (phase !== 'idle' && phase !== 'ended')
      this.leave(phase === 'calling' || phase === 'incoming' ? null : 'hungUp');
  }

  toggleMute(): void {
    const muted = !this.state.muted;
    this.line.setMuted(muted);
    this.store.set({ muted });
  }

  async nextOutput(): Promise<void> {
    if (!this.line.made) return;
    const speaker = await this.line.nextOutput();
    this.store.set({ speaker });
  }

  dismiss(): void {
    clearTimeout(this.endedTimer);
    if (this.state.phase === 'ended') this.store.set(IDLE);
  }

  // --- what the server and the browser say ----------------------------------------------------------------

  onFrame(frame: CallServerFrame): void {
    this.signals.onFrame(frame);
  }

  /** The chat socket went down or came back: signalling needs it, so a long outage ends the call. */
  onSocket(live: boolean): void {
    this.watch.onSocket(live);
  }

  /** The device changed networks: the offering side restarts ICE at once rather than waiting for failure. */
  onNetworkChange(): void {
    if (onTheLine(this.state.phase)) this.restartIce();
  }

  /** The server refused a frame: a call still ringing out was not placed (the error is shown as a toast). */
  onRefused(): void {
    if (this.state.phase === 'calling') this.finish(null);
  }

  /** The page is going away: a call of ours ends now; a call still ringing here is left to other devices. */
  onUnload(): void {
    if (this.state.phase !== 'incoming') this.hangUp();
  }

  getState(): CallState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    return this.store.subscribe(listener);
  }
}
