import { CALL_ESCALATE_MS, CALL_RING_MS, ja, jaMember, type CallEndReason } from '@enishi/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { CallEffects } from './call-effects.js';
import type { CallState, CallStore } from './call-store.js';

/** How long a call rings, and when a man's unanswered call rings the other staff (tests shorten both). */
export interface CallTiming {
  ringMs: number;
  escalateMs: number;
}
export const DEFAULT_CALL_TIMING: CallTiming = { ringMs: CALL_RING_MS, escalateMs: CALL_ESCALATE_MS };

/** What one change of a call decided: the state to write (null: the call ends) and what follows it. */
export type Decision = { next: CallState | null; then: (call: CallState) => Promise<void> };

/** Why a call ended, for each side: its caller, those it was ringing, the one who took it. */
export type EndReasons = {
  caller: CallEndReason | null;
  ringing: CallEndReason;
  answerer: CallEndReason | null;
};

export const notInCall = () => new AppError('forbidden', jaMember.calls.notInCall);
const ATTEMPTS = 8;
/** A call still ringing this long after its timeout is one whose instance died (see claim). */
const STALE_RING_GRACE_MS = 5000;

/**
 * How a call's state changes in the shared call store (product.md §17.6): each change a compare-and-swap,
 * so that two instances (or two staff answering at once) agree; a person's place in a call claimed and
 * freed; the end of a call, told to everyone in it and recorded once.
 */
export class CallTransitions {
  constructor(
    private readonly store: CallStore,
    private readonly effects: CallEffects,
    private readonly clock: Clock,
    private readonly timing: CallTiming,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Marks `uid` as in call `id`. A place held by a call that is gone, or by one still ringing long after it
   * should have timed out (the instance keeping its timer died), is taken back first.
   */
  async claim(uid: number, id: string): Promise<boolean> {
    if (await this.store.claim(uid, id)) return true;
    const other = await this.store.callOf(uid);
    if (other === null) return this.store.claim(uid, id);
    const stored = await this.store.load(other);
    const overdue = this.clock() - this.timing.ringMs - STALE_RING_GRACE_MS;
    if (!stored) await this.store.release(uid, other);
    else if (stored.call.answeredBy === null && stored.call.startedAt < overdue) {
      await this.end(other, () => ({ caller: 'timeout', ringing: 'timeout', answerer: null })).catch(
        () => {},
      );
    } else return false;
    return this.store.claim(uid, id);
  }

  /** The call `uid` is in; refused when none. */
  async callIdOf(uid: number): Promise<string> {
    const id = await this.store.callOf(uid);
    if (id === null) throw notInCall();
    return id;
  }

  /**
   * Ends the call if `reasonsFor` says so for its current state (null: leave it): everyone still in it is
   * told why, their place in the store is freed, and the record is written once, by whoever ended it.
   */
  async end(id: string, reasonsFor: (call: CallState) => EndReasons | null): Promise<void> {
    await this.change(id, (call) => {
      const reasons = reasonsFor(call);
      if (!reasons) return null;
      return {
        next: null,
        then: async () => {
          const people = new Set([call.caller, call.callee, ...call.ringing]);
          if (call.answeredBy !== null) people.add(call.answeredBy);
          await Promise.all([...people].map((uid) => this.store.release(uid, id)));
          const [caller, other] = await Promise.all([
            this.effects.partyOf(call.caller),
            this.effects.partyOf(call.answeredBy ?? call.callee),
          ]);
          // The record is committed before anyone hears the call ended.
          await this.effects.record(call, reasons.ringing).catch(this.onError);
          await this.effects.announceEnd(call, reasons, { caller, other });
        },
      };
    });
  }

  /** Reads the call, lets `decide` pick the change, writes it if nobody changed the call meanwhile. */
  async change(id: string, decide: (call: CallState) => Decision | null): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const stored = await this.store.load(id);
      if (!stored) throw notInCall();
      const decision = decide(stored.call);
      if (!decision) return;
      if (decision.next !== stored.call && !(await this.store.swap(id, stored.raw, decision.next))) continue;
      return decision.then(decision.next ?? stored.call);
    }
    throw new AppError('conflict', ja.errors.rateLimited);
  }
}
