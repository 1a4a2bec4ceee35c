import type { CallEndReason, CallParty, CallServerFrame } from '@enishi/contract';
import type { CallLine } from './call-line';
import { IDLE, isBusy, onTheLine, type CallEnd, type CallState } from './call-state';
import type { CallStore } from './call-store';
import type { Ringer } from './ringer';

/*
 * What the server says about the app's one call (product.md §17): the call frames that come over the chat
 * socket, each moving the call from phase to phase or handing the line an offer, an answer or a candidate.
 */

export type SignalsHost = {
  store: CallStore;
  line: CallLine;
  ringer: Ringer;
  /** The call is over (the controller's finish: show why, or straight back to idle). */
  finish: (end: CallEnd | null) => void;
  /** A new call rings here: the screen still telling the last one ended stops closing itself. */
  clearEnded: () => void;
};

export class CallSignals {
  constructor(private readonly host: SignalsHost) {}

  private get state(): CallState {
    return this.host.store.get();
  }

  private from(party: CallParty): boolean {
    return this.state.party?.uid === party.uid;
  }

  onFrame(frame: CallServerFrame): void {
    switch (frame.type) {
      case 'calling':
        this.onCalling(frame.from);
        return;
      case 'ringing':
        if (this.state.phase === 'calling')
          this.host.store.set({ byPush: frame.push, escalated: frame.escalated });
        return;
      case 'offer':
        this.onOffer(frame.from, frame.sdp);
        return;
      case 'answer':
        if (onTheLine(this.state.phase) && this.from(frame.from)) this.host.line.takeAnswer(frame.sdp);
        return;
      case 'candidate':
        if (frame.ice && this.from(frame.from) && isBusy(this.state.phase))
          this.host.line.addCandidate(frame.ice);
        return;
      case 'cancelCall':
        this.onCancel(frame.from, frame.reason);
        return;
      default:
        return;
    }
  }

  private onCalling(from: CallParty): void {
    // A second call while this one holds the line is left to ring out (the server tells its caller busy).
    if (isBusy(this.state.phase)) return;
    this.host.clearEnded();
    this.host.store.set({ ...IDLE, phase: 'incoming', party: from, direction: 'in' });
    this.host.ringer.start();
  }

  private onOffer(party: CallParty, sdp: string): void {
    const { line } = this.host;
    if (this.state.phase === 'calling') {
      // The first offer answers the call; after 30 s it may come from another staff member (product.md §17).
      this.host.store.set({ phase: 'connecting', party, byPush: false, escalated: false });
      void line.connect().then((ok) => {
        if (ok) line.answer(party.uid, sdp);
      });
      return;
    }
    if (onTheLine(this.state.phase) && this.from(party) && line.made) line.answer(party.uid, sdp); // an ICE restart
  }

  private onCancel(party: CallParty, reason: CallEndReason): void {
    if (this.state.phase === 'calling') {
      // The call was not taken: declined, busy, offline or timed out (from whoever the server says).
      this.host.finish(reason);
      return;
    }
    if (!this.from(party)) return;
    if (this.state.phase === 'incoming')
      this.host.finish(reason === 'cancelled' || reason === 'answered' ? null : reason);
    else if (onTheLine(this.state.phase)) this.host.finish(reason);
  }
}
