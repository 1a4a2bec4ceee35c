import { z } from 'zod';
import { LIMITS, id, numberOrDigits, ssid, uid } from './common.js';
import { ja } from './ja.js';
import { jaProfile } from './ja-profile.js';
import { CLUB_LOOKUPS } from './lookups/index.js';
import { MEMBER_EDITABLE_CANDIDATES, PROFILE_HISTORY_FIELDS, ProfilePatch, type Profile } from './profile.js';

/*
 * The calls of code tables, profiles, photos and the applications inbox (product.md §11.6, §19.1, §19.5).
 */

const LookupItemSchema = z.object({ code: z.number(), label: z.string(), parent: z.number().optional() });

// POST /api/lookups {ssid} -> {name: [{code, label, parent?}]} for every fixed table and the club's lists
export const LookupsBody = z.object({ ssid }).strict();
export const LookupsReply = z.record(z.string(), z.array(LookupItemSchema));
export type LookupsReply = z.infer<typeof LookupsReply>;

/** Most entries one club list holds (the club has about 200 companies). */
export const CLUB_LOOKUP_MAX = 1000;
const l = jaProfile.lookups;

// POST /api/lookups/update {ssid, list, items} -> {items}: the owner (and admin) replace one club list
export const ClubLookupUpdateBody = z
  .object({
    ssid,
    list: z.enum(CLUB_LOOKUPS, { error: ja.errors.badRequest }),
    items: z
      .array(
        z
          .object({
            code: numberOrDigits.pipe(z.number().int().min(1).max(999_999)),
            label: z
              .string({ error: l.labelRequired })
              .trim()
              .min(1, l.labelRequired)
              .max(100, l.labelTooLong),
            parent: numberOrDigits.pipe(z.number().int().min(1).max(999_999)).nullable().optional(),
          })
          .strict(),
      )
      .max(CLUB_LOOKUP_MAX, ja.errors.tooLarge)
      .refine((items) => new Set(items.map((item) => item.code)).size === items.length, l.duplicateCode),
  })
  .strict();
export type ClubLookupUpdateBody = z.input<typeof ClubLookupUpdateBody>;
export const ClubLookupUpdateReply = z.object({ items: z.array(LookupItemSchema) });

export const ProfilePhoto = z.object({ id: z.string(), url: z.string() });
export type ProfilePhoto = z.infer<typeof ProfilePhoto>;
export const ProfileHistoryRow = z.object({
  id: z.number(),
  field: z.enum(PROFILE_HISTORY_FIELDS),
  from: z.number().nullable(),
  to: z.number().nullable(),
  actor: z.string(),
  date: z.string(),
});
export type ProfileHistoryRow = z.infer<typeof ProfileHistoryRow>;

/** A member's profile as /api/profile/get answers it; a member reading their own sees no sales notes. */
export const ProfileReply = z.object({
  uid: z.number(),
  role: z.number(),
  name: z.string(),
  profile: z.custom<Profile>(),
  photos: z.array(ProfilePhoto),
  history: z.array(ProfileHistoryRow),
});
export type ProfileReply = z.infer<typeof ProfileReply>;

// POST /api/profile/get {ssid, uid}
export const ProfileGetBody = z.object({ ssid, uid }).strict();
// POST /api/profile/update {ssid, uid, profile: {field: value, ...}} (only the fields that change)
export const ProfileUpdateBody = z.object({ ssid, uid, profile: ProfilePatch }).strict();
export type ProfileUpdateBody = z.input<typeof ProfileUpdateBody>;

/** Most photos one member has. */
export const PROFILE_PHOTOS_MAX = 10;
/** A data URL of at most LIMITS.imageBytes of image (base64 is 4/3 of that), plus its prefix. */
const PHOTO_DATA_URL_MAX = Math.ceil((LIMITS.imageBytes * 4) / 3) + 100;
const photoId = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, ja.errors.badRequest);

// POST /api/profile/photo/add {ssid, uid, image: dataURL} -> ProfileReply
export const ProfilePhotoAddBody = z
  .object({
    ssid,
    uid,
    image: z
      .string({ error: ja.errors.badImage })
      .max(PHOTO_DATA_URL_MAX, ja.errors.imageTooLarge)
      .regex(/^data:[a-z/+.-]*(;[a-z0-9=-]*)*;base64,/i, ja.errors.badImage),
  })
  .strict();
// POST /api/profile/photo/delete {ssid, uid, id} -> ProfileReply
export const ProfilePhotoDeleteBody = z.object({ ssid, uid, id: photoId }).strict();
// POST /api/profile/photo/order {ssid, uid, ids: [every photo id in the new order]} -> ProfileReply
export const ProfilePhotoOrderBody = z
  .object({ ssid, uid, ids: z.array(photoId).min(1).max(PROFILE_PHOTOS_MAX) })
  .strict();

// POST /api/profile/editable {ssid} -> {fields}: the profile fields members may change on their own profile
// (product.md §19.10); POST /api/profile/editable/update {ssid, fields} -> {fields}: the owner (and admin) set them.
export const ProfileEditableBody = z.object({ ssid }).strict();
export const ProfileEditableReply = z.object({ fields: z.array(z.string()) });
export type ProfileEditableReply = z.infer<typeof ProfileEditableReply>;
export const ProfileEditableUpdateBody = z
  .object({
    ssid,
    fields: z
      .array(z.string(), { error: jaProfile.errors.badField })
      .max(MEMBER_EDITABLE_CANDIDATES.length, jaProfile.errors.badField)
      .refine(
        (fields) => fields.every((field) => (MEMBER_EDITABLE_CANDIDATES as string[]).includes(field)),
        jaProfile.errors.badField,
      ),
  })
  .strict();

// POST /api/applications/handle {ssid, id, member_uid?} -> {status: 'OK'}: staff mark an application handled,
// with the member made from it when there is one.
export const ApplicationHandleBody = z.object({ ssid, id, member_uid: uid.optional() }).strict();
