import type { Fanout } from './fanout.js';
import type { Audience, RealtimeEvent, RealtimeEventMap, RealtimeEventName } from './events.js';

export const userTopic = (uid: number) => `user-${uid}`;
/** Every staff socket listens here: staff belong to every conversation. */
export const STAFF_TOPIC = 'staff';
/** Every male member's socket listens here too: staff presence, for the emergency call list (product.md §17.8). */
export const MEN_TOPIC = 'men';
/**
 * Every instance's session cache listens here (services/session-cache.ts): a session or user that changed
 * anywhere is read from the database again everywhere.
 */
export const SESSIONS_TOPIC = 'sessions';

/** What the session caches hear: an event that ends or changes sessions, with the user it is about. */
export type SessionEvent = Extract<RealtimeEvent, { event: 'session.ended' | 'user.changed' }> & {
  uid: number;
};
const changesSessions = (event: RealtimeEventName): event is SessionEvent['event'] =>
  event === 'session.ended' || event === 'user.changed';

/**
 * Where push notifications will plug in: handed every event after the sockets have it, with the people it
 * reaches, to decide what is worth a notification. There is none yet.
 */
export interface PushSender {
  send(audience: Audience, event: RealtimeEvent): Promise<void>;
}

/**
 * The one way an event reaches people: to their open sockets now (one Fanout topic per member, one for all
 * staff) and to a push sender when there is one. Services call it only after their transaction has
 * committed; events are plain JSON, so a Fanout across instances carries them unchanged.
 */
export class Delivery {
  private readonly sessionWatchers: ((event: SessionEvent) => void)[] = [];

  constructor(
    private readonly fanout: Fanout,
    private readonly push: PushSender | null = null,
  ) {}

  async deliver(audience: Audience, event: RealtimeEvent): Promise<void> {
    const topics = audience.memberIds.map(userTopic);
    if (audience.staff) topics.push(STAFF_TOPIC);
    await Promise.all(topics.map((topic) => this.fanout.publish(topic, event)));
    await this.push?.send(audience, event);
  }

  toAudience<K extends RealtimeEventName>(
    audience: Audience,
    event: K,
    payload: RealtimeEventMap[K],
  ): Promise<void> {
    return this.deliver(audience, { event, ...payload } as RealtimeEvent);
  }

  toUser<K extends RealtimeEventName>(uid: number, event: K, payload: RealtimeEventMap[K]): Promise<void> {
    if (changesSessions(event)) return this.sessionChanged({ event, ...payload, uid } as SessionEvent);
    return this.toAudience({ memberIds: [uid], staff: false }, event, payload);
  }

  /**
   * `watcher` hears every session.ended and user.changed: from this instance at once (before it is
   * published, so this instance's next request already sees it), from the others through the fan-out.
   */
  watchSessions(watcher: (event: SessionEvent) => void): () => void {
    this.sessionWatchers.push(watcher);
    return this.fanout.subscribe(SESSIONS_TOPIC, (payload) => watcher(payload as SessionEvent));
  }

  /** One copy to the session caches and the user's sockets: one Redis message (redis-fanout.ts). */
  private async sessionChanged(copy: SessionEvent): Promise<void> {
    for (const watcher of this.sessionWatchers) watcher(copy);
    const topics = [SESSIONS_TOPIC, userTopic(copy.uid)];
    await Promise.all(topics.map((topic) => this.fanout.publish(topic, copy)));
    await this.push?.send({ memberIds: [copy.uid], staff: false }, copy);
  }

  /** Publishes to every socket of staff and of male members (presence of staff). */
  async toStaffAndMen<K extends RealtimeEventName>(event: K, payload: RealtimeEventMap[K]): Promise<void> {
    const copy = { event, ...payload } as RealtimeEvent;
    await Promise.all([STAFF_TOPIC, MEN_TOPIC].map((topic) => this.fanout.publish(topic, copy)));
  }

  /**
   * A user's socket hears what is delivered to them (and, for staff, to all staff; `extra`: further topics
   * such as MEN_TOPIC); returns unsubscribe.
   */
  subscribe(
    uid: number,
    isStaff: boolean,
    onEvent: (event: RealtimeEvent) => void,
    extra: string[] = [],
  ): () => void {
    const topics = [...(isStaff ? [userTopic(uid), STAFF_TOPIC] : [userTopic(uid)]), ...extra];
    const handler = (payload: unknown) => onEvent(payload as RealtimeEvent);
    const unsubscribes = topics.map((topic) => this.fanout.subscribe(topic, handler));
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
  }
}
