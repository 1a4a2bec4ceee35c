import * as jaMember from './ja-member.js';
import { z } from 'zod';
import { ja } from './ja.js';
import { id, ssid, uid } from './common.js';
import { ConversationType } from './talk.js';
import { MESSAGE_MAX } from './wire.js';

/*
 * The staff desk (product.md §2.6, §11.6): message search, saved replies (定型文) and staff notes on a
 * member. Notes are staff-only: no member call or socket frame ever carries them.
 */

/** A search word: at least one character once trimmed; 1-2 characters are searched too (product.md §11.6). */
export const SEARCH_QUERY_MAX = 50;
export const SEARCH_PAGE_SIZE = 20;

// POST /api/messages/search {ssid, q, conversation_id?, before?} -> {rows, isEnd}
export const MessageSearchBody = z
  .object({
    ssid,
    q: z
      .string({ error: ja.errors.badRequest })
      .trim()
      .min(1, jaMember.messageSearch.queryEmpty)
      .max(SEARCH_QUERY_MAX, ja.errors.tooLong),
    // One talk, or (absent) every talk the caller sees.
    conversation_id: id.optional(),
    // Paging: hits with a smaller message id than this (the last row's id).
    before: id.optional(),
  })
  .strict();
export type MessageSearchBody = z.input<typeof MessageSearchBody>;

export const SearchHit = z.object({
  id: z.number(),
  conversation_id: z.number(),
  conversation_type: ConversationType,
  conversation_name: z.string(),
  from: z.number(),
  name: z.string(),
  role: z.number(),
  message: z.string(),
  date: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;
/** `next`: the `before` of the next page (null at the end, with `isEnd`). */
export const MessageSearchReply = z.object({
  rows: z.array(SearchHit),
  isEnd: z.boolean(),
  next: z.number().nullable(),
});
export type MessageSearchReply = z.infer<typeof MessageSearchReply>;

/** Text someone wrote: not only spaces, at most `max` characters. */
const writtenText = (max: number) =>
  z
    .string({ error: ja.errors.badRequest })
    .max(max, ja.errors.tooLong)
    .refine((text) => text.trim().length > 0, ja.talk.emptyComment);

export const CANNED_REPLIES_MAX = 200;
export const CANNED_NAME_MAX = 20;

/** The shortcut typed after `/`: no spaces and no slash, so `/name` ends where the word ends. */
export const cannedName = z
  .string({ error: ja.errors.badRequest })
  .trim()
  .min(1, jaMember.cannedReplies.replyNameBad)
  .max(CANNED_NAME_MAX, jaMember.cannedReplies.replyNameBad)
  .regex(/^[^\s/]+$/u, jaMember.cannedReplies.replyNameBad);

export const CannedReply = z.object({
  id: z.number(),
  name: z.string(),
  body: z.string(),
  updated_by: z.string(),
  updated_at: z.string(),
});
export type CannedReply = z.infer<typeof CannedReply>;
export const CannedRepliesReply = z.object({ rows: z.array(CannedReply) });
export type CannedRepliesReply = z.infer<typeof CannedRepliesReply>;

export const CannedListBody = z.object({ ssid }).strict();
// POST /api/replies/save {ssid, id?, name, body}: a new one without `id`, else that one changed.
export const CannedSaveBody = z
  .object({
    ssid,
    id: id.optional(),
    name: cannedName,
    body: writtenText(MESSAGE_MAX),
  })
  .strict();
export type CannedSaveBody = z.input<typeof CannedSaveBody>;
export const CannedDeleteBody = z.object({ ssid, id }).strict();

/** Staff notes on a member. */
export const NOTE_MAX = 2000;

export const MemberSummary = z.object({
  uid: z.number(),
  id: z.string(),
  name: z.string(),
  role: z.number(),
  rank: z.number(),
  image: z.string().nullable(),
  introducer: z.string(),
  created_at: z.string(),
});
export type MemberSummary = z.infer<typeof MemberSummary>;

export const MemberNote = z.object({
  id: z.number(),
  body: z.string(),
  author: z.string(),
  author_uid: z.number().nullable(),
  created_at: z.string(),
});
export type MemberNote = z.infer<typeof MemberNote>;
export const NotesReply = z.object({ member: MemberSummary, rows: z.array(MemberNote) });
export type NotesReply = z.infer<typeof NotesReply>;

export const NotesBody = z.object({ ssid, uid }).strict();
export const NoteAddBody = z
  .object({
    ssid,
    uid,
    body: writtenText(NOTE_MAX),
  })
  .strict();
export type NoteAddBody = z.input<typeof NoteAddBody>;
export const NoteDeleteBody = z.object({ ssid, id }).strict();
