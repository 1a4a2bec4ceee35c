import type { CallClientFrame, CallParty } from '@enishi/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallController } from './call-controller';
import { DROP_AFTER_MS, ENDED_SHOWN_MS } from './call-controller';
import { callHarness, type FakePeer } from '@/testing/call';

/*
 * The call state machine against a stand-in connection (testing/call.ts; the browser tests in
 * e2e/tests/calls.test.ts drive the real one): what it sends on the socket, what the overlay would show,
 * whether it rings.
 */

const man: CallParty = { uid: 101, name: '山田太郎', image: null };
const staffA: CallParty = { uid: 3, name: '佐藤', image: null };
const staffB: CallParty = { uid: 4, name: '鈴木', image: null };

let sent: CallClientFrame[];
let peers: FakePeer[];
let ringing: () => boolean;
let refuseMicrophone: () => void;
let calls: CallController;

beforeEach(() => {
  vi.useFakeTimers();
  ({ calls, sent, peers, ringing, refuseMicrophone } = callHarness());
});
afterEach(() => vi.useRealTimers());

const phase = () => calls.getState().phase;
/** Let the controller's promises (microphone, SDP) settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);

async function ringIn(from: CallParty = man) {
  calls.onFrame({ type: 'calling', from });
  await settle();
}

async function answeredCall() {
  await ringIn();
  calls.accept();
  await settle();
  peers[0]!.events.state('connected');
}

describe('an outgoing call', () => {
  it('asks first, calls on start, answers the offer and counts from connected', async () => {
    calls.ask(man);
    expect(phase()).toBe('prompt');
    expect(sent).toEqual([]);
    calls.start();
    expect(phase()).toBe('calling');
    expect(sent).toEqual([{ type: 'calling', to: man.uid }]);

    calls.onFrame({ type: 'ringing', to: man, push: true, escalated: false });
    expect(calls.getState().byPush).toBe(true);
    calls.onFrame({ type: 'candidate', from: man, ice: { candidate: 'c1' } });
    calls.onFrame({ type: 'offer', from: man, sdp: 'o1' });
    await settle();
    expect(phase()).toBe('connecting');
    expect(sent.at(-1)).toEqual({ type: 'answer', to: man.uid, sdp: 'answer-to-o1' });
    expect(peers[0]!.candidates).toEqual([{ candidate: 'c1' }]);

    vi.setSystemTime(Date.now());
    peers[0]!.events.state('connected');
    expect(phase()).toBe('active');
    vi.advanceTimersByTime(65_000);
    calls.hangUp();
    expect(sent.at(-1)).toEqual({ type: 'cancelCall', to: man.uid });
    expect(calls.getState()).toMatchObject({ phase: 'ended', end: 'hungUp', endedAfter: 65 });
    expect(peers[0]!.closed).toBe(true);
    vi.advanceTimersByTime(ENDED_SHOWN_MS);
    expect(phase()).toBe('idle');
  });

  it('cancelling the prompt sends nothing; cancelling while it rings tells the callee', () => {
    calls.ask(man);
    calls.hangUp();
    expect(phase()).toBe('idle');
    expect(sent).toEqual([]);
    calls.ask(man);
    calls.start();
    calls.hangUp();
    expect(phase()).toBe('idle');
    expect(sent).toEqual([
      { type: 'calling', to: man.uid },
      { type: 'cancelCall', to: man.uid },
    ]);
  });

  it.each(['busy', 'offline', 'timeout', 'declined'] as const)(
    'says %s when the call is not taken',
    (reason) => {
      calls.ask(staffA);
      calls.start();
      calls.onFrame({ type: 'cancelCall', from: staffA, reason });
      expect(calls.getState()).toMatchObject({ phase: 'ended', end: reason });
    },
  );

  it('a man takes the offer of whichever staff member answers after escalation', async () => {
    calls.ask(staffA);
    calls.start();
    calls.onFrame({ type: 'ringing', to: staffA, push: false, escalated: true });
    expect(calls.getState().escalated).toBe(true);
    calls.onFrame({ type: 'offer', from: staffB, sdp: 'ob' });
    await settle();
    expect(calls.getState().party).toEqual(staffB);
    expect(sent.at(-1)).toEqual({ type: 'answer', to: staffB.uid, sdp: 'answer-to-ob' });
  });

  it('does not call while the socket is down', () => {
    ({ calls } = callHarness({ socketLive: false }));
    calls.ask(man);
    calls.start();
    expect(calls.getState()).toMatchObject({ phase: 'ended', end: 'notConnected' });
  });

  it('a refused call (error frame) stops calling', () => {
    calls.ask(man);
    calls.start();
    calls.onRefused();
    expect(phase()).toBe('idle');
  });
});

describe('an incoming call', () => {
  it('rings until accepted, then offers and takes the answer', async () => {
    await ringIn();
    expect(phase()).toBe('incoming');
    expect(ringing()).toBe(true);
    calls.accept();
    expect(ringing()).toBe(false);
    await settle();
    expect(sent).toEqual([{ type: 'offer', to: man.uid, sdp: 'offer-sdp' }]);
    peers[0]!.events.candidate({ candidate: 'mine' });
    expect(sent.at(-1)).toEqual({ type: 'candidate', to: man.uid, ice: { candidate: 'mine' } });
    calls.onFrame({ type: 'answer', from: man, sdp: 'a1' });
    peers[0]!.events.state('connected');
    expect(phase()).toBe('active');
  });

  it('decline stops the ring and tells the caller', async () => {
    await ringIn();
    calls.decline();
    expect(ringing()).toBe(false);
    expect(phase()).toBe('idle');
    expect(sent).toEqual([{ type: 'cancelCall', to: man.uid }]);
  });

  it.each(['cancelled', 'answered'] as const)(
    'the caller cancelling (%s) stops the ring quietly',
    async (reason) => {
      await ringIn();
      calls.onFrame({ type: 'cancelCall', from: man, reason });
      expect(ringing()).toBe(false);
      expect(phase()).toBe('idle');
      expect(sent).toEqual([]);
    },
  );

  it('a second call while in one does not ring; frames of others are ignored', async () => {
    await answeredCall();
    calls.onFrame({ type: 'calling', from: staffB });
    calls.onFrame({ type: 'cancelCall', from: staffB, reason: 'cancelled' });
    expect(ringing()).toBe(false);
    expect(calls.getState()).toMatchObject({ phase: 'active', party: man });
  });

  it('leaving the page while it rings declines nothing (another device may answer)', async () => {
    await ringIn();
    calls.onUnload();
    expect(sent).toEqual([]);
    calls.accept();
    await settle();
    calls.onUnload();
    expect(sent.at(-1)).toEqual({ type: 'cancelCall', to: man.uid });
  });

  it('a refused microphone ends the call and tells the caller', async () => {
    refuseMicrophone();
    await ringIn();
    calls.accept();
    await settle();
    expect(calls.getState()).toMatchObject({ phase: 'ended', end: 'micDenied' });
    expect(sent).toEqual([{ type: 'cancelCall', to: man.uid }]);
  });

  it('mute reaches the microphone', async () => {
    await answeredCall();
    calls.toggleMute();
    expect(peers[0]!.muted).toBe(true);
    expect(calls.getState().muted).toBe(true);
  });
});

describe('a line in trouble', () => {
  it('the offering side restarts ICE when the connection fails, and recovers', async () => {
    await answeredCall();
    peers[0]!.events.state('failed');
    await settle();
    expect(peers[0]!.offers).toEqual([false, true]);
    expect(sent.at(-1)).toEqual({ type: 'offer', to: man.uid, sdp: 'offer-sdp-restart' });
    expect(calls.getState().reconnecting).toBe(true);
    peers[0]!.events.state('connected');
    vi.advanceTimersByTime(DROP_AFTER_MS * 2);
    expect(calls.getState()).toMatchObject({ phase: 'active', reconnecting: false });
  });

  it('a network change restarts ICE at once', async () => {
    await answeredCall();
    calls.onNetworkChange();
    await settle();
    expect(peers[0]!.offers).toEqual([false, true]);
  });

  it('the answering side answers a restart offer', async () => {
    calls.ask(man);
    calls.start();
    calls.onFrame({ type: 'offer', from: man, sdp: 'o1' });
    await settle();
    peers[0]!.events.state('connected');
    calls.onFrame({ type: 'offer', from: man, sdp: 'o2' });
    await settle();
    expect(sent.at(-1)).toEqual({ type: 'answer', to: man.uid, sdp: 'answer-to-o2' });
  });

  it('a peer lost for good ends the call before CALL_DROP_MS', async () => {
    await answeredCall();
    peers[0]!.events.state('disconnected');
    vi.advanceTimersByTime(DROP_AFTER_MS - 1);
    expect(phase()).toBe('active');
    vi.advanceTimersByTime(1);
    expect(calls.getState()).toMatchObject({ phase: 'ended', end: 'dropped' });
    expect(sent.at(-1)).toEqual({ type: 'cancelCall', to: man.uid });
    expect(peers[0]!.closed).toBe(true);
  });

  it('a socket down for good ends the call; one that comes back keeps it', async () => {
    await answeredCall();
    calls.onSocket(false);
    vi.advanceTimersByTime(DROP_AFTER_MS / 2);
    calls.onSocket(true);
    vi.advanceTimersByTime(DROP_AFTER_MS);
    expect(phase()).toBe('active');
    calls.onSocket(false);
    vi.advanceTimersByTime(DROP_AFTER_MS);
    expect(calls.getState()).toMatchObject({ phase: 'ended', end: 'dropped' });
  });

  it('the other side hanging up or dropping ends it here', async () => {
    await answeredCall();
    calls.onFrame({ type: 'cancelCall', from: man, reason: 'dropped' });
    expect(calls.getState()).toMatchObject({ phase: 'ended', end: 'dropped' });
    expect(peers[0]!.closed).toBe(true);
  });
});
