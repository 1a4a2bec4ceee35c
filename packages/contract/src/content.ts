import * as jaMember from './ja-member.js';
import { z } from 'zod';
import { ja } from './ja.js';
import { id, numberOrDigits, ssid, uid } from './common.js';
import { ImageDataUrl } from './socket.js';
import { CONTENT_TYPE, MESSAGE_IMAGES_MAX, MESSAGE_MAX } from './wire.js';
import { news } from './ja-member/news.js';

/*
 * Member content (product.md §13): news and ad banners for one group each, and bulk sends (一括送信) to
 * men or to women. Type 1 is the men's group (role 101), type 2 the women's (role 201), for news, banners
 * and broadcasts alike.
 */

/** 1 or 2 (CONTENT_TYPE), as a reply carries it. */
const contentType = (params?: { error: string }) =>
  z.union([z.literal(CONTENT_TYPE.men), z.literal(CONTENT_TYPE.women)], params);
/** 1 or 2, sent as a number or a string of digits. */
export const ContentTypeField = numberOrDigits.pipe(contentType({ error: ja.errors.badRequest }));

export const NEWS_TITLE_MAX = 100;
export const NEWS_BODY_MAX = 10_000;
/** Images on one news item. */
export const NEWS_IMAGES_MAX = 5;
export const BANNER_URL_MAX = 2000;
/** Recipients of one bulk send: every member of a group, with room to grow. */
export const BROADCAST_RECIPIENTS_MAX = 20_000;

/**
 * Body limits of the calls that carry images (the default is 64 KB). A data URL of a 5,000,000-byte image
 * is about 6.7 MB; a bigger body is 413.
 */
export const BODY_LIMITS = {
  news: 40 * 1024 * 1024,
  banner: 8 * 1024 * 1024,
  broadcast: 40 * 1024 * 1024,
} as const;

/** News images (product.md §5): JPEG or PNG. The server checks the bytes themselves. */
export const NewsImageDataUrl = z
  .string({ error: ja.errors.badRequest })
  .max(7_000_000, ja.errors.imageTooLarge)
  .regex(/^data:image\/(jpeg|png);base64,[A-Za-z0-9+/=]+$/, news.badImage);

/** A banner image (product.md §5): JPEG, PNG or WebP. */
export const BannerImageDataUrl = z
  .string({ error: jaMember.banners.imageRequired })
  .min(1, jaMember.banners.imageRequired)
  .max(7_000_000, ja.errors.imageTooLarge)
  .regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/, jaMember.banners.badImage);

/** A content image already stored: its URL as `news/get` gave it (`/media/content/<id>?...`), or its id. */
export const StoredImageRef = z
  .string()
  .max(500)
  .regex(/^(\/media\/content\/)?[A-Za-z0-9_-]{22}(\?[A-Za-z0-9=&_-]*)?$/, ja.errors.badRequest);

/** The media id in a stored image reference. */
export function storedImageId(ref: string): string {
  const match = /^(?:\/media\/content\/)?([A-Za-z0-9_-]{22})/.exec(ref);
  return match?.[1] ?? '';
}

const newsTitle = z
  .string({ error: news.titleRequired })
  .trim()
  .min(1, news.titleRequired)
  .max(NEWS_TITLE_MAX, ja.errors.tooLong);
const newsBody = z
  .string({ error: news.bodyRequired })
  .trim()
  .min(1, news.bodyRequired)
  .max(NEWS_BODY_MAX, ja.errors.tooLong);

// POST /api/news/add {ssid, title, body, type, images: [dataURL...]} -> {status: 'OK', id}
export const NewsAddBody = z
  .object({
    ssid,
    title: newsTitle,
    body: newsBody,
    type: ContentTypeField,
    images: z.array(NewsImageDataUrl).max(NEWS_IMAGES_MAX, news.tooManyImages).default([]),
  })
  .strict();
export type NewsAddBody = z.input<typeof NewsAddBody>;

// POST /api/news/update: `images` is the whole new list in order; a stored image that is not listed is
// deleted, a data URL is a new image.
export const NewsUpdateBody = z
  .object({
    ssid,
    id,
    title: newsTitle,
    body: newsBody,
    type: ContentTypeField,
    images: z
      .array(z.union([NewsImageDataUrl, StoredImageRef], { error: news.badImage }))
      .max(NEWS_IMAGES_MAX, news.tooManyImages)
      .default([]),
  })
  .strict();
export type NewsUpdateBody = z.input<typeof NewsUpdateBody>;

export const SavedReply = z.object({ status: z.literal('OK'), id: z.number() });
export type SavedReply = z.infer<typeof SavedReply>;
export const OkReply = z.object({ status: z.literal('OK') });
export type OkReply = z.infer<typeof OkReply>;

// POST /api/news/delete {ssid, id} -> {status: 'OK'}
export const NewsDeleteBody = z.object({ ssid, id }).strict();
export type NewsDeleteBody = z.input<typeof NewsDeleteBody>;

// POST /api/news/get {ssid, type, id?} -> {rows}, newest first. Members get their group's news whatever
// `type` says; staff get the type asked for, or all without one.
export const NewsGetBody = z.object({ ssid, type: ContentTypeField.optional(), id: id.optional() }).strict();
export type NewsGetBody = z.input<typeof NewsGetBody>;
export const NewsRow = z.object({
  id: z.number(),
  title: z.string(),
  body: z.string(),
  /** Signed image URLs, valid for about an hour. */
  image: z.array(z.string()),
  /** ISO 8601. */
  created_at: z.string(),
  type: contentType(),
});
export type NewsRow = z.infer<typeof NewsRow>;
export const NewsGetReply = z.object({ rows: z.array(NewsRow) });
export type NewsGetReply = z.infer<typeof NewsGetReply>;

/**
 * A link target: http or https only, so a banner can never run script (javascript:) or open a data: page;
 * and without a user name or password (`https://user:pass@host/`), which would show one to every member.
 */
export const BannerUrl = z
  .string({ error: jaMember.banners.urlRequired })
  .trim()
  .min(1, jaMember.banners.urlRequired)
  .max(BANNER_URL_MAX, ja.errors.tooLong)
  .pipe(z.url({ protocol: /^https?$/, hostname: /^[^\s]+$/, error: jaMember.banners.badUrl }))
  // A user name or password is what comes before `@` in the authority (up to the first / ? # or \).
  .refine((url) => !/^[a-z][a-z0-9+.-]*:[/\\]{2}[^/?#\\]*@/i.test(url), jaMember.banners.urlWithCredentials);

// POST /api/banner/add {ssid, url, type, image} -> {status: 'OK', id}
export const BannerAddBody = z
  .object({ ssid, url: BannerUrl, type: ContentTypeField, image: BannerImageDataUrl })
  .strict();
export type BannerAddBody = z.input<typeof BannerAddBody>;

// POST /api/banner/delete {ssid, id} -> {status: 'OK'}
export const BannerDeleteBody = z.object({ ssid, id }).strict();
export type BannerDeleteBody = z.input<typeof BannerDeleteBody>;

// POST /api/banner/get {ssid, type, id?} -> {rows}, oldest first (the order staff placed them).
export const BannerGetBody = z
  .object({ ssid, type: ContentTypeField.optional(), id: id.optional() })
  .strict();
export type BannerGetBody = z.input<typeof BannerGetBody>;
export const BannerRow = z.object({
  id: z.number(),
  url: z.string(),
  /** A signed image URL, valid for about an hour. */
  image: z.string(),
  type: contentType(),
});
export type BannerRow = z.infer<typeof BannerRow>;
export const BannerGetReply = z.object({ rows: z.array(BannerRow) });
export type BannerGetReply = z.infer<typeof BannerGetReply>;

/** How far ahead a bulk send may be scheduled, and how late a time may be that was picked a moment ago. */
export const SCHEDULE_MAX_DAYS = 90;
export const SCHEDULE_GRACE_MS = 5 * 60 * 1000;
/** ISO 8601 with a date, a time and an offset (Z or ±hh:mm): a time that means one instant wherever read. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** A bulk send's time (product.md §4.6); whether it is past or too far ahead the server checks by its clock. */
export const SendAt = z
  .string({ error: jaMember.broadcast.sendAtMalformed })
  .regex(ISO_WITH_OFFSET, jaMember.broadcast.sendAtMalformed)
  .refine((value) => !Number.isNaN(Date.parse(value)), jaMember.broadcast.sendAtMalformed);

// POST /api/messages/send {ssid, users, message, image, send_at?} -> {status: 'OK', count} (staff only).
// Every uid must be a member of one group (all men or all women; `type` may name it). The original client
// also sends a conversation `id`; it is ignored. With `send_at` the send is stored and goes out then.
export const BroadcastSendBody = z
  .object({
    ssid,
    id: z.unknown().optional(),
    type: ContentTypeField.optional(),
    users: z
      .array(uid, { error: jaMember.broadcast.noRecipients })
      .min(1, jaMember.broadcast.noRecipients)
      .max(BROADCAST_RECIPIENTS_MAX, jaMember.broadcast.tooManyRecipients),
    message: z.string({ error: ja.errors.badRequest }).max(MESSAGE_MAX, ja.errors.tooLong).default(''),
    image: z.array(ImageDataUrl).max(MESSAGE_IMAGES_MAX, ja.errors.tooManyImages).default([]),
    send_at: SendAt.optional(),
  })
  .strict()
  .refine((body) => body.message.trim().length > 0 || body.image.length > 0, {
    message: ja.talk.emptyComment,
    path: ['message'],
  });
export type BroadcastSendBody = z.input<typeof BroadcastSendBody>;
export const BroadcastSendReply = z.object({ status: z.literal('OK'), count: z.number() });
export type BroadcastSendReply = z.infer<typeof BroadcastSendReply>;

// POST /api/broadcasts {ssid, type, page} -> {rows, isEnd}: the group's bulk sends, newest first, with
// how many recipients have read each (staff only).
export const BroadcastsBody = z
  .object({
    ssid,
    type: ContentTypeField,
    page: numberOrDigits.pipe(z.number().int().min(0).max(100_000)).default(0),
  })
  .strict();
export type BroadcastsBody = z.input<typeof BroadcastsBody>;
export const BroadcastRow = z.object({
  id: z.number(),
  type: contentType(),
  message: z.string(),
  image: z.array(z.string()),
  /** The staff member who sent it (退会したユーザー once their account is gone). */
  name: z.string(),
  date: z.string(),
  /** Recipients, and how many of them have opened their talk since. */
  count: z.number(),
  read: z.number(),
  /** Copies still stored in the recipients' talks, and how many recipients a push was sent to. */
  delivered: z.number(),
  pushed: z.number(),
});
export type BroadcastRow = z.infer<typeof BroadcastRow>;
export const BroadcastsReply = z.object({ rows: z.array(BroadcastRow), isEnd: z.boolean() });
export type BroadcastsReply = z.infer<typeof BroadcastsReply>;
export const BROADCASTS_PAGE_SIZE = 20;

// POST /api/broadcasts/recipients {ssid, type} -> {rows}: every member of the group, by name (staff only),
// for the recipient picker. The rank filter of product.md §9 works on `rank` in the client.
export const RecipientsBody = z.object({ ssid, type: ContentTypeField }).strict();
export type RecipientsBody = z.input<typeof RecipientsBody>;
export const RecipientRow = z.object({ uid: z.number(), name: z.string(), rank: z.number() });
export type RecipientRow = z.infer<typeof RecipientRow>;
export const RecipientsReply = z.object({ rows: z.array(RecipientRow) });
export type RecipientsReply = z.infer<typeof RecipientsReply>;

/** Bulk-send rank filter (product.md §9): 0 all, then 1, 2, 3, 4 and 6; 5 (client) has no filter of its own. */
export const BROADCAST_RANK_FILTER = [0, 1, 2, 3, 4, 6] as const;
