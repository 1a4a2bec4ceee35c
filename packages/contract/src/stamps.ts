import { z } from 'zod';
import { ja } from './ja.js';
import { id, ssid } from './common.js';
import { stampAdmin as jaStamps } from './ja-member/stamp-admin.js';
import { OkReply } from './content.js';

/*
 * スタンプ (product.md §12.8): sets of pictures a member or staff sends alone in a talk. A stamp travels as
 * a `message` whose `image` is its picture (so any client of the wire contract shows it) and whose `stamp`
 * names it; it is sent as a `text` frame with `stamp_id`.
 */

export const STAMP_SET_NAME_MAX = 40;
export const STAMP_LABEL_MAX = 20;
/** Stamps in one set. */
export const STAMPS_PER_SET_MAX = 40;
/** How many recently sent stamps the picker shows first. */
export const STAMP_RECENT_MAX = 8;
/** `stamps/add_set` carries up to 40 pictures of at most 5 MB. */
export const STAMP_SET_BODY_LIMIT = 40 * 1024 * 1024;

export const Stamp = z.object({
  id: z.number(),
  label: z.string(),
  /** Its picture: a signed URL (`/media/stamp/<id>?e=&s=`), valid for about an hour. */
  image: z.string(),
});
export type Stamp = z.infer<typeof Stamp>;

export const StampSet = z.object({
  id: z.number(),
  name: z.string(),
  /** The club's own set, drawn for Enishi and seeded with the club. */
  builtin: z.boolean(),
  enabled: z.boolean(),
  stamps: z.array(Stamp),
});
export type StampSet = z.infer<typeof StampSet>;

// POST /api/stamps {ssid} -> {sets, recent}: the sets in use, and the caller's recently sent stamps' ids
// (newest first, those still in use).
export const StampsBody = z.object({ ssid }).strict();
export type StampsBody = z.input<typeof StampsBody>;
export const StampsReply = z.object({ sets: z.array(StampSet), recent: z.array(z.number()) });
export type StampsReply = z.infer<typeof StampsReply>;

// POST /api/stamps/sets {ssid} -> {sets}: every set, stopped ones too (stamp.manage).
export const StampSetsReply = z.object({ sets: z.array(StampSet) });
export type StampSetsReply = z.infer<typeof StampSetsReply>;

/** A stamp picture: PNG or WebP (transparent edges), at most 5 MB; the server checks the bytes. */
export const StampImageDataUrl = z
  .string({ error: jaStamps.imagesRequired })
  .max(7_000_000, ja.errors.imageTooLarge)
  .regex(/^data:image\/(png|webp);base64,[A-Za-z0-9+/=]+$/, jaStamps.badImage);

// POST /api/stamps/add_set {ssid, name, stamps: [{label, image}]} -> {status: 'OK', id} (stamp.manage)
export const StampSetAddBody = z
  .object({
    ssid,
    name: z
      .string({ error: jaStamps.setNameRequired })
      .trim()
      .min(1, jaStamps.setNameRequired)
      .max(STAMP_SET_NAME_MAX, ja.errors.tooLong),
    stamps: z
      .array(
        z
          .object({
            label: z
              .string({ error: jaStamps.labelRequired })
              .trim()
              .min(1, jaStamps.labelRequired)
              .max(STAMP_LABEL_MAX, ja.errors.tooLong),
            image: StampImageDataUrl,
          })
          .strict(),
        { error: jaStamps.imagesRequired },
      )
      .min(1, jaStamps.imagesRequired)
      .max(STAMPS_PER_SET_MAX, jaStamps.tooManyImages),
  })
  .strict();
export type StampSetAddBody = z.input<typeof StampSetAddBody>;

// POST /api/stamps/update_set {ssid, id, enabled} -> {status: 'OK'} (stamp.manage): stop or resume a set.
export const StampSetUpdateBody = z.object({ ssid, id, enabled: z.boolean() }).strict();
export type StampSetUpdateBody = z.input<typeof StampSetUpdateBody>;
export { OkReply as StampOkReply };
