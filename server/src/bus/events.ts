import type { CallServerFrame, DeskTalkState, SettingStatus } from '@enishi/contract';
import type { MessageFact } from '../presenters/message-fact.js';
import type { GroupReadMarks } from '@enishi/contract';

/*
 * Every event that travels through the fan-out, declared once (domain.verb). Payloads are plain JSON, so a
 * Redis fan-out can carry them unchanged. They go out through `Delivery` (delivery.ts); the chat socket turns
 * them into frames for its own user.
 */
export interface RealtimeEventMap {
  /**
   * A message was committed; each socket presents it for its own user (`own`, type, reply). `broadcast`: a
   * bulk send's copy in a member's desk talk (pushed under the member's 一括送信 switch, not the desk's).
   */
  /** `committedAt` (ms): when its batch committed, for the delivery-latency metric; never sent to clients. */
  'message.created': { message: MessageFact; broadcast?: boolean; committedAt?: number };
  'message.deleted': { conversationId: number; messageId: number };
  /**
   * 送信取消 (product.md §15.4): the message, already reading 「メッセージの送信を取り消しました」 with no
   * pictures, is sent again under its id; badges are counted again, and who got its push gets a quiet one.
   */
  'message.unsent': { message: MessageFact };
  /** A stored message was pinned (product.md §15.4): sent again, with `announce`, raising no badge. */
  'announcement.added': { message: MessageFact };
  'announcement.removed': { conversationId: number; messageId: number };
  /** `reader` has read `conversationId` up to `lastReadId` (既読 for the other side). */
  'conversation.read': { conversationId: number; reader: number; lastReadId: number; marks?: GroupReadMarks };
  /** News for the group was published: badges change, and who is away gets a push (product.md §16). */
  'news.published': { title: string };
  /** The user's badge counters may have changed: each of their sockets recomputes them. */
  'notifications.changed': Record<string, never>;
  /**
   * The user's record changed (name, rank, role, picture): their sockets read the session again. `uid` (whose
   * record) is added by Delivery.toUser for the session caches, as on session.ended.
   */
  'user.changed': { uid?: number };
  /**
   * A session ended (logout) or, with null, every session of the user (account deleted, new password)
   * except `keepSessionId` (the session that changed its own password stays).
   */
  'session.ended': { sessionId: string | null; keepSessionId?: string; uid?: number };
  /**
   * A voice-call frame for the user (product.md §17): to the one socket `toSocket` when given (the socket
   * that placed or took the call), else to every socket of theirs except `exceptSocket`.
   */
  'call.signal': { frame: CallServerFrame; toSocket?: string; exceptSocket?: string };
  /**
   * A setting request was made or decided (product.md §18): every staff socket on every instance refreshes
   * its board and badge, and a new one shows a toast (product.md §2.8).
   */
  'setting.changed': { id: number; status: SettingStatus; man: string; woman: string };
  /**
   * A desk talk's status or 担当 changed (product.md §2.6): to staff only, on every instance; lists, counts
   * and the open talk's controls refresh.
   */
  'desk.changed': { state: DeskTalkState };
  /** A staff member's first socket opened or last one closed (to staff and male members). */
  'presence.changed': { uid: number; isOnline: boolean };
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
