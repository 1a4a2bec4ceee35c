import type { CallClientFrame, IceCandidate } from '@enishi/contract';
import type { CallEnd } from './call-state';
import type { CallPeer, PeerFactory, PeerOptions } from './peer';

/*
 * The connection of the app's one call (product.md §17): makes the peer (microphone first), keeps the other
 * side's candidates that come before it exists, and carries the offers and answers over the chat socket. The
 * side that accepted makes the offers (the first and every ICE restart); the caller answers them. Work of a
 * call that ended meanwhile (getUserMedia, SDP) is dropped when it finishes.
 */

export type LineDeps = {
  /** Send a frame on the chat socket; false when it is not live. */
  send: (frame: CallClientFrame) => boolean;
  /** The ICE servers (and, for tests, the transport policy), fetched for each call: TURN credentials expire. */
  peerOptions: () => Promise<PeerOptions>;
  createPeer: PeerFactory;
};

export type LineEvents = {
  /** A candidate of ours, for the other side. */
  candidate: (ice: IceCandidate) => void;
  /** connected, or trouble (disconnected, failed). */
  state: (connection: 'connected' | 'disconnected' | 'failed') => void;
  /** The connection could not be made, or the exchange failed: the call ends with this. */
  failed: (end: CallEnd) => void;
};

/** Why the connection could not be made: the microphone refused, no WebRTC here, or anything else. */
function failureOf(error: unknown): CallEnd {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'NotFoundError') return 'micDenied';
  if (name === 'NotSupportedError') return 'unsupported';
  return 'failed';
}

export class CallLine {
  private peer: CallPeer | null = null;
  /** Candidates of the other side that came before our connection existed. */
  private early: RTCIceCandidateInit[] = [];
  /** Bumped when a call ends, so that work of an ended call is dropped when it finishes. */
  private generation = 0;
  /** This side makes the offers (it accepted the call). */
  offering = false;
  /** The connection's last word was connected (the socket may still be down). */
  up = false;

  constructor(
    private readonly deps: LineDeps,
    private readonly events: LineEvents,
  ) {}

  /** Whether the connection exists (made, and the call not ended since). */
  get made(): boolean {
    return this.peer !== null;
  }

  /** Make the connection (microphone first); false when the call ended meanwhile or it failed. */
  async connect(): Promise<boolean> {
    const mine = this.generation;
    let made: CallPeer;
    try {
      const options = await this.deps.peerOptions();
      if (mine !== this.generation) return false;
      made = await this.deps.createPeer(options, {
        candidate: (ice) => this.events.candidate(ice),
        state: (connection) => {
          this.up = connection === 'connected';
          this.events.state(connection);
        },
      });
    } catch (error) {
      if (mine !== this.generation) return false;
      this.events.failed(failureOf(error));
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

  /** Send `to` an offer: the first one, or with `iceRestart` after trouble. */
  offer(to: number, iceRestart: boolean): void {
    void this.signal(async (p) => {
      const sdp = await p.offer(iceRestart);
      this.deps.send({ type: 'offer', to, sdp });
    });
  }

  /** Answer `to`'s offer (the first, or an ICE restart). */
  answer(to: number, offer: string): void {
    void this.signal(async (p) => {
      const sdp = await p.answerOffer(offer);
      this.deps.send({ type: 'answer', to, sdp });
    });
  }

  takeAnswer(sdp: string): void {
    void this.signal((p) => p.takeAnswer(sdp));
  }

  /** A candidate of the other side: to the connection, or kept until it exists. */
  addCandidate(ice: RTCIceCandidateInit): void {
    if (this.peer) void this.peer.addCandidate(ice);
    else this.early.push(ice);
  }

  setMuted(muted: boolean): void {
    this.peer?.setMuted(muted);
  }

  /** Play on the next audio output; false when there is no connection or no choice. */
  async nextOutput(): Promise<boolean> {
    if (!this.peer) return false;
    return this.peer.nextOutput().catch(() => false);
  }

  /** The call ended: close the connection and forget its work. */
  release(): void {
    this.generation++;
    this.peer?.close();
    this.peer = null;
    this.early = [];
    this.offering = false;
    this.up = false;
  }

  private async signal(work: (p: CallPeer) => Promise<void>): Promise<void> {
    const mine = this.generation;
    const current = this.peer;
    if (!current) return;
    try {
      await work(current);
    } catch (error) {
      console.warn('call signalling failed', error);
      if (mine === this.generation) this.events.failed('failed');
    }
  }
}
