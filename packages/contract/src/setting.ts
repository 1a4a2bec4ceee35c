import * as jaMember from './ja-member.js';
import { z } from 'zod';
import { ja } from './ja.js';
import { id, numberOrDigits, ssid, uid } from './common.js';
import { JAPAN_OFFSET_MS } from './wire.js';

/*
 * Setting requests (product.md §18): a man asks the club to arrange a meeting with a woman, giving three
 * preferred date-times in Japan time. Staff arrange one of them (with a place) or decline (with a reason); the
 * man may cancel his own while it is still requested.
 */

export const SETTING_STATUSES = ['requested', 'arranged', 'declined', 'cancelled'] as const;
export type SettingStatus = (typeof SETTING_STATUSES)[number];

/** Three preferred slots per request (product.md §9.4). */
export const SETTING_SLOTS = 3;
export const SETTING_NOTE_MAX = 500;
export const SETTING_PLACE_MAX = 200;
/** How many requests a page of /api/setting/list holds. */
export const SETTING_PAGE_SIZE = 20;

const SLOT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The instant of a `YYYY-MM-DDTHH:mm` Japan-time slot, or null when it is no real date and time. */
export function slotInstant(slot: string): Date | null {
  const match = SLOT_PATTERN.exec(slot);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const utc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(utc);
  // 2026-02-30 rolls over into March: not a real date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59)
    return null;
  return new Date(utc - JAPAN_OFFSET_MS);
}

/** The `YYYY-MM-DDTHH:mm` Japan-time slot of an instant (as the server answers slots). */
export function slotOf(instant: Date): string {
  return new Date(instant.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 16);
}

/** A slot as people read it: 12月1日(火) 19:00. */
export function slotLabel(slot: string): string {
  const instant = slotInstant(slot);
  if (!instant) return slot;
  const shifted = new Date(instant.getTime() + JAPAN_OFFSET_MS);
  const weekday = '日月火水木金土'[shifted.getUTCDay()];
  return `${shifted.getUTCMonth() + 1}月${shifted.getUTCDate()}日(${weekday}) ${slot.slice(11)}`;
}

const e = jaMember.setting.errors;

const preferred = z
  .string({ error: e.slotRequired })
  .min(1, e.slotRequired)
  .refine((value) => slotInstant(value) !== null, e.slotInvalid);

// POST /api/setting/add (role 101). The slots being in the future is checked by the server with its clock.
export const SettingAddBody = z
  .object({
    ssid,
    women_id: uid,
    preferred1: preferred,
    preferred2: preferred,
    preferred3: preferred,
    note: z.string({ error: ja.errors.badRequest }).trim().max(SETTING_NOTE_MAX, e.noteTooLong).optional(),
  })
  .strict()
  .refine((body) => new Set([body.preferred1, body.preferred2, body.preferred3]).size === SETTING_SLOTS, {
    message: e.slotsSame,
    path: ['preferred2'],
  });
export type SettingAddBody = z.input<typeof SettingAddBody>;
export const SettingAddReply = z.object({ id: z.number() });

// POST /api/setting/list: staff see every request, a man his own, a woman hers once arranged.
export const SettingListBody = z
  .object({
    ssid,
    status: z.enum(SETTING_STATUSES, { error: ja.errors.badRequest }).optional(),
    page: numberOrDigits.pipe(z.number().int().min(0).max(100_000)).default(0),
    /** Staff: only the requests of this man or woman (the back office's member panel); ignored for members. */
    member: uid.optional(),
  })
  .strict();

const Party = z.object({ uid: z.number().nullable(), name: z.string() });
/** *(here)* The woman: a member (uid), or one only the enquiry service knows (her id there, decision 023). */
const WomanParty = Party.extend({ enquiry_id: z.number().nullable() });

/**
 * *(here)* A confirmed setting that one slot of a waiting request overlaps (product.md §18.5), as staff read it:
 * `slot` is the request's slot (1 to 3), `who` the party both share, `other` the confirmed setting.
 */
export const SettingOverlapRow = z.object({
  slot: z.number(),
  who: z.enum(['man', 'woman']),
  other: z.object({ id: z.number(), at: z.string(), men: z.string(), women: z.string() }),
});
export type SettingOverlapRow = z.infer<typeof SettingOverlapRow>;

export const SettingRow = z.object({
  id: z.number(),
  men: Party,
  women: WomanParty,
  preferred: z.array(z.string()).length(SETTING_SLOTS),
  status: z.enum(SETTING_STATUSES),
  /** The arranged slot, 1 to 3. */
  slot: z.number().nullable(),
  conversation_id: z.number().nullable(),
  created_at: z.string(),
  /** *(here)* The man's note, the arranged place and the reason of a refusal. */
  note: z.string(),
  place: z.string().nullable(),
  reason: z.string().nullable(),
  /** *(here)* Staff only, on a waiting request: the confirmed settings its slots overlap (§18.5). */
  overlaps: z.array(SettingOverlapRow).optional(),
});
export type SettingRow = z.infer<typeof SettingRow>;
export const SettingListReply = z.object({
  rows: z.array(SettingRow),
  isEnd: z.boolean(),
  /** *(here)* Requests waiting for staff (staff only; 0 for members): the setting badge. */
  requested: z.number(),
});
export type SettingListReply = z.infer<typeof SettingListReply>;

// POST /api/setting/update: staff arrange (slot and place) or decline (reason); a man cancels his own.
export const SettingUpdateBody = z
  .object({
    ssid,
    id,
    status: z.enum(['arranged', 'declined', 'cancelled'], { error: ja.errors.badRequest }),
    slot: numberOrDigits
      .pipe(z.number().int().min(1, e.slotChoice).max(SETTING_SLOTS, e.slotChoice))
      .optional(),
    place: z
      .string({ error: ja.errors.badRequest })
      .trim()
      .max(SETTING_PLACE_MAX, ja.errors.tooLong)
      .optional(),
    reason: z
      .string({ error: ja.errors.badRequest })
      .trim()
      .max(SETTING_NOTE_MAX, ja.errors.tooLong)
      .optional(),
    /** *(here)* Why staff confirm a slot that overlaps a confirmed setting (§18.5); kept in the audit log. */
    overlap_reason: z
      .string({ error: ja.errors.badRequest })
      .trim()
      .max(SETTING_NOTE_MAX, ja.errors.tooLong)
      .optional(),
  })
  .strict()
  .refine((body) => body.status !== 'arranged' || body.slot !== undefined, {
    message: e.slotChoice,
    path: ['slot'],
  })
  .refine((body) => body.status !== 'arranged' || Boolean(body.place), {
    message: e.placeRequired,
    path: ['place'],
  })
  .refine((body) => body.status !== 'declined' || Boolean(body.reason), {
    message: e.reasonRequired,
    path: ['reason'],
  });
export type SettingUpdateBody = z.input<typeof SettingUpdateBody>;
export const SettingUpdateReply = z.object({ row: SettingRow });
/** *(here)* The 409 of a confirmation that overlaps without a reason: the text and the settings it meets. */
export const SettingOverlapRefusal = z.object({ error: z.string(), overlaps: z.array(SettingOverlapRow) });

// POST /api/member/getFavorite and /api/member/updateFavorite (product.md §19.4): a man's own favourites.
export const GetFavoriteBody = z.object({ ssid }).strict();
export const FavoriteRow = z.object({ id: z.number(), flg: z.literal(1) });
export const GetFavoriteReply = z.object({ rows: z.array(FavoriteRow) });
export const UpdateFavoriteBody = z
  .object({
    ssid,
    data: z
      .object({
        id: uid,
        flg: numberOrDigits.pipe(z.union([z.literal(0), z.literal(1)], { error: ja.errors.badRequest })),
      })
      .strict(),
  })
  .strict();
export const UpdateFavoriteReply = z.object({ status: z.literal('OK') });
