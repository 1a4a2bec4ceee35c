import { randomUUID } from 'node:crypto';
import { can, jaMember, mayCall } from '@enishi/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { RateLimiter } from '../lib/limiters.js';
import type { CallUser } from '../repositories/call-repository.js';
import type { CallEffects } from './call-effects.js';
import type { CallState, CallStore } from './call-store.js';
import { notInCall, type CallTiming, type CallTransitions } from './call-transitions.js';
import type { Actor } from './session-service.js';

/**
 * A call until someone takes it (product.md §17.6): placed (who may call whom, one call per person, busy),
 * ringing, a man's unanswered call rung on to the other staff, declined, timed out. The instance where a
 * call starts keeps its escalation and timeout timers.
 */
export class CallRinging {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: CallStore,
    private readonly effects: CallEffects,
    private readonly transitions: CallTransitions,
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
    if (!(await this.transitions.claim(actor.uid, id)))
      throw new AppError('conflict', jaMember.calls.alreadyInCall);
    const call = this.newCall(id, actor, socketId, to);
    const calleeParty = this.effects.party(callee);
    if (!(await this.transitions.claim(to, id))) {
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
    const { reached, push } = await this.effects.ring(call, this.effects.party(actor), [callee]);
    // A call to the staff (a man's): every other staff member is rung too when it goes unanswered.
    const escalates = can(callee, 'call.answer');
    if (!reached && !(escalates && (await this.escalate(id)))) {
      await this.transitions.end(id, () => ({ caller: 'offline', ringing: 'timeout', answerer: null }));
      return false;
    }
    if (reached) {
      const ringing = { type: 'ringing', to: calleeParty, push, escalated: false } as const;
      await this.effects.signal(actor.uid, ringing, socketId);
    }
    if (escalates) this.after(this.timing.escalateMs, () => this.escalate(id));
    this.after(this.timing.ringMs, () =>
      this.transitions.end(id, (now) =>
        now.answeredBy === null ? { caller: 'timeout', ringing: 'timeout', answerer: null } : null,
      ),
    );
    return true;
  }

  /** A call from `actor`'s socket to `to`, not yet ringing anyone. */
  private newCall(id: string, actor: Actor, socketId: string, to: number): CallState {
    return {
      id,
      caller: actor.uid,
      callerSocket: socketId,
      callee: to,
      memberId: can(actor, 'call.answer') ? to : actor.uid,
      ringing: [],
      answeredBy: null,
      answerSocket: null,
      startedAt: this.clock(),
      answeredAt: null,
      escalated: false,
    };
  }

  /** One rung declines: the call ends when nobody else is ringing, else it goes on without them. */
  async decline(id: string, uid: number): Promise<void> {
    let last = false;
    await this.transitions.change(id, (call) => {
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
    if (last)
      await this.transitions.end(id, () => ({ caller: 'declined', ringing: 'declined', answerer: null }));
  }

  /** A man's call still ringing: every other online staff member in no call is rung too. */
  private async escalate(id: string): Promise<boolean> {
    const stored = await this.store.load(id);
    if (!stored || stored.call.answeredBy !== null || stored.call.escalated) return false;
    const candidates = await this.effects.otherStaff(stored.call);
    const claimed: CallUser[] = [];
    for (const person of candidates) if (await this.transitions.claim(person.uid, id)) claimed.push(person);
    const release = () => Promise.all(claimed.map((person) => this.store.release(person.uid, id)));
    let rang = false;
    await this.transitions
      .change(id, (call) => {
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
      })
      .catch(async (error: unknown) => {
        await release();
        throw error;
      });
    if (!rang) await release();
    return rang;
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

  /** Stops the timers of the calls that started here (shutdown). */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
