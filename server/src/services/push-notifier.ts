import {
  DEFAULT_PUSH_SETTINGS,
  isStaffRole,
  ja,
  ROLE,
  type Notifications,
  type PushKinds,
  type PushPayload,
  type PushSettings,
} from '@enishi/contract';
import { conversationType } from '../presenters/conversation-presenter.js';
import type { PushSender } from '../realtime/delivery.js';
import type { Audience, RealtimeEvent } from '../realtime/events.js';
import type { Foreground } from '../realtime/foreground.js';
import type { PushRepository, Recipient } from '../repositories/push-repository.js';
import type { MessageFact } from './message.js';
import { PUSH_DELIVERY, type PushDelivery, type PushQueue } from './push-queue.js';

/** The switch that governs a message for this reader; null: none (a staff room), 'skip': never pushed. */
export function messageKind(fact: MessageFact, readerRole: number): keyof PushKinds | null | 'skip' {
  switch (fact.kind) {
    case 'desk':
      if (!isStaffRole(readerRole)) return 'staff';
      return fact.member_role === ROLE.female ? 'women' : 'men';
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
  const fromStaff = isStaffRole(fact.role) && fact.kind === 'desk' && !isStaffRole(readerRole);
  const title = fromStaff ? ja.talk.fromStaff : ja.talk.fromMember.replace('{name}', fact.name);
  const neutral = fact.message === '' && fact.image.length > 0 ? ja.push.newImage : ja.push.newMessage;
  const type = conversationType(readerRole, fact.kind, fact.member_role);
  return {
    title,
    body: settings.show_text && fact.message !== '' ? fact.message : neutral,
    url: type === 'staff' ? `/talk/staff/${fact.conversation_id}` : `/talk/${fact.conversation_id}`,
    tag: `talk-${fact.conversation_id}`,
    badge,
  };
}

/** Events whose recipients are being looked up at once. */
const EVENTS_AT_ONCE = 2;

const sum = (counts: Notifications) =>
  counts.news + counts.fromStaff + counts.setting + counts.fromWomen + counts.fromMen;

/**
 * Decides who gets a push for an event and queues it (the PushSender of Delivery). Delivery calls it on the
 * publishing instance only, so with several instances each subscription still gets one push. The work runs
 * beside talking: `send` returns at once.
 */
export class PushNotifier implements PushSender {
  /** Events waiting to be looked at, and how many are being looked at now. */
  private readonly waiting: (() => Promise<void>)[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly repository: PushRepository,
    private readonly foreground: Foreground,
    private readonly queue: PushQueue,
    private readonly counters: (reader: { uid: number; role: number }) => Promise<Notifications>,
    private readonly onError: (error: unknown) => void,
  ) {}

  async send(audience: Audience, event: RealtimeEvent): Promise<void> {
    if (event.event === 'message.created') this.later(() => this.message(audience, event.message));
    else if (event.event === 'news.published') this.later(() => this.news(audience, event.title));
  }

  /** Resolves once every event handed in so far is looked at and its pushes sent (tests and the bench). */
  async idle(): Promise<void> {
    if (this.running > 0 || this.waiting.length > 0) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    await this.queue.idle();
  }

  /**
   * The queries that pick recipients share the database with talking: a bulk send makes thousands of events at
   * once, so only a few are looked at at a time and the chat's own statements never wait behind all of them.
   */
  private later(work: () => Promise<void>): void {
    this.waiting.push(work);
    while (this.running < EVENTS_AT_ONCE && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.running += 1;
      void next()
        .catch(this.onError)
        .finally(() => {
          this.running -= 1;
          if (this.waiting.length > 0) return this.later(this.waiting.shift()!);
          if (this.running === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
    }
  }

  private async news(audience: Audience, title: string): Promise<void> {
    const recipients = await this.repository.recipients(audience.memberIds, false);
    await this.toAway(
      recipients,
      () => 'news',
      (_role, _settings, badge) => ({ title, body: ja.push.newNews, url: '/news', tag: 'news', badge }),
      PUSH_DELIVERY.news,
    );
  }

  private async message(audience: Audience, fact: MessageFact): Promise<void> {
    const recipients = await this.repository.recipients(audience.memberIds, audience.staff);
    await this.toAway(
      recipients.filter((each) => each.userId !== fact.from),
      (role) => messageKind(fact, role),
      (role, settings, badge) => messagePayload(fact, role, settings, badge),
      PUSH_DELIVERY.message,
    );
  }

  /** Queues a push to each recipient who is not looking at the app and whose settings allow the kind. */
  private async toAway(
    recipients: Recipient[],
    kindOf: (role: number) => keyof PushKinds | null | 'skip',
    payloadOf: (role: number, settings: PushSettings, badge: number) => PushPayload,
    delivery: PushDelivery,
  ): Promise<void> {
    const candidates = recipients.filter((each) => kindOf(each.role) !== 'skip');
    if (candidates.length === 0) return;
    const away = new Set(await this.foreground.away([...new Set(candidates.map((each) => each.userId))]));
    const settings = await this.repository.settingsOf([...away]);
    const byUser = new Map<number, Recipient[]>();
    for (const each of candidates) {
      const kind = kindOf(each.role);
      const chosen = settings.get(each.userId) ?? DEFAULT_PUSH_SETTINGS;
      if (!away.has(each.userId) || (kind !== null && kind !== 'skip' && !chosen.kinds[kind])) continue;
      byUser.set(each.userId, [...(byUser.get(each.userId) ?? []), each]);
    }
    await Promise.all(
      [...byUser].map(async ([uid, subscriptions]) => {
        const role = subscriptions[0]!.role;
        const badge = sum(await this.counters({ uid, role }));
        const payload = JSON.stringify(payloadOf(role, settings.get(uid) ?? DEFAULT_PUSH_SETTINGS, badge));
        for (const subscription of subscriptions) this.queue.enqueue({ subscription, payload, delivery });
      }),
    );
  }
}
