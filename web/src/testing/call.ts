import type { CallClientFrame } from '@enishi/contract';
import { CallController } from '@/features/call/controller/call-controller';
import type { CallPeer, PeerEvents } from '@/features/call/controller/peer';

/*
 * A call controller for tests: jsdom has no WebRTC, so the connection is a stand-in that records what it was
 * asked; the frames it would send and whether it rings are recorded too. The browser tests
 * (e2e/tests/calls.test.ts) drive the real connection.
 */

export class FakePeer implements CallPeer {
  closed = false;
  muted = false;
  offers: boolean[] = [];
  candidates: unknown[] = [];
  constructor(readonly events: PeerEvents) {}
  offer(iceRestart = false) {
    this.offers.push(iceRestart);
    return Promise.resolve(`offer-sdp${iceRestart ? '-restart' : ''}`);
  }
  answerOffer(sdp: string) {
    return Promise.resolve(`answer-to-${sdp}`);
  }
  takeAnswer() {
    return Promise.resolve();
  }
  addCandidate(ice: RTCIceCandidateInit) {
    this.candidates.push(ice);
    return Promise.resolve();
  }
  setMuted(muted: boolean) {
    this.muted = muted;
  }
  nextOutput() {
    return Promise.resolve(true);
  }
  close() {
    this.closed = true;
  }
}

export type CallHarness = {
  calls: CallController;
  sent: CallClientFrame[];
  peers: FakePeer[];
  ringing: () => boolean;
  /** The next accept finds the microphone refused. */
  refuseMicrophone: () => void;
};

export function callHarness(options: { socketLive?: boolean } = {}): CallHarness {
  const sent: CallClientFrame[] = [];
  const peers: FakePeer[] = [];
  let ringing = false;
  let micRefused = false;
  const calls = new CallController({
    send: (frame) => {
      if (options.socketLive === false) return false;
      sent.push(frame);
      return true;
    },
    peerOptions: () => Promise.resolve({ iceServers: [] }),
    createPeer: (_options, events) => {
      if (micRefused) return Promise.reject(new DOMException('refused', 'NotAllowedError'));
      const peer = new FakePeer(events);
      peers.push(peer);
      return Promise.resolve(peer);
    },
    ringer: { start: () => (ringing = true), stop: () => (ringing = false) },
  });
  return { calls, sent, peers, ringing: () => ringing, refuseMicrophone: () => (micRefused = true) };
}
