import type { CallEndReason, CallParty } from '@enishi/contract';

/*
 * What the call overlay shows (product.md §17): one call at a time per app.
 * idle -> prompt (outgoing: start?) -> calling -> connecting -> active -> ended
 * idle -> incoming (ringing) -> connecting -> active -> ended
 */

export type CallPhase = 'idle' | 'prompt' | 'calling' | 'incoming' | 'connecting' | 'active' | 'ended';

/** Why the overlay says the call ended: the server's reasons, and what this side saw itself. */
export type CallEnd = CallEndReason | 'hungUp' | 'micDenied' | 'unsupported' | 'notConnected' | 'failed';

export type CallState = {
  phase: CallPhase;
  /** Who the call is with (for the caller: who was called, then who answered). */
  party: CallParty | null;
  /** out: this side called; in: this side was called. */
  direction: 'out' | 'in';
  /** When the audio connected (for the timer), else null. */
  connectedAt: number | null;
  muted: boolean;
  /** The other side plays on a non-default output (the speaker). */
  speaker: boolean;
  /** The caller's extra news while it rings: the callee was reached by push, other staff are rung too. */
  byPush: boolean;
  escalated: boolean;
  /** Trouble on the line (ICE restarting, socket down); the call ends if it lasts CALL_DROP_MS. */
  reconnecting: boolean;
  end: CallEnd | null;
  /** The length of an answered call that has ended, in seconds. */
  endedAfter: number | null;
};

export const IDLE: CallState = {
  phase: 'idle',
  party: null,
  direction: 'out',
  connectedAt: null,
  muted: false,
  speaker: false,
  byPush: false,
  escalated: false,
  reconnecting: false,
  end: null,
  endedAfter: null,
};

/** Phases in which a call holds the line: a new incoming call is not taken (the server tells the caller busy). */
export const isBusy = (phase: CallPhase): boolean =>
  phase === 'calling' || phase === 'incoming' || phase === 'connecting' || phase === 'active';

/** Whether this browser can choose where sound plays (the speaker button shows only then); the overlay asks. */
export const canChooseOutput = (): boolean =>
  typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

/** Phases in which the call is on the line: the connection is being made or carries the audio. */
export const onTheLine = (phase: CallPhase): boolean => phase === 'connecting' || phase === 'active';
