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
import { PUSH_DELIVERY, type PushQueue } from './push-queue.js';

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

const sum = (counts: Notifications) =>
  counts.news + counts.fromStaff + counts.setting + counts.fromWomen + counts.fromMen;

/**
 * Decides who gets a push for an event and queues it (the PushSender of Delivery). Delivery calls it on the
 * publishing instance only, so with several instances each subscription still gets one push. The work runs
 * beside talking: `send` returns at once.
 */
export class PushNotifier implements PushSender {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly repository: PushRepository,
    private readonly foreground: Foreground,
    private readonly queue: PushQueue,
    private readonly counters: (reader: { uid: number; role: number }) => Promise<Notifications>,
    private readonly onError: (error: unknown) => void,
  ) {}

  async send(audience: Audience, event: RealtimeEvent): Promise<void> {
    if (event.event !== 'message.created') return;
    const work = this.message(audience, event.message).catch(this.onError);
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Resolves once every event handed in so far is queued and sent (tests and the bench). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    await this.queue.idle();
  }

  private async message(audience: Audience, fact: MessageFact): Promise<void> {
    const all = await this.repository.recipients(audience.memberIds, audience.staff);
    const candidates = all.filter(
      (each) => each.userId !== fact.from && messageKind(fact, each.role) !== 'skip',
    );
    if (candidates.length === 0) return;
    const userIds = [...new Set(candidates.map((each) => each.userId))];
    const away = new Set(await this.foreground.away(userIds));
    const settings = await this.repository.settingsOf([...away]);
    const byUser = new Map<number, Recipient[]>();
    for (const each of candidates) {
      if (!away.has(each.userId)) continue;
      const chosen = settings.get(each.userId) ?? DEFAULT_PUSH_SETTINGS;
      const kind = messageKind(fact, each.role);
      if (kind !== null && kind !== 'skip' && !chosen.kinds[kind]) continue;
      byUser.set(each.userId, [...(byUser.get(each.userId) ?? []), each]);
    }
    await Promise.all(
      [...byUser].map(async ([uid, subscriptions]) => {
        const role = subscriptions[0]!.role;
        const badge = sum(await this.counters({ uid, role }));
        const payload = messagePayload(fact, role, settings.get(uid) ?? DEFAULT_PUSH_SETTINGS, badge);
        const json = JSON.stringify(payload);
        for (const subscription of subscriptions) {
          this.queue.enqueue({ subscription, payload: json, delivery: PUSH_DELIVERY.message });
        }
      }),
    );
  }
}
