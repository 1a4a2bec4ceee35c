import { z } from 'zod';
import { GroupReadMarks } from './read-marks.js';
import { ja } from './ja.js';
import { id } from './common.js';
import { CALL_SERVER_FRAMES, CallClientFrame } from './call-frames.js';
import { ConversationType, DeskTalkState, Message, Notifications } from './talk.js';
import { MESSAGE_IMAGES_MAX, MESSAGE_MAX, type SERVER_FRAME_TYPES } from './wire.js';

/* The chat socket `GET /ws/chat` (product.md §15): JSON text frames, one schema per frame. */

/** A user may have this many chat sockets open at once; one more is closed with 4429. */
export const SOCKET_MAX_PER_USER = 10;
/** The first frame (the session frame) may be at most this big; a bigger one closes the socket with 1009. */
export const SOCKET_FIRST_FRAME_MAX = 4096;
/** The first frame must arrive within this, or the server closes with 4401. */
export const SOCKET_AUTH_MS = 5000;
/**
 * The largest frame the server accepts: five images at the data-URL limit plus the text. A bigger frame
 * closes the socket with 1009 (message too big).
 */
export const SOCKET_MAX_PAYLOAD = 36 * 1024 * 1024;

const nullableId = z.union([id, z.null()]).optional();
/** The longest image data URL, in characters (an image of about 5 MB). */
export const IMAGE_DATA_URL_MAX = 7_000_000;
export const IMAGE_DATA_URL_PATTERN = /^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/;
/** A data URL of a JPEG, PNG or WebP image; the server checks the bytes themselves. */
export const ImageDataUrl = z
  .string({ error: ja.errors.badRequest })
  .max(IMAGE_DATA_URL_MAX, ja.errors.imageTooLarge)
  .regex(IMAGE_DATA_URL_PATTERN, ja.errors.badImage);

export const SessionFrame = z
  .object({
    type: z.literal('session'),
    session: z.string().min(1).max(200),
    endpoint: z.string().max(2000).nullable().optional(),
    conversation_id: nullableId,
    conversation_type: ConversationType.nullable().optional(),
    last_id: z.union([id, z.literal(0), z.null()]).optional(),
  })
  .strict();
export type SessionFrame = z.input<typeof SessionFrame>;

export const TextFrame = z
  .object({
    type: z.literal('text'),
    conversation_id: id,
    // Informational: the server knows the conversation's type.
    conversation_type: ConversationType.nullable().optional(),
    message: z.string({ error: ja.errors.badRequest }).max(MESSAGE_MAX, ja.errors.tooLong).default(''),
    image: z.array(ImageDataUrl).max(MESSAGE_IMAGES_MAX, ja.errors.tooManyImages).default([]),
    reply: nullableId,
    announce: z.boolean().default(false),
    client_id: z.uuid({ error: ja.errors.badRequest }),
    /** *(here)* A stamp (product.md §12.8): sent alone, without text or pictures. */
    stamp_id: id.optional(),
  })
  .strict()
  .refine((frame) => frame.message.trim().length > 0 || frame.image.length > 0 || frame.stamp_id, {
    message: ja.talk.emptyComment,
    path: ['message'],
  })
  .refine((frame) => !frame.stamp_id || (frame.message === '' && frame.image.length === 0), {
    message: ja.errors.badRequest,
    path: ['stamp_id'],
  });
export type TextFrame = z.input<typeof TextFrame>;

export const DeleteFrame = z.union([
  z.object({ type: z.literal('delete'), delete_message_id: id }).strict(),
  z.object({ type: z.literal('delete'), delete_announce_id: id }).strict(),
]);
export type DeleteFrame = z.input<typeof DeleteFrame>;

/**
 * Pins a message that is already in the talk as an announcement (product.md §15.4): the message itself, not
 * a copy. Everyone in the talk gets the message again as a `message` frame with `announce: true`.
 */
export const PinFrame = z.object({ type: z.literal('pin'), message_id: id }).strict();
export type PinFrame = z.input<typeof PinFrame>;

/**
 * Takes back one's own message within 24 hours (送信取消, product.md §15.4). Everyone in the talk gets the
 * message again as a `message` frame with the same id, `message` 「メッセージの送信を取り消しました」, no
 * images and `unsent: true`; sending it again for a message already taken back changes nothing.
 */
export const UnsendFrame = z.object({ type: z.literal('unsend'), message_id: id }).strict();
export type UnsendFrame = z.input<typeof UnsendFrame>;

/** The talk now on screen (marks it read, and keeps it read while it stays open); null: no talk open. */
export const OpenFrame = z
  .object({
    type: z.literal('open'),
    conversation_id: nullableId,
    conversation_type: ConversationType.nullable().optional(),
  })
  .strict();
export type OpenFrame = z.input<typeof OpenFrame>;

/**
 * Whether the app is on screen (document visibility). While any socket of a person says visible, they get no
 * push; a socket counts as hidden until it says otherwise.
 */
export const VisibilityFrame = z.object({ type: z.literal('visibility'), visible: z.boolean() }).strict();
export type VisibilityFrame = z.input<typeof VisibilityFrame>;

/** Every frame a client may send after the session frame. */
export const ClientFrame = z.union([
  TextFrame,
  DeleteFrame,
  PinFrame,
  UnsendFrame,
  OpenFrame,
  VisibilityFrame,
  ...CallClientFrame.options,
]);
export type ClientFrame = z.input<typeof ClientFrame>;

export const MessageEvent = Message.extend({ type: z.literal('message') });
export type MessageEvent = z.infer<typeof MessageEvent>;
export const DeleteEvent = z.object({
  type: z.literal('delete'),
  conversation_id: z.number(),
  delete_message_id: z.number().optional(),
  delete_announce_id: z.number().optional(),
});
export type DeleteEvent = z.infer<typeof DeleteEvent>;
export const ErrorEvent = z.object({
  type: z.literal('error'),
  error: z.string(),
  client_id: z.string().optional(),
  /**
   * The server could not do it for now (its database did not answer) and did nothing: the same frame may
   * be sent again, and the web's outbox does so by itself (product.md §15.3, decision 020).
   */
  retry: z.literal(true).optional(),
});
export type ErrorEvent = z.infer<typeof ErrorEvent>;
/** Extensions to the frames of product.md §15 (clients that do not know them ignore them): */
/** the other side read up to `last_read_id` (for 既読); in a group talk also each side's mark (既読 N). */
export const ReadEvent = z.object({
  type: z.literal('read'),
  conversation_id: z.number(),
  reader: z.number(),
  last_read_id: z.number(),
  marks: GroupReadMarks.optional(),
});
export type ReadEvent = z.infer<typeof ReadEvent>;
/** the caller's badge counters changed. */
export const NotificationsEvent = Notifications.extend({ type: z.literal('notifications') });
export type NotificationsEvent = z.infer<typeof NotificationsEvent>;
/** catch-up after `last_id` is complete; what follows is live. */
export const ReadyEvent = z.object({ type: z.literal('ready'), last_id: z.number() });
export type ReadyEvent = z.infer<typeof ReadyEvent>;

/** the client is too far behind for a catch-up: it reloads the open talk and its lists over HTTP. */
export const ReloadEvent = z.object({ type: z.literal('reload') });
export type ReloadEvent = z.infer<typeof ReloadEvent>;

/** staff only: a setting request was made or decided (product.md §2.8): boards and badges refresh. */
export const SettingEvent = z.object({
  type: z.literal('setting'),
  id: z.number(),
  status: z.enum(['requested', 'arranged', 'declined', 'cancelled']),
  man: z.string(),
  woman: z.string(),
});
export type SettingEvent = z.infer<typeof SettingEvent>;

/**
 * staff only: a desk talk's status or 担当 changed (product.md §2.6), by staff or by its member's new message:
 * lists, counts and the open talk's controls refresh.
 */
export const DeskEvent = DeskTalkState.extend({ type: z.literal('desk') });
export type DeskEvent = z.infer<typeof DeskEvent>;

export const ServerFrame = z.discriminatedUnion('type', [
  MessageEvent,
  DeleteEvent,
  ErrorEvent,
  ReadEvent,
  NotificationsEvent,
  ReadyEvent,
  ReloadEvent,
  SettingEvent,
  DeskEvent,
  ...CALL_SERVER_FRAMES,
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

// Every type of ServerFrame is in the list (the `satisfies` above checks the other way round).
true satisfies ServerFrame['type'] extends (typeof SERVER_FRAME_TYPES)[number] ? true : never;
