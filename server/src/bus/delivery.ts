import { deepFreeze, Subscribers, type Fanout } from './fanout.js';
import type { Audience, RealtimeEvent, RealtimeEventMap, RealtimeEventName } from './events.js';
import { MessageOrder, type LiveMessage, type OrderTiming, type StoredMessages } from './message-order.js';

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
/** Every instance hears every new message here and hands it to its own sockets in id order (decision 019). */
export const MESSAGES_TOPIC = 'messages';
/**
 * Every instance's room-list cache listens here (services/room-list-cache.ts): a write that changed room
 * lists anywhere makes the next read of them fresh everywhere.
 */
export const ROOM_LISTS_TOPIC = 'room-lists';

/**
 * New messages published together go on MESSAGE_LISTS_TOPIC in lists of at most this many: a bulk send's
 * 20,000 copies are some 40 Redis messages of about 200 KB, not 20,000 publishes (decision 027).
 */
export const MESSAGES_PER_PUBLISH = 500;
/**
 * Lists of new messages: a topic of their own, which an instance of an earlier release does not hear while a
 * rolling upgrade has both running (docs/operations.md, "Upgrades"); it reads those messages from the
 * database as it reads any gap in the order, instead of taking a list for one message.
 */
export const MESSAGE_LISTS_TOPIC = 'message-lists';

/** A committed message and the people it reaches. */
export interface NewMessageEvent {
  audience: Audience;
  event: Extract<RealtimeEvent, { event: 'message.created' }>;
}

/** Whose room lists a committed write changed: those of `uids` and, with `staff`, every staff member's; or all. */
export type RoomListChange = { uids: number[]; staff: boolean } | { all: true };

/** The topics an audience is reached by. */
export function topicsOf(audience: Audience): string[] {
  const topics = audience.memberIds.map(userTopic);
  if (audience.staff) topics.push(STAFF_TOPIC);
  return topics;
}

/**
 * Where push notifications plug in (decision 009): handed every event after the sockets have it, with the
 * people it reaches, to decide what is worth a notification (services/push-notifier.ts). None in tests that
 * leave push out.
 */
export interface PushSender {
  send(audience: Audience, event: RealtimeEvent): Promise<void>;
}

/** How this instance orders new messages: with the stored messages when several instances write. */
export interface DeliveryOptions {
  stored?: StoredMessages | null;
  onError?: (error: unknown) => void;
  timing?: OrderTiming;
}

/**
 * The one way an event reaches people: to their open sockets now (one Fanout topic per member, one for all
 * staff) and to a push sender when there is one. Services call it only after their transaction has
 * committed; events are plain JSON, so a Fanout across instances carries them unchanged.
 *
 * New messages take their own way (decision 019): the writer hands each to this instance's sockets at once
 * and publishes it once on MESSAGES_TOPIC; every instance passes what it hears through its MessageOrder,
 * which hands each message on once, in id order, reading from the database what a dead writer never
 * published.
 */
export class Delivery {
  private readonly sessionWatchers: ((event: SessionEvent) => void)[] = [];
  private readonly roomListWatchers: ((change: RoomListChange) => void)[] = [];
  /** Sockets by topic, for new messages (other events reach them through the fan-out's topics). */
  private readonly messageSockets: Subscribers;
  private readonly order: MessageOrder;
  private readonly onError: (error: unknown) => void;
  private readonly unsubscribeMessages: () => void;
  private readonly several: boolean;

  constructor(
    private readonly fanout: Fanout,
    private readonly push: PushSender | null = null,
    options: DeliveryOptions = {},
  ) {
    this.onError = options.onError ?? (() => {});
    this.messageSockets = new Subscribers(this.onError);
    this.order = new MessageOrder(
      (message) => {
        for (const topic of message.topics) this.messageSockets.deliver(topic, message.event);
      },
      options.stored ?? null,
      this.onError,
      options.timing,
    );
    this.several = options.stored != null;
    // One instance: its writer's own copy is all there is (the fan-out would only hand it back).
    if (this.several) {
      const one = fanout.subscribe(MESSAGES_TOPIC, (payload) => this.order.accept(payload as LiveMessage));
      const lists = fanout.subscribe(MESSAGE_LISTS_TOPIC, (payload) => {
        for (const message of payload as LiveMessage[]) this.order.accept(message);
      });
      this.unsubscribeMessages = () => {
        one();
        lists();
      };
    } else this.unsubscribeMessages = () => {};
  }

  /** Reads where the stored messages stand; before the instance serves anyone. */
  start(): Promise<void> {
    return this.order.start();
  }

  stop(): void {
    this.order.stop();
    this.unsubscribeMessages();
  }

  async deliver(audience: Audience, event: RealtimeEvent): Promise<void> {
    if (event.event === 'message.created') return this.deliverMessages([{ audience, event }]);
    await Promise.all(topicsOf(audience).map((topic) => this.fanout.publish(topic, event)));
    await this.push?.send(audience, event);
  }

  /**
   * New messages, committed, in id order: the other instances first, through the fan-out, several in one
   * publish (MESSAGES_PER_PUBLISH): their sockets, and their own later messages, wait for these (decision
   * 028); the fan-out writes a commit's publishes in one write a microtask later, and this instance's
   * sockets get the messages right after it. A fan-out that is down (Redis restarting) keeps no one here
   * waiting: the other instances read the messages from the database. Each event is frozen as it is (not
   * copied through JSON): it was made for this delivery, and its one copy is what every socket here reads.
   */
  async deliverMessages(messages: NewMessageEvent[]): Promise<void> {
    const live = messages.map(({ audience, event }): LiveMessage => ({
      id: event.message.id,
      topics: topicsOf(audience),
      event,
    }));
    if (this.several) {
      for (let start = 0; start < live.length; start += MESSAGES_PER_PUBLISH) {
        // One message alone goes as itself, as every instance has always read it; lists on their own topic.
        const published =
          live.length === 1
            ? this.fanout.publish(MESSAGES_TOPIC, live[0])
            : this.fanout.publish(MESSAGE_LISTS_TOPIC, live.slice(start, start + MESSAGES_PER_PUBLISH));
        void published.catch(this.onError);
      }
      await Promise.resolve();
    }
    for (const message of live) this.order.accept(deepFreeze(message));
    if (this.push) await Promise.all(messages.map(({ audience, event }) => this.push!.send(audience, event)));
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

  /** `watcher` hears every RoomListChange: from this instance at once, from the others through the fan-out. */
  watchRoomLists(watcher: (change: RoomListChange) => void): () => void {
    this.roomListWatchers.push(watcher);
    return this.fanout.subscribe(ROOM_LISTS_TOPIC, (payload) => watcher(payload as RoomListChange));
  }

  /**
   * After a commit that changed room lists: this instance's cache drops them before this returns, the
   * other instances' when the published change reaches them. Writers call it before they publish the
   * write's own events (one Redis connection keeps the order), so a client that reloads its list on hearing
   * one reads it fresh, and await it before answering.
   */
  roomListsChanged(change: RoomListChange): Promise<void> {
    for (const watcher of this.roomListWatchers) watcher(change);
    return this.fanout.publish(ROOM_LISTS_TOPIC, change);
  }

  /** One copy to the session caches and the user's sockets: one Redis message (redis-fanout.ts). */
  private async sessionChanged(copy: SessionEvent): Promise<void> {
    for (const watcher of this.sessionWatchers) watcher(copy);
    const topics = [SESSIONS_TOPIC, userTopic(copy.uid)];
    await Promise.all(topics.map((topic) => this.fanout.publish(topic, copy)));
    await this.push?.send({ memberIds: [copy.uid], staff: false }, copy);
  }

  /** Publishes one event on whole topics (such as STAFF_TOPIC and MEN_TOPIC: every socket that hears them). */
  async toTopics<K extends RealtimeEventName>(
    topics: string[],
    event: K,
    payload: RealtimeEventMap[K],
  ): Promise<void> {
    const copy = { event, ...payload } as RealtimeEvent;
    await Promise.all(topics.map((topic) => this.fanout.publish(topic, copy)));
  }

  /**
   * A socket hears what is published on `topics` (services/listeners.ts says which a person's sockets hear);
   * returns unsubscribe.
   */
  subscribe(topics: string[], onEvent: (event: RealtimeEvent) => void): () => void {
    const handler = (payload: unknown) => onEvent(payload as RealtimeEvent);
    const unsubscribes = topics.flatMap((topic) => [
      this.fanout.subscribe(topic, handler),
      this.messageSockets.add(topic, handler),
    ]);
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
  }
}
