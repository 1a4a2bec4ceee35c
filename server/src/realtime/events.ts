import type { MessageFact } from '../presenters/message-presenter.js';
import type { Fanout } from './fanout.js';

/*
 * Every event that travels through the fan-out, declared once (domain.verb). Payloads are plain JSON, so a
 * Redis fan-out can carry them unchanged. The chat socket turns them into frames for its own user.
 */
export interface RealtimeEventMap {
  /** A message was committed; each socket presents it for its own user (`own`, type, reply). */
  'message.created': { message: MessageFact };
  'message.deleted': { conversationId: number; messageId: number };
  'announcement.removed': { conversationId: number; messageId: number };
  /** `reader` has read `conversationId` up to `lastReadId` (既読 for the other side). */
  'conversation.read': { conversationId: number; reader: number; lastReadId: number };
  /** The user's badge counters may have changed: each of their sockets recomputes them. */
  'notifications.changed': Record<string, never>;
  /** The user's record changed (name, rank, role, picture): their sockets read the session again. */
  'user.changed': Record<string, never>;
  /** A session ended (logout) or, with null, every session of the user (account deleted). */
  'session.ended': { sessionId: string | null };
}

export type RealtimeEventName = keyof RealtimeEventMap;
export type RealtimeEvent = {
  [K in RealtimeEventName]: { event: K } & RealtimeEventMap[K];
}[RealtimeEventName];

/** The people a conversation reaches: its member side by id, and staff as a whole. */
export interface Audience {
  memberIds: number[];
  staff: boolean;
}

export const userTopic = (uid: number) => `user-${uid}`;
/** Every staff socket listens here: staff belong to every conversation. */
export const STAFF_TOPIC = 'staff';

/** Typed publishing over the Fanout. Services call it only after their transaction has committed. */
export class Realtime {
  constructor(readonly fanout: Fanout) {}

  async toUser<K extends RealtimeEventName>(
    uid: number,
    event: K,
    payload: RealtimeEventMap[K],
  ): Promise<void> {
    await this.fanout.publish(userTopic(uid), { event, ...payload });
  }

  async toAudience<K extends RealtimeEventName>(
    audience: Audience,
    event: K,
    payload: RealtimeEventMap[K],
  ): Promise<void> {
    const message = { event, ...payload };
    const topics = audience.memberIds.map(userTopic);
    if (audience.staff) topics.push(STAFF_TOPIC);
    await Promise.all(topics.map((topic) => this.fanout.publish(topic, message)));
  }

  /** Topics a user's socket subscribes to. */
  static topicsFor(uid: number, isStaff: boolean): string[] {
    return isStaff ? [userTopic(uid), STAFF_TOPIC] : [userTopic(uid)];
  }
}
