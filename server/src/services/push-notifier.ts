import {
  CALL_RECORD_TYPE,
  can,
  DEFAULT_PUSH_SETTINGS,
  ja,
  jaMember,
  type Notifications,
  type PushKinds,
  type PushPayload,
  type PushSettings,
} from '@enishi/contract';
import { conversationType } from '../presenters/conversation-presenter.js';
import type { PushSender } from '../bus/delivery.js';
import type { Audience, RealtimeEvent } from '../bus/events.js';
import type { Foreground } from './foreground.js';
import type { PushRepository, Recipient } from '../repositories/push-repository.js';
import type { MessageFact } from '../presenters/message-fact.js';
import { deskSideOf } from '../rules/conversation-rules.js';
import { PUSH_DELIVERY, type PushDelivery, type PushQueue } from './push-queue.js';

/** The switch that governs a message for this reader; null: none (a staff room), 'skip': never pushed. */
export function messageKind(
  fact: MessageFact,
  readerRole: number,
  broadcast = false,
): keyof PushKinds | null | 'skip' {
  switch (fact.kind) {
    case 'desk':
      if (!can({ role: readerRole }, 'desk.use')) return broadcast ? 'broadcast' : 'staff';
      return deskSideOf(true, fact.member_role);
    case 'st':
      return 'st';
    case 'staffroom':
      return null;
    default:
      // A bulk send's own history among staff: its copies reach the members in their desk talks.
      return 'skip';
  }
}

/** What the lock screen shows for a message: who wrote, and the text only when the reader chose so. */
export function messagePayload(
  fact: MessageFact,
  readerRole: number,
  settings: PushSettings,
  badge: number,
): PushPayload {
  const fromStaff =
    fact.kind === 'desk' && can({ role: fact.role }, 'desk.use') && !can({ role: readerRole }, 'desk.use');
  const title = fromStaff ? ja.talk.fromStaff : ja.talk.fromMember.replace('{name}', fact.name);
  const neutral = fact.stamp
    ? jaMember.stamps.push
    : fact.message === '' && fact.image.length > 0
      ? ja.push.newImage
      : ja.push.newMessage;
  const type = conversationType(readerRole, fact.kind, fact.member_role);
  return {
    title,
    // A message taken back says so whatever the switch: its words are the same for everyone.
    body: (settings.show_text || fact.unsent) && fact.message !== '' ? fact.message : neutral,
    url: type === 'staff' ? `/talk/staff/${fact.conversation_id}` : `/talk/${fact.conversation_id}`,
    tag: `talk-${fact.conversation_id}`,
    badge,
    ...(fact.unsent ? { quiet: true } : {}),
  };
}

/** Batches of events being looked at at once, and the most events one batch takes. */
const BATCHES_AT_ONCE = 2;
const BATCH_EVENTS = 200;
/** Events are gathered this long before a look, so a busy chat costs one lookup per batch, not per message. */
const GATHER_MS = 25;

/** An event worth a push, with the people it reaches. */
interface Pending {
  audience: Audience;
  event: Extract<RealtimeEvent, { event: 'message.created' | 'message.unsent' | 'news.published' }>;
}

/** What is known of a batch's people after one look at the database. */
interface Looked {
  byUser: Map<number, Recipient[]>;
  staff: Recipient[];
  away: Set<number>;
  settings: Map<number, PushSettings>;
}

const sum = (counts: Notifications) =>
  counts.news + counts.fromStaff + counts.setting + counts.fromWomen + counts.fromMen;

/**
 * Decides who gets a push for an event and queues it (the PushSender of Delivery). Delivery calls it on the
 * publishing instance only, so with several instances each subscription still gets one push. The work runs
 * beside talking: `send` returns at once.
 */
export class PushNotifier implements PushSender {
  /** Events waiting to be looked at, and how many batches are being looked at now. */
  private readonly waiting: Pending[] = [];
  private running = 0;
  private gathering: ReturnType<typeof setTimeout> | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly repository: PushRepository,
    private readonly foreground: Foreground,
    private readonly queue: PushQueue,
    private readonly counters: (reader: { uid: number; role: number }) => Promise<Notifications>,
    private readonly onError: (error: unknown) => void,
  ) {}

  async send(audience: Audience, event: RealtimeEvent): Promise<void> {
    const pushed = ['message.created', 'message.unsent', 'news.published'];
    if (!pushed.includes(event.event)) return;
    // A call's record: the call rang by push already; one notice per call (product.md §17.10).
    if (event.event === 'message.created' && event.message.message_type === CALL_RECORD_TYPE) return;
    this.waiting.push({ audience, event: event as Pending['event'] });
    this.gathering ??= setTimeout(() => {
      this.gathering = undefined;
      this.pump();
    }, GATHER_MS);
  }

  /**
   * A call rings by push (product.md §17.6): to every device of `uids` at once, high urgency and a short
   * life, with no switch. Answers who had a device to push to.
   */
  async ring(uids: number[], payload: Omit<PushPayload, 'badge'>): Promise<Set<number>> {
    if (uids.length === 0) return new Set();
    const recipients = await this.repository.recipients(uids, false);
    const reached = new Set<number>();
    await Promise.all(
      [...new Set(recipients.map((each) => each.userId))].map(async (uid) => {
        const role = recipients.find((each) => each.userId === uid)!.role;
        const badge = sum(await this.counters({ uid, role }));
        const json = JSON.stringify({ ...payload, badge });
        for (const subscription of recipients.filter((each) => each.userId === uid)) {
          this.queue.enqueue({ subscription, payload: json, delivery: PUSH_DELIVERY.call });
        }
        reached.add(uid);
      }),
    );
    return reached;
  }

  /**
   * A change to how someone logs in (product.md §11.8): to each of their devices but the one that made it,
   * with no switch (their account's security is not a kind they may turn off).
   */
  async account(uid: number, exceptSessionId: string, payload: Omit<PushPayload, 'badge'>): Promise<void> {
    const recipients = (await this.repository.recipients([uid], false)).filter(
      (each) => each.sessionId !== exceptSessionId,
    );
    if (recipients.length === 0) return;
    const badge = sum(await this.counters({ uid, role: recipients[0]!.role }));
    const json = JSON.stringify({ ...payload, badge });
    for (const subscription of recipients)
      this.queue.enqueue({ subscription, payload: json, delivery: PUSH_DELIVERY.message });
  }

  /** Resolves once every event handed in so far is looked at and its pushes sent (tests and the bench). */
  async idle(): Promise<void> {
    if (this.running > 0 || this.waiting.length > 0 || this.gathering) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    await this.queue.idle();
  }

  /**
   * The queries that pick recipients share the database with talking. A bulk send makes thousands of events at
   * once: they are looked at in batches (one query for everyone's subscriptions and settings), a few batches at
   * a time, so the chat's own statements never wait behind all of them.
   */
  private pump(): void {
    while (this.running < BATCHES_AT_ONCE && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, BATCH_EVENTS);
      this.running += 1;
      void this.look(batch)
        .catch(this.onError)
        .finally(() => {
          this.running -= 1;
          this.pump();
          if (this.running === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
    }
  }

  private async look(batch: Pending[]): Promise<void> {
    const memberIds = [...new Set(batch.flatMap((each) => each.audience.memberIds))];
    const all = await this.repository.recipients(
      memberIds,
      batch.some((each) => each.audience.staff && each.event.event !== 'news.published'),
    );
    const byUser = new Map<number, Recipient[]>();
    for (const each of all) byUser.set(each.userId, [...(byUser.get(each.userId) ?? []), each]);
    const away = new Set(await this.foreground.away([...byUser.keys()]));
    const looked: Looked = {
      byUser,
      staff: all.filter((each) => can({ role: each.role }, 'desk.use')),
      away,
      settings: await this.repository.settingsOf([...away]),
    };
    // One event after another: each asks for its recipients' badge counts.
    for (const { audience, event } of batch) {
      const recipients = audience.memberIds.flatMap((uid) => byUser.get(uid) ?? []);
      if (event.event === 'news.published') {
        const { title } = event;
        await this.toAway(
          looked,
          recipients,
          () => 'news',
          (_role, _settings, badge) => ({ title, body: ja.push.newNews, url: '/news', tag: 'news', badge }),
          PUSH_DELIVERY.news,
        );
        continue;
      }
      const fact = event.message;
      const broadcast = 'broadcast' in event && event.broadcast === true;
      // A bulk send's copy in a member's desk talk: its push is counted for the send's figures.
      const copy = broadcast && fact.kind === 'desk' && event.event === 'message.created';
      await this.toAway(
        looked,
        [...recipients, ...(audience.staff ? looked.staff : [])].filter((each) => each.userId !== fact.from),
        (role) => messageKind(fact, role, broadcast),
        (role, settings, badge) => messagePayload(fact, role, settings, badge),
        PUSH_DELIVERY.message,
        (role) =>
          copy && !can({ role }, 'desk.use')
            ? () => this.repository.markBroadcastPushed(fact.id, new Date())
            : undefined,
      );
    }
  }

  /** Queues a push to each recipient who is not looking at the app and whose settings allow the kind. */
  private async toAway(
    looked: Looked,
    recipients: Recipient[],
    kindOf: (role: number) => keyof PushKinds | null | 'skip',
    payloadOf: (role: number, settings: PushSettings, badge: number) => PushPayload,
    delivery: PushDelivery,
    sentOf: (role: number) => (() => Promise<void>) | undefined = () => undefined,
  ): Promise<void> {
    const byUser = new Map<number, Recipient[]>();
    for (const each of recipients) {
      const kind = kindOf(each.role);
      const chosen = looked.settings.get(each.userId) ?? DEFAULT_PUSH_SETTINGS;
      if (kind === 'skip' || !looked.away.has(each.userId) || (kind !== null && !chosen.kinds[kind]))
        continue;
      byUser.set(each.userId, [...(byUser.get(each.userId) ?? []), each]);
    }
    await Promise.all(
      [...byUser].map(async ([uid, subscriptions]) => {
        const role = subscriptions[0]!.role;
        const badge = sum(await this.counters({ uid, role }));
        const settings = looked.settings.get(uid) ?? DEFAULT_PUSH_SETTINGS;
        const payload = JSON.stringify(payloadOf(role, settings, badge));
        const onSent = sentOf(role);
        for (const subscription of subscriptions)
          this.queue.enqueue({ subscription, payload, delivery, ...(onSent ? { onSent } : {}) });
      }),
    );
  }
}
