import {
  CALL_DROP_MS,
  type CallClientFrame,
  type CallEndReason,
  type CallParty,
  type CallServerFrame,
} from '@enishi/contract';
import { IDLE, isBusy, type CallEnd, type CallState } from './call-state';
import type { CallPeer, PeerFactory, PeerOptions } from './peer';
import type { Ringer } from './ringer';

/*
 * The app's one call (product.md §17), as a state machine over the chat socket's call frames. The callee
 * accepts by making the first offer; the caller answers. Trouble (the connection failing, the socket down)
 * restarts ICE from the offering side and ends the call if it lasts CALL_DROP_MS less a margin, so both sides
 * end within CALL_DROP_MS even when the other side learns it from the server.
 */

export type CallDeps = {
  /** Send a frame on the chat socket; false when it is not live. */
  send: (frame: CallClientFrame) => boolean;
  /** The ICE servers (and, for tests, the transport policy), fetched for each call: TURN credentials expire. */
  peerOptions: () => Promise<PeerOptions>;
  createPeer: PeerFactory;
  ringer: Ringer;
  now?: () => number;
};

/** Trouble lasting this long ends the call (the server's CALL_DROP_MS bounds both sides). */
export const DROP_AFTER_MS = CALL_DROP_MS - 2000;
/** A screen that tells the call ended closes itself after this. */
export const ENDED_SHOWN_MS = 4000;

/** Why the connection could not be made: the microphone refused, no WebRTC here, or anything else. */
function failureOf(error: unknown): CallEnd {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'NotFoundError') return 'micDenied';
  if (name === 'NotSupportedError') return 'unsupported';
  return 'failed';
}

export class CallController {
  private readonly now: () => number;
  private state: CallState = IDLE;
  private peer: CallPeer | null = null;
  /** Candidates of the other side that came before our connection existed. */
  private early: RTCIceCandidateInit[] = [];
  /** This side makes the offers (it accepted the call). */
  private offering = false;
  /** The connection's last word was connected (the socket may still be down). */
  private lineUp = false;
  private socketLive = true;
  private dropTimer: ReturnType<typeof setTimeout> | undefined;
  private endedTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped when a call ends, so that work of an ended call (getUserMedia, SDP) is dropped when it finishes. */
  private generation = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: CallDeps) {
    this.now = this.deps.now ?? Date.now;
  }

  private set(patch: Partial<CallState>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((listener) => listener());
  }

  private from(party: CallParty): boolean {
    return this.state.party?.uid === party.uid;
  }

  private release(): void {
    this.generation++;
    this.deps.ringer.stop();
    clearTimeout(this.dropTimer);
    this.dropTimer = undefined;
    this.peer?.close();
    this.peer = null;
    this.early = [];
    this.offering = false;
    this.lineUp = false;
  }

  /** The call is over: show why (closing by itself after a while), or go straight back to idle. */
  private finish(end: CallEnd | null): void {
    const endedAfter =
      this.state.connectedAt === null ? null : Math.round((this.now() - this.state.connectedAt) / 1000);
    this.release();
    clearTimeout(this.endedTimer);
    if (end === null) {
      this.set(IDLE);
      return;
    }
    this.set({
      ...IDLE,
      phase: 'ended',
      party: this.state.party,
      direction: this.state.direction,
      end,
      endedAfter,
    });
    this.endedTimer = setTimeout(() => this.dismiss(), ENDED_SHOWN_MS);
  }

  dismiss(): void {
    clearTimeout(this.endedTimer);
    if (this.state.phase === 'ended') this.set(IDLE);
  }

  /** Tell the other side the call is over, then end it here. */
  private leave(end: CallEnd | null): void {
    if (this.state.party) this.deps.send({ type: 'cancelCall', to: this.state.party.uid });
    this.finish(end);
  }

  /** Make the connection (microphone first); false when the call ended meanwhile or it failed. */
  private async connect(): Promise<boolean> {
    const mine = this.generation;
    let made: CallPeer;
    try {
      const options = await this.deps.peerOptions();
      if (mine !== this.generation) return false;
      made = await this.deps.createPeer(options, {
        candidate: (ice) => {
          if (this.state.party) this.deps.send({ type: 'candidate', to: this.state.party.uid, ice });
        },
        state: (connection) => this.onPeerState(connection),
      });
    } catch (error) {
      if (mine !== this.generation) return false;
      this.leave(failureOf(error));
      return false;
    }
    if (mine !== this.generation) {
      made.close();
      return false;
    }
    this.peer = made;
    for (const ice of this.early) void made.addCandidate(ice);
    this.early = [];
    return true;
  }

  private async signal(work: (p: CallPeer) => Promise<void>): Promise<void> {
    const mine = this.generation;
    const current = this.peer;
    if (!current) return;
    try {
      await work(current);
    } catch (error) {
      console.warn('call signalling failed', error);
      if (mine === this.generation) this.leave('failed');
    }
  }

  private onPeerState(connection: 'connected' | 'disconnected' | 'failed'): void {
    this.lineUp = connection === 'connected';
    if (connection === 'connected') {
      if (!this.socketLive) return; // still in trouble until the socket is back
      this.set({ phase: 'active', connectedAt: this.state.connectedAt ?? this.now(), reconnecting: false });
      clearTimeout(this.dropTimer);
      this.dropTimer = undefined;
      return;
    }
    this.trouble();
    if (connection === 'failed') this.restartIce();
  }

  /** The line is in trouble: the call ends unless it recovers in time. */
  private trouble(): void {
    if (this.state.phase !== 'connecting' && this.state.phase !== 'active') return;
    this.set({ reconnecting: true });
    if (this.dropTimer === undefined) this.dropTimer = setTimeout(() => this.leave('dropped'), DROP_AFTER_MS);
  }

  private restartIce(): void {
    if (!this.offering || !this.state.party || this.state.phase === 'ended') return;
    const to = this.state.party.uid;
    void this.signal(async (p) => {
      const sdp = await p.offer(true);
      this.deps.send({ type: 'offer', to, sdp });
    });
  }

  // --- what the user does ---------------------------------------------------------------------------------

  /** The phone button: ask "start an emergency voice call?" first. */
  ask(party: CallParty): void {
    if (isBusy(this.state.phase)) return;
    clearTimeout(this.endedTimer);
    this.set({ ...IDLE, phase: 'prompt', party, direction: 'out' });
  }

  start(): void {
    if (this.state.phase !== 'prompt' || !this.state.party) return;
    if (!this.deps.send({ type: 'calling', to: this.state.party.uid })) {
      this.finish('notConnected');
      return;
    }
    this.set({ phase: 'calling' });
  }

  accept(): void {
    if (this.state.phase !== 'incoming' || !this.state.party) return;
    this.deps.ringer.stop();
    this.offering = true;
    this.set({ phase: 'connecting' });
    void this.connect().then((ok) => {
      if (ok) this.restartIceOrOffer(false);
    });
  }

  private restartIceOrOffer(iceRestart: boolean): void {
    const to = this.state.party?.uid;
    if (to === undefined) return;
    void this.signal(async (p) => {
      const sdp = await p.offer(iceRestart);
      this.deps.send({ type: 'offer', to, sdp });
    });
  }

  toggleMute(): void {
    const muted = !this.state.muted;
    this.peer?.setMuted(muted);
    this.set({ muted });
  }

  async nextOutput(): Promise<void> {
    if (!this.peer) return;
    const speaker = await this.peer.nextOutput().catch(() => false);
    this.set({ speaker });
  }

  // --- what the server says -------------------------------------------------------------------------------

  onFrame(frame: CallServerFrame): void {
    switch (frame.type) {
      case 'calling':
        // A second call while this one holds the line is left to ring out (the server tells its caller busy).
        if (isBusy(this.state.phase)) return;
        clearTimeout(this.endedTimer);
        this.set({ ...IDLE, phase: 'incoming', party: frame.from, direction: 'in' });
        this.deps.ringer.start();
        return;
      case 'ringing':
        if (this.state.phase === 'calling') this.set({ byPush: frame.push, escalated: frame.escalated });
        return;
      case 'offer':
        this.onOffer(frame.from, frame.sdp);
        return;
      case 'answer':
        if ((this.state.phase === 'connecting' || this.state.phase === 'active') && this.from(frame.from)) {
          void this.signal((p) => p.takeAnswer(frame.sdp));
        }
        return;
      case 'candidate':
        if (!frame.ice || !this.from(frame.from) || !isBusy(this.state.phase)) return;
        if (this.peer) void this.peer.addCandidate(frame.ice);
        else this.early.push(frame.ice);
        return;
      case 'cancelCall':
        this.onCancel(frame.from, frame.reason);
        return;
      default:
        return;
    }
  }

  private onOffer(party: CallParty, sdp: string): void {
    if (this.state.phase === 'calling') {
      // The first offer answers the call; after 30 s it may come from another staff member (product.md §17).
      this.set({ phase: 'connecting', party, byPush: false, escalated: false });
      void this.connect().then((ok) => {
        if (ok) this.answer(party.uid, sdp);
      });
      return;
    }
    if (
      (this.state.phase === 'connecting' || this.state.phase === 'active') &&
      this.from(party) &&
      this.peer
    ) {
      this.answer(party.uid, sdp); // an ICE restart
    }
  }

  private answer(to: number, offer: string): void {
    void this.signal(async (p) => {
      const sdp = await p.answerOffer(offer);
      this.deps.send({ type: 'answer', to, sdp });
    });
  }

  private onCancel(party: CallParty, reason: CallEndReason): void {
    if (this.state.phase === 'calling') {
      // The call was not taken: declined, busy, offline or timed out (from whoever the server says).
      this.finish(reason);
      return;
    }
    if (!this.from(party)) return;
    if (this.state.phase === 'incoming')
      this.finish(reason === 'cancelled' || reason === 'answered' ? null : reason);
    else if (this.state.phase === 'connecting' || this.state.phase === 'active') this.finish(reason);
  }

  /** The chat socket went down or came back: signalling needs it, so a long outage ends the call. */
  onSocket(live: boolean): void {
    this.socketLive = live;
    if (!isBusy(this.state.phase)) return;
    if (live) {
      if (this.lineUp || this.state.phase === 'calling' || this.state.phase === 'incoming') {
        clearTimeout(this.dropTimer);
        this.dropTimer = undefined;
        if (this.state.reconnecting) this.set({ reconnecting: false });
      } else if (this.state.reconnecting) this.restartIce();
      return;
    }
    if (this.state.phase === 'calling' || this.state.phase === 'incoming') {
      if (this.dropTimer === undefined)
        this.dropTimer = setTimeout(() => this.finish('dropped'), DROP_AFTER_MS);
      return;
    }
    this.trouble();
  }

  /** The device changed networks: the this.offering side restarts ICE at once rather than waiting for failure. */
  onNetworkChange(): void {
    if (this.state.phase === 'active' || this.state.phase === 'connecting') this.restartIce();
  }

  getState(): CallState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Cancel the prompt or the outgoing call, or hang up. */
  hangUp(): void {
    if (this.state.phase === 'prompt') this.finish(null);
    else if (this.state.phase !== 'idle' && this.state.phase !== 'ended')
      this.leave(this.state.phase === 'calling' || this.state.phase === 'incoming' ? null : 'hungUp');
  }

  /** The server refused a frame: a call still ringing out was not placed (the error is shown as a toast). */
  onRefused(): void {
    if (this.state.phase === 'calling') this.finish(null);
  }

  /** The page is going away: a call of ours ends now; a call still ringing here is left to other devices. */
  onUnload(): void {
    if (this.state.phase !== 'incoming') this.hangUp();
  }

  decline(): void {
    if (this.state.phase === 'incoming') this.leave(null);
  }
}
