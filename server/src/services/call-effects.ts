import { randomUUID } from 'node:crypto';
import {
  CALL_RECORD_TYPE,
  ja,
  type CallEndReason,
  type CallParty,
  type CallServerFrame,
  type PushPayload,
  type StaffRow,
  jaMember,
  can,
} from '@enishi/contract';
import type { Clock } from '../lib/clock.js';
import { metrics } from '../lib/metrics.js';
import type { CallState } from './call-store.js';
import { MEN_TOPIC, STAFF_TOPIC, type Delivery } from '../bus/delivery.js';
import type { Foreground } from './foreground.js';
import type { CallRepository, CallUser } from '../repositories/call-repository.js';
import type { MessagePosting } from './message-posting.js';
import type { ProfileUrl } from '../presenters/message-fact.js';
import type { PushNotifier } from './push-notifier.js';

/** How the people of a call are reached: frames to their sockets, pushes to closed apps, the record. */
export class CallEffects {
  constructor(
    private readonly repository: CallRepository,
    private readonly delivery: Delivery,
    /** Open sockets per user, on any instance. */
    private readonly presence: Foreground,
    /** Sockets with the app on screen (product.md §16.6). */
    private readonly foreground: Foreground,
    private readonly pushNotifier: PushNotifier,
    private readonly posting: MessagePosting,
    private readonly profileUrl: ProfileUrl,
    private readonly clock: Clock,
  ) {}

  async user(uid: number): Promise<CallUser | null> {
    return this.repository.findUser(uid);
  }

  party(user: Pick<CallUser, 'uid' | 'name' | 'image'>): CallParty {
    return { uid: user.uid, name: user.name, image: this.profileUrl(user.image) };
  }

  async partyOf(uid: number): Promise<CallParty> {
    const user = await this.repository.findUser(uid);
    return user ? this.party(user) : { uid, name: ja.talk.formerUser, image: null };
  }

  /** A frame to one socket of `uid` (the one that placed or took the call), or to all of theirs. */
  signal(uid: number, frame: CallServerFrame, toSocket?: string, exceptSocket?: string): Promise<void> {
    return this.delivery.toUser(uid, 'call.signal', {
      frame,
      ...(toSocket ? { toSocket } : {}),
      ...(exceptSocket ? { exceptSocket } : {}),
    });
  }

  /** Those of `uids` with a chat socket open anywhere. */
  async online(uids: number[]): Promise<Set<number>> {
    const away = new Set(await this.presence.away(uids));
    return new Set(uids.filter((uid) => !away.has(uid)));
  }

  /**
   * Rings each of `people` on every open app and, when none of their apps is on screen, by a high-urgency
   * push. Answers whether anyone could be reached at all, and whether a push went out.
   */
  async ring(
    call: CallState,
    caller: CallParty,
    people: CallUser[],
  ): Promise<{ reached: boolean; push: boolean }> {
    const uids = people.map((person) => person.uid);
    const [online, away] = await Promise.all([this.online(uids), this.foreground.away(uids)]);
    await Promise.all(uids.map((uid) => this.signal(uid, { type: 'calling', from: caller })));
    const payload: Omit<PushPayload, 'badge'> = {
      title: jaMember.calls.pushTitle,
      body: jaMember.calls.pushBody(caller.name),
      url: `/call?from=${call.caller}`,
      tag: 'call',
    };
    const pushed = await this.pushNotifier.ring(away, payload);
    return {
      reached: uids.some((uid) => online.has(uid) || pushed.has(uid)),
      push: pushed.size > 0,
    };
  }

  /** Every staff member, with whether they are online on any instance. */
  async staffRows(): Promise<StaffRow[]> {
    const staff = await this.repository.staff();
    const online = await this.online(staff.map((person) => person.uid));
    return staff.map((person) => ({ ...this.party(person), isOnline: online.has(person.uid) }));
  }

  /**
   * Tells staff and male members (the emergency call list, product.md §17.8) whether a staff member is online
   * now, on any instance.
   */
  async announcePresence(uid: number): Promise<void> {
    const isOnline = (await this.online([uid])).has(uid);
    await this.delivery.toTopics([STAFF_TOPIC, MEN_TOPIC], 'presence.changed', { uid, isOnline });
  }

  /** Every staff member who could take the call now: online, not the caller, not already rung. */
  async otherStaff(call: CallState): Promise<CallUser[]> {
    const staff = (await this.repository.staff()).filter(
      (person) =>
        person.uid !== call.caller && person.uid !== call.callee && !call.ringing.includes(person.uid),
    );
    const online = await this.online(staff.map((person) => person.uid));
    return staff.filter((person) => online.has(person.uid));
  }

  /** Tells everyone still part of an ended call why it ended. */
  async announceEnd(
    call: CallState,
    reasons: { caller: CallEndReason | null; ringing: CallEndReason; answerer: CallEndReason | null },
    from: { caller: CallParty; other: CallParty },
  ): Promise<void> {
    const frames: Promise<void>[] = [];
    if (reasons.caller) {
      frames.push(
        this.signal(
          call.caller,
          { type: 'cancelCall', from: from.other, reason: reasons.caller },
          call.callerSocket,
        ),
      );
    }
    for (const uid of call.ringing) {
      frames.push(this.signal(uid, { type: 'cancelCall', from: from.caller, reason: reasons.ringing }));
    }
    if (call.answeredBy !== null && reasons.answerer) {
      frames.push(
        this.signal(
          call.answeredBy,
          { type: 'cancelCall', from: from.caller, reason: reasons.answerer },
          call.answerSocket ?? undefined,
        ),
      );
    }
    await Promise.all(frames);
  }

  /**
   * The call's one message in the member's desk talk (product.md §17.7), through the one write path. The
   * call id is its client id, so the record is stored once even if two instances end the call together.
   * Counted by outcome (the metric) here, where every ended call passes once per instance that ends it.
   */
  async record(call: CallState, reason: CallEndReason): Promise<void> {
    metrics.callEnded(call.answeredBy !== null ? 'answered' : reason);
    const conversationId = await this.repository.deskOf(call.memberId);
    if (conversationId === null) return;
    const answered = call.answeredBy !== null && call.answeredAt !== null;
    const staffSide = answered
      ? [call.caller, call.answeredBy!].find((uid) => uid !== call.memberId)!
      : call.caller;
    const sender = await this.repository.findUser(staffSide);
    if (!sender || !can(sender, 'call.place')) return;
    const now = this.clock();
    await this.posting.post(
      {
        conversationId,
        senderId: sender.uid,
        mayWriteAnywhere: true,
        body: answered ? jaMember.calls.duration((now - call.answeredAt!) / 1000) : jaMember.calls.missed,
        images: [],
        replyToId: null,
        announce: false,
        messageType: CALL_RECORD_TYPE,
        clientId: isUuid(call.id) ? call.id : randomUUID(),
        now: new Date(now),
        marksRead: false,
      },
      sender,
      null,
    );
  }
}

const isUuid = (value: string) => /^[0-9a-f-]{36}$/.test(value);
