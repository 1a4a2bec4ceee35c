import { ja, type IceCandidate, type StaffRow, can } from '@enishi/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { CallEffects } from './call-effects.js';
import type { CallRinging } from './call-ringing.js';
import type { CallState, CallStore } from './call-store.js';
import { notInCall, type CallTransitions } from './call-transitions.js';
import type { Foreground } from './foreground.js';
import type { Actor } from './session-service.js';

export { DEFAULT_CALL_TIMING, type CallTiming } from './call-transitions.js';

/**
 * Voice calls (product.md §17.6), as the chat socket's call frames and its opening and closing reach them:
 * each frame of a party is checked against the call as the shared store has it and changes it through
 * CallTransitions (compare-and-swap); placing and ringing are CallRinging's; frames travel through Delivery
 * (CallEffects).
 */
export class CallService {
  constructor(
    private readonly store: CallStore,
    private readonly effects: CallEffects,
    private readonly calls: CallTransitions,
    private readonly ringing: CallRinging,
    /** Open sockets per user, on any instance. */
    private readonly presence: Foreground,
    private readonly clock: Clock,
  ) {}

  /** `calling`: starts a call from this socket; true when the socket now carries a call (CallRinging). */
  calling(actor: Actor, socketId: string, to: number): Promise<boolean> {
    return this.ringing.calling(actor, socketId, to);
  }

  /** `offer`: the first from one rung accepts the call; later ones (either side) restart ICE. */
  async offer(actor: Actor, socketId: string, to: number, sdp: string): Promise<boolean> {
    const id = await this.calls.callIdOf(actor.uid);
    let accepted = false;
    await this.calls.change(id, (call) => {
      if (call.answeredBy !== null) {
        this.counterpart(call, actor.uid, socketId, to);
        return { next: call, then: () => this.forward(call, actor, { type: 'offer', sdp }) };
      }
      if (!call.ringing.includes(actor.uid) || to !== call.caller) throw notInCall();
      accepted = true;
      const next = {
        ...call,
        ringing: [],
        answeredBy: actor.uid,
        answerSocket: socketId,
        answeredAt: this.clock(),
      };
      return { next, then: () => this.accepted(call, next, actor, socketId, sdp) };
    });
    return accepted;
  }

  async answer(actor: Actor, socketId: string, to: number, sdp: string): Promise<void> {
    const id = await this.calls.callIdOf(actor.uid);
    await this.calls.change(id, (call) => {
      if (call.answeredBy === null || actor.uid !== call.caller) throw notInCall();
      this.counterpart(call, actor.uid, socketId, to);
      return { next: call, then: () => this.forward(call, actor, { type: 'answer', sdp }) };
    });
  }

  async candidate(actor: Actor, socketId: string, to: number, ice: IceCandidate | null): Promise<void> {
    const id = await this.calls.callIdOf(actor.uid);
    const stored = await this.store.load(id);
    if (!stored || stored.call.answeredBy === null) throw notInCall();
    this.counterpart(stored.call, actor.uid, socketId, to);
    await this.forward(stored.call, actor, { type: 'candidate', ice });
  }

  /** `cancelCall`: the caller cancels, one rung declines, either side hangs up. */
  async cancel(actor: Actor, socketId: string, to: number): Promise<void> {
    const id = await this.calls.callIdOf(actor.uid);
    const stored = await this.store.load(id);
    if (!stored) throw notInCall();
    const { call } = stored;
    if (call.answeredBy !== null) {
      this.counterpart(call, actor.uid, socketId, to);
      const ender = actor.uid === call.caller ? 'caller' : 'answerer';
      return this.calls.end(id, () => ({
        caller: ender === 'caller' ? null : 'ended',
        ringing: 'answered',
        answerer: ender === 'answerer' ? null : 'ended',
      }));
    }
    if (actor.uid === call.caller) {
      if (to !== call.callee && !call.ringing.includes(to)) throw notInCall();
      return this.calls.end(id, () => ({ caller: null, ringing: 'cancelled', answerer: null }));
    }
    if (!call.ringing.includes(actor.uid) || to !== call.caller) throw notInCall();
    await this.ringing.decline(id, actor.uid);
  }

  /** The `staff` frame: every staff member with whether they are online (staff and male members only). */
  async staffList(actor: Actor): Promise<StaffRow[]> {
    if (!can(actor, 'call.place')) throw new AppError('forbidden', ja.errors.forbidden);
    return this.effects.staffRows();
  }

  /**
   * A socket opened: presence, announced for whoever answers calls (call.answer: the staff men call, product.md
   * §17.8). A call ringing for the user (the app opened from the call's push) rings on it too.
   */
  async connected(actor: Actor, socketId: string): Promise<void> {
    if ((await this.presence.change(actor.uid, 1)) && can(actor, 'call.answer')) {
      await this.effects.announcePresence(actor.uid);
    }
    // With the call store away (Redis down, decision 020) there is no call to find: the socket opens anyway.
    const id = await this.store.callOf(actor.uid).catch(() => null);
    const stored = id === null ? null : await this.store.load(id);
    if (!stored?.call.ringing.includes(actor.uid)) return;
    const caller = await this.effects.partyOf(stored.call.caller);
    await this.effects.signal(actor.uid, { type: 'calling', from: caller }, socketId);
  }

  /** A socket closed: presence, and a call it carried ends with `dropped` for the other side. */
  async disconnected(actor: Actor, socketId: string): Promise<void> {
    if ((await this.presence.change(actor.uid, -1)) && can(actor, 'call.answer')) {
      await this.effects.announcePresence(actor.uid);
    }
    const id = await this.store.callOf(actor.uid);
    if (id === null) return;
    await this.calls
      .end(id, (call) => {
        if (call.caller === actor.uid && call.callerSocket === socketId) {
          return { caller: null, ringing: 'cancelled', answerer: 'dropped' };
        }
        if (call.answerSocket === socketId) return { caller: 'dropped', ringing: 'answered', answerer: null };
        return null;
      })
      .catch((error: unknown) => {
        // The call ended meanwhile.
        if (!(error instanceof AppError)) throw error;
      });
  }

  /** Stops the timers of the calls that started here (shutdown). */
  close(): void {
    this.ringing.close();
  }

  /** Checks that `to` is the other party of an answered call and the frame comes from the call's socket. */
  private counterpart(call: CallState, uid: number, socketId: string, to: number): void {
    const mine = uid === call.caller ? call.callerSocket : uid === call.answeredBy ? call.answerSocket : null;
    const other = uid === call.caller ? call.answeredBy : call.caller;
    if (mine !== socketId || other !== to) throw notInCall();
  }

  private async forward(
    call: CallState,
    actor: Actor,
    body: { type: 'offer' | 'answer'; sdp: string } | { type: 'candidate'; ice: IceCandidate | null },
  ): Promise<void> {
    const toCaller = actor.uid !== call.caller;
    const target = toCaller ? call.caller : call.answeredBy!;
    const socket = toCaller ? call.callerSocket : call.answerSocket!;
    await this.effects.signal(target, { ...body, from: this.effects.party(actor) }, socket);
  }

  /** The call was taken: the others stop ringing, the caller gets the offer. */
  private async accepted(before: CallState, after: CallState, actor: Actor, socketId: string, sdp: string) {
    const caller = await this.effects.partyOf(before.caller);
    const others = before.ringing.filter((uid) => uid !== actor.uid);
    await Promise.all(others.map((uid) => this.store.release(uid, before.id)));
    await Promise.all([
      ...others.map((uid) =>
        this.effects.signal(uid, { type: 'cancelCall', from: caller, reason: 'answered' }),
      ),
      this.effects.signal(
        actor.uid,
        { type: 'cancelCall', from: caller, reason: 'answered' },
        undefined,
        socketId,
      ),
    ]);
    await this.forward(after, actor, { type: 'offer', sdp });
  }
}
