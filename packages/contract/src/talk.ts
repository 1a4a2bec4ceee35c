import { z } from 'zod';
import { ja } from './ja.js';
import { id, numberOrDigits, ssid } from './common.js';
import { DESK_STATUSES } from './wire.js';

/*
 * Conversations and messages over HTTP (product.md §12). A member's one conversation with the staff
 * desk is type `staff` to the member and `men`/`women` to staff; `st` is a group talk (a man, a woman and
 * staff); staff rooms are type `staff` to staff; `sendmen`/`sendwomen` hold the bulk-send history.
 */
export const CONVERSATION_TYPES = ['staff', 'st', 'men', 'women', 'sendmen', 'sendwomen'] as const;
export const ConversationType = z.enum(CONVERSATION_TYPES, { error: ja.errors.badRequest });
export type ConversationType = z.infer<typeof ConversationType>;

export const PAGE_SIZE = 20;
export const MESSAGES_PAGE_SIZE = 50;

/*
 * A desk talk's status and 担当 (product.md §2.6), here beside the room list that carries them; the calls
 * that change them are in desk-talk.ts.
 */
export const DeskStatus = z.enum(DESK_STATUSES, { error: ja.errors.badRequest });
export type DeskStatus = z.infer<typeof DeskStatus>;

/** A 担当 as the desk shows it. */
export const DeskAssignee = z.object({ uid: z.number(), name: z.string() });
export type DeskAssignee = z.infer<typeof DeskAssignee>;

/** A desk talk's state as every staff screen sees it (the reply of both calls, and the `desk` frame's). */
export const DeskTalkState = z.object({
  conversation_id: z.number(),
  /** The member (101 or 201) of the talk. */
  uid: z.number(),
  status: DeskStatus,
  assignee: DeskAssignee.nullable(),
});
export type DeskTalkState = z.infer<typeof DeskTalkState>;

/** `/api/conversations`' filters of the men's and women's lists (staff only; members' lists ignore them). */
export const DeskListFilter = {
  desk_status: DeskStatus.optional(),
  /** "me": the caller's; "none": without a 担当; a staff member's uid. */
  assignee: z.union([z.enum(['me', 'none'], { error: ja.errors.badRequest }), id]).optional(),
  unread_only: z.boolean({ error: ja.errors.badRequest }).optional(),
};

// POST /api/conversations {ssid, type, search, page} -> {rows, isEnd}
export const ConversationsBody = z
  .object({
    ssid,
    // The original client also sends its own uid as `id`; the session decides who is asking.
    id: z.unknown().optional(),
    type: ConversationType,
    search: z.string({ error: ja.errors.badRequest }).max(50, ja.errors.tooLong).default(''),
    page: numberOrDigits.pipe(z.number().int().min(0).max(100_000)).default(0),
    // Staff's men's and women's lists: by status, 担当 and unread (product.md §2.6); optional.
    ...DeskListFilter,
  })
  .strict();
export type ConversationsBody = z.input<typeof ConversationsBody>;

export const ConversationRow = z.object({
  id: z.number(),
  conversation_id: z.number(),
  type: ConversationType,
  name: z.string(),
  /** The member of a desk conversation (its other side, for staff), or null. */
  uid: z.number().nullable(),
  username: z.string(),
  role: z.number().nullable(),
  rank: z.number().nullable(),
  user_image: z.string().nullable(),
  /** JSON text `{"content": "..."}`; `content` is 画像 when the last message was only images. */
  last_content: z.string(),
  /** ISO 8601 time of the last message, or null when there is none yet. */
  last_date: z.string().nullable(),
  unread: z.number(),
  /** Staff only, a desk talk's: its status and 担当 (product.md §2.6); absent for members. */
  desk_status: DeskStatus.optional(),
  assignee: DeskAssignee.nullable().optional(),
});
export type ConversationRow = z.infer<typeof ConversationRow>;
export const ConversationsReply = z.object({ rows: z.array(ConversationRow), isEnd: z.boolean() });
export type ConversationsReply = z.infer<typeof ConversationsReply>;

// POST /api/get_conversation {ssid, user_id, conversation_id} -> {rows: [ConversationRow]} or 404
export const GetConversationBody = z
  .object({ ssid, user_id: z.unknown().optional(), conversation_id: id })
  .strict();
export type GetConversationBody = z.input<typeof GetConversationBody>;
export const GetConversationReply = z.object({ rows: z.array(ConversationRow) });

export const ReplyRef = z.object({
  id: z.number(),
  message: z.string(),
  own: z.boolean(),
  name: z.string(),
  role: z.number(),
  image: z.array(z.string()),
  /** *(here)* A quoted stamp (product.md §12.8): `image` holds its picture, this its words. */
  stamp: z.object({ id: z.number(), label: z.string() }).optional(),
});
export type ReplyRef = z.infer<typeof ReplyRef>;

/** One message as every reader sees it (HTTP rows and the socket's `message` frame share it). */
export const Message = z.object({
  id: z.number(),
  client_id: z.string().nullable(),
  from: z.number(),
  name: z.string(),
  role: z.number(),
  conversation_id: z.number(),
  conversation_type: ConversationType,
  message: z.string(),
  /** Signed image URLs (`/media/<id>?e=&s=`), valid for about an hour; reload the messages for fresh ones. */
  image: z.array(z.string()),
  reply: ReplyRef.nullable(),
  announce: z.boolean(),
  /** 0 a message; 1 a call record. */
  message_type: z.number(),
  /** When the server stored it, ISO 8601 (UTC, e.g. `2026-11-23T03:04:05.000Z`). */
  date: z.string(),
  own: z.boolean(),
  user_image: z.string().nullable(),
  /** For the sender in a one-to-one talk: the other side has read it (既読). */
  read: z.boolean(),
  /** *(here)* In a group talk: how many of the other sides (man, woman, staff) have read it (既読 N). */
  read_count: z.number().int().nonnegative().optional(),
  /**
   * *(here)* A stamp (product.md §12.8): `image` holds its one picture and `message` is empty, so a client
   * that knows no stamps shows it as a picture; this app draws it large, without a bubble.
   */
  stamp: z.object({ id: z.number(), label: z.string() }).optional(),
  /**
   * *(here)* Taken back by its sender (送信取消, product.md §15.4): `message` is then
   * 「メッセージの送信を取り消しました」 and `image` empty, so a client that does not know the field shows it right.
   */
  unsent: z.boolean().optional(),
});
export type Message = z.infer<typeof Message>;

// POST /api/messages {ssid, id, before?} -> {rows: [{date, messages}], isEnd}: newest page, or older than `before`.
export const MessagesBody = z.object({ ssid, id, before: id.optional() }).strict();
export type MessagesBody = z.input<typeof MessagesBody>;
export const MessageGroup = z.object({
  /** `YYYY-MM-DD` in Japan time, or `announce` for the pinned announcements (first, when present). */
  date: z.string(),
  messages: z.array(Message),
});
export type MessageGroup = z.infer<typeof MessageGroup>;
export const MessagesReply = z.object({ rows: z.array(MessageGroup), isEnd: z.boolean() });
export type MessagesReply = z.infer<typeof MessagesReply>;

/** The notification counters of product.md §3; the app icon badge is their sum. */
const count = z.number().int().nonnegative();
export const Notifications = z.object({
  news: count,
  fromStaff: count,
  setting: count,
  fromWomen: count,
  fromMen: count,
});
export type Notifications = z.infer<typeof Notifications>;

// POST /api/updateNotifications -> {rows: [Notifications]}: the caller's current counters. They are derived
// from per-conversation read state (the socket's `open` frame marks a talk read), so the counters a client
// sends are accepted for compatibility and otherwise ignored.
const counter = numberOrDigits.pipe(z.number().int().min(0)).optional();
export const UpdateNotificationsBody = z
  .object({
    ssid,
    uid: z.unknown().optional(),
    news: counter,
    fromStaff: counter,
    setting: counter,
    fromWomen: counter,
    fromMen: counter,
  })
  .strict();
export type UpdateNotificationsBody = z.input<typeof UpdateNotificationsBody>;
export const UpdateNotificationsReply = z.object({ rows: z.array(Notifications) });
