import type { IceCandidate } from '@enishi/contract';

/*
 * One WebRTC audio connection (product.md §17): the microphone out, the other side's voice into an <audio>
 * element. The side that accepted a call makes the offers (the first one and every ICE restart); the caller
 * answers them. Candidates that arrive before the other side's description wait until it is set.
 */

/** What the call controller needs of a connection; the browser's is below, tests give their own. */
export interface CallPeer {
  /** A new offer (first, or with `iceRestart` after the network changed); the caller answers it. */
  offer(iceRestart?: boolean): Promise<string>;
  /** The other side's offer: set it and give the answer. */
  answerOffer(sdp: string): Promise<string>;
  /** The other side's answer to our offer. */
  takeAnswer(sdp: string): Promise<void>;
  addCandidate(ice: RTCIceCandidateInit): Promise<void>;
  setMuted(muted: boolean): void;
  /** Play the other side on the next audio output (speaker); false when the browser cannot choose outputs. */
  nextOutput(): Promise<boolean>;
  close(): void;
}

export type PeerEvents = {
  candidate: (ice: IceCandidate) => void;
  /** connected, or trouble (disconnected, failed): the controller decides on ICE restart and giving up. */
  state: (state: 'connected' | 'disconnected' | 'failed') => void;
};

export type PeerOptions = {
  iceServers: RTCIceServer[];
  /** `relay` forces TURN (the browser tests use it to prove the relay works). */
  iceTransportPolicy?: RTCIceTransportPolicy;
};

export type PeerFactory = (options: PeerOptions, events: PeerEvents) => Promise<CallPeer>;

type SinkAudio = HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };

/**
 * The hidden <audio> element that plays the other side, and the connection's events passed on: our candidates
 * and whether it is connected.
 */
function playerFor(pc: RTCPeerConnection, events: PeerEvents): SinkAudio {
  const audio: SinkAudio = document.createElement('audio');
  audio.autoplay = true;
  audio.dataset.callAudio = '';
  audio.hidden = true;
  document.body.append(audio);
  pc.ontrack = (event) => {
    audio.srcObject = event.streams[0] ?? new MediaStream([event.track]);
    void audio.play().catch(() => undefined);
  };
  pc.onicecandidate = (event) => {
    const found = event.candidate;
    if (!found?.candidate) return;
    events.candidate({
      candidate: found.candidate,
      sdpMid: found.sdpMid,
      sdpMLineIndex: found.sdpMLineIndex,
      usernameFragment: found.usernameFragment,
    });
  };
  pc.onconnectionstatechange = () => {
    const state = pc.connectionState;
    if (state === 'connected' || state === 'disconnected' || state === 'failed') events.state(state);
  };
  return audio;
}

/** The browser's connection: asks for the microphone first (a refusal rejects, and nothing is left open). */
export const createBrowserPeer: PeerFactory = async (options, events) => {
  if (typeof RTCPeerConnection === 'undefined' || !navigator.mediaDevices?.getUserMedia) {
    throw new DOMException('WebRTC audio is not available', 'NotSupportedError');
  }
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
  const pc = new RTCPeerConnection({
    iceServers: options.iceServers,
    iceTransportPolicy: options.iceTransportPolicy ?? 'all',
  });
  for (const track of stream.getAudioTracks()) pc.addTrack(track, stream);
  const audio = playerFor(pc, events);
  let pending: RTCIceCandidateInit[] = [];
  let closed = false;
  let sink = 'default';

  async function flushCandidates(): Promise<void> {
    const waiting = pending;
    pending = [];
    for (const ice of waiting) await pc.addIceCandidate(ice).catch(() => undefined);
  }

  return {
    async offer(iceRestart = false) {
      const offer = await pc.createOffer({ iceRestart });
      await pc.setLocalDescription(offer);
      return pc.localDescription?.sdp ?? offer.sdp ?? '';
    },
    async answerOffer(sdp) {
      await pc.setRemoteDescription({ type: 'offer', sdp });
      await flushCandidates();
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      return pc.localDescription?.sdp ?? answer.sdp ?? '';
    },
    async takeAnswer(sdp) {
      if (pc.signalingState !== 'have-local-offer') return;
      await pc.setRemoteDescription({ type: 'answer', sdp });
      await flushCandidates();
    },
    async addCandidate(ice) {
      if (!pc.remoteDescription) pending.push(ice);
      else await pc.addIceCandidate(ice).catch(() => undefined);
    },
    setMuted(muted) {
      for (const track of stream.getAudioTracks()) track.enabled = !muted;
    },
    async nextOutput() {
      if (typeof audio.setSinkId !== 'function') return false;
      const outputs = (await navigator.mediaDevices.enumerateDevices()).filter(
        (device) => device.kind === 'audiooutput',
      );
      if (outputs.length < 2) return false;
      const index = outputs.findIndex((device) => device.deviceId === sink);
      sink = outputs[(index + 1) % outputs.length]!.deviceId;
      await audio.setSinkId(sink);
      return sink !== 'default';
    },
    close() {
      if (closed) return;
      closed = true;
      pc.onicecandidate = null;
      pc.onconnectionstatechange = null;
      pc.ontrack = null;
      pc.close();
      for (const track of stream.getTracks()) track.stop();
      audio.srcObject = null;
      audio.remove();
    },
  };
};
