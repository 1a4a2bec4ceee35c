import { randomUUID } from 'node:crypto';
import {
  CALL_ESCALATE_MS,
  CALL_RING_MS,
  isStaffRole,
  ja,
  mayCall,
  type CallEndReason,
  type IceCandidate,
  type StaffRow,
  jaMember,
  can,
  roleGroup,
} from '@enishi/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { RateLimiter } from '../lib/rate-limit.js';
import type { CallState, CallStore } from '../realtime/call-store.js';
import type { Foreground } from '../realtime/foreground.js';
import type { CallUser } from '../repositories/call-repository.js';
import type { CallEffects } from './call-effects.js';
import type { Actor } from './session-service.js';

/** How long a call rings, and when a man's unanswered call rings the other staff (tests shorten both). */
export interface CallTiming {
  ringMs: number;
  escalateMs: number;
}
export const DEFAULT_CALL_TIMING: CallTiming = { ringMs: CALL_RING_MS, escalateMs: CALL_ESCALATE_MS };

/** What one change of a call decided: the state to write (null: the call ends) and what follows it. */
type Decision = { next: CallState | null; then: (call: CallState) => Promise<void> };

const notInCall = () => new AppError('forbidden', jaMember.calls.notInCall);
const ATTEMPTS = 8;
/** A call still ringing this long after its timeout is one whose instance died (see claim). */
const STALE_RING_GRACE_MS = 5000;

/**
 * Voice calls (product.md §17.6): each frame of a party is checked against the call as the shared store has
 * it, and each change is a compare-and-swap, so two instances (or two staff answering at once) agree. The
 * instance where a call starts keeps its escalation and timeout timers; frames travel through Delivery.
 */
export class CallService {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: CallStore,
    private readonly effects: CallEffects,
    private readonly presence: Foreground,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly timing: CallTiming,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** `calling`: starts a call from this socket; true when the socket now carries a call. */
  async calling(actor: Actor, socketId: string, to: number): Promise<boolean> {
    if (!(await this.limiter.consume(String(actor.uid))))
      throw new AppError('rate-limited', jaMember.calls.callingTooFast);
    const callee = to === actor.uid ? null : await this.effects.user(to);
    if (!callee || !mayCall(actor.role, callee.role))
      throw new AppError('forbidden', jaMember.calls.notAllowed);
    const id = randomUUID();
    if (!(await this.claim(actor.uid, id))) throw new AppError('conflict', jaMember.calls.alreadyInCall);
    const call: CallState = {
      id,
      caller: actor.uid,
      callerSocket: socketId,
      callee: to,
      memberId: roleGroup(actor.role) === 'men' ? actor.uid : to,
      ringing: [],
      answeredBy: null,
      answerSocket: null,
      startedAt: this.clock(),
      answeredAt: null,
      escalated: false,
    };
    const calleeParty = this.effects.party(callee);
    if (!(await this.claim(to, id))) {
      await this.store.release(actor.uid, id);
      await this.effects.record(call, 'busy').catch(this.onError);
      await this.effects.signal(
        actor.uid,
        { type: 'cancelCall', from: calleeParty, reason: 'busy' },
        socketId,
      );
      return false;
    }
    call.ringing = [to];
    await this.store.swap(id, null, call);
    const caller = this.effects.party(actor);
    const { reached, push } = await this.effects.ring(call, caller, [callee]);
    const escalates = roleGroup(actor.role) === 'men';
    if (!reached && !(escalates && (await this.escalate(id)))) {
      await this.end(id, () => ({ caller: 'offline', ringing: 'timeout', answerer: null }));
      return false;
    }
    if (reached) {
      await this.effects.signal(
        actor.uid,
        { type: 'ringing', to: calleeParty, push, escalated: false },
        socketId,
      );
    }
    if (escalates) this.after(this.timing.escalateMs, () => this.escalate(id));
    this.after(this.timing.ringMs, () =>
      this.end(id, (now) =>
        now.answeredBy === null ? { caller: 'timeout', ringing: 'timeout', answerer: null } : null,
      ),
    );
    return true;
  }

  /** `offer`: the first from one rung accepts the call; later ones (either side) restart ICE. */
  async offer(actor: Actor, socketId: string, to: number, sdp: string): Promise<boolean> {
    const id = await this.callIdOf(actor.uid);
    let accepted = false;
    await this.change(id, (call) => {
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
    const id = await this.callIdOf(actor.uid);
    await this.change(id, (call) => {
      if (call.answeredBy === null || actor.uid !== call.caller) throw notInCall();
      this.counterpart(call, actor.uid, socketId, to);
      return { next: call, then: () => this.forward(call, actor, { type: 'answer', sdp }) };
    });
  }

  async candidate(actor: Actor, socketId: string, to: number, ice: IceCandidate | null): Promise<void> {
    const id = await this.callIdOf(actor.uid);
    const stored = await this.store.load(id);
    if (!stored || stored.call.answeredBy === null) throw notInCall();
    this.counterpart(stored.call, actor.uid, socketId, to);
    await this.forward(stored.call, actor, { type: 'candidate', ice });
  }

  /** `cancelCall`: the caller cancels, one rung declines, either side hangs up. */
  async cancel(actor: Actor, socketId: string, to: number): Promise<void> {
    const id = await this.callIdOf(actor.uid);
    const stored = await this.store.load(id);
    if (!stored) throw notInCall();
    const { call } = stored;
    if (call.answeredBy !== null) {
      this.counterpart(call, actor.uid, socketId, to);
      const ender = actor.uid === call.caller ? 'caller' : 'answerer';
      return this.end(id, () => ({
        caller: ender === 'caller' ? null : 'ended',
        ringing: 'answered',
        answerer: ender === 'answerer' ? null : 'ended',
      }));
    }
    if (actor.uid === call.caller) {
      if (to !== call.callee && !call.ringing.includes(to)) throw notInCall();
      return this.end(id, () => ({ caller: null, ringing: 'cancelled', answerer: null }));
    }
    if (!call.ringing.includes(actor.uid) || to !== call.caller) throw notInCall();
    await this.decline(id, actor.uid);
  }

  /** The `staff` frame: every staff member with whether they are online (staff and male members only). */
  async staffList(actor: Actor): Promise<StaffRow[]> {
    if (!can(actor, 'call.place')) throw new AppError('forbidden', ja.errors.forbidden);
    return this.effects.staffRows();
  }

  /**
   * A socket opened: presence, announced for staff (product.md §17.8). A call ringing for the user (the app
   * opened from the call's push) rings on it too.
   */
  async connected(actor: Actor, socketId: string): Promise<void> {
    if ((await this.presence.change(actor.uid, 1)) && isStaffRole(actor.role)) {
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
    if ((await this.presence.change(actor.uid, -1)) && isStaffRole(actor.role)) {
      await this.effects.announcePresence(actor.uid);
    }
    const id = await this.store.callOf(actor.uid);
    if (id === null) return;
    await this.end(id, (call) => {
      if (call.caller === actor.uid && call.callerSocket === socketId) {
        return { caller: null, ringing: 'cancelled', answerer: 'dropped' };
      }
      if (call.answerSocket === socketId) return { caller: 'dropped', ringing: 'answered', answerer: null };
      return null;
    }).catch((error: unknown) => {
      // The call ended meanwhile.
      if (!(error instanceof AppError)) throw error;
    });
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * Marks `uid` as in call `id`. A place held by a call that is gone, or by one still ringing long after it
   * should have timed out (the instance keeping its timer died), is taken back first.
   */
  private async claim(uid: number, id: string): Promise<boolean> {
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

  private async callIdOf(uid: number): Promise<string> {
    const id = await this.store.callOf(uid);
    if (id === null) throw notInCall();
    return id;
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

  /** One rung declines: the call ends when nobody else is ringing, else it goes on without them. */
  private async decline(id: string, uid: number): Promise<void> {
    let last = false;
    await this.change(id, (call) => {
      if (!call.ringing.includes(uid) || call.answeredBy !== null) throw notInCall();
      const ringing = call.ringing.filter((each) => each !== uid);
      last = ringing.length === 0;
      if (last) return null;
      return {
        next: { ...call, ringing },
        then: async () => {
          await this.store.release(uid, id);
          const caller = await this.effects.partyOf(call.caller);
          await this.effects.signal(uid, { type: 'cancelCall', from: caller, reason: 'declined' });
        },
      };
    });
    if (last) await this.end(id, () => ({ caller: 'declined', ringing: 'declined', answerer: null }));
  }

  /** A man's call still ringing: every other online staff member in no call is rung too. */
  private async escalate(id: string): Promise<boolean> {
    const stored = await this.store.load(id);
    if (!stored || stored.call.answeredBy !== null || stored.call.escalated) return false;
    const candidates = await this.effects.otherStaff(stored.call);
    const claimed: CallUser[] = [];
    for (const person of candidates) if (await this.claim(person.uid, id)) claimed.push(person);
    const release = () => Promise.all(claimed.map((person) => this.store.release(person.uid, id)));
    let rang = false;
    await this.change(id, (call) => {
      if (call.answeredBy !== null || call.escalated) return null;
      const next = {
        ...call,
        escalated: true,
        ringing: [...call.ringing, ...claimed.map((each) => each.uid)],
      };
      return {
        next,
        then: async () => {
          if (claimed.length === 0) return;
          rang = true;
          const caller = await this.effects.partyOf(call.caller);
          const { push } = await this.effects.ring(next, caller, claimed);
          const callee = await this.effects.partyOf(call.callee);
          await this.effects.signal(
            call.caller,
            { type: 'ringing', to: callee, push, escalated: true },
            call.callerSocket,
          );
        },
      };
    }).catch(async (error: unknown) => {
      await release();
      throw error;
    });
    if (!rang) await release();
    return rang;
  }

  /**
   * Ends the call if `reasonsFor` says so for its current state (null: leave it): everyone still in it is
   * told why, their place in the store is freed, and the record is written once, by whoever ended it.
   */
  private async end(
    id: string,
    reasonsFor: (
      call: CallState,
    ) => { caller: CallEndReason | null; ringing: CallEndReason; answerer: CallEndReason | null } | null,
  ): Promise<void> {
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
  private async change(id: string, decide: (call: CallState) => Decision | null): Promise<void> {
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

  private after(ms: number, task: () => Promise<unknown>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task().catch((error: unknown) => {
        if (!(error instanceof AppError)) this.onError(error);
      });
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
