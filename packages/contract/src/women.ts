import * as jaMember from './ja-member.js';
import { z } from 'zod';
import { ja } from './ja.js';
import { id, numberOrDigits, ssid } from './common.js';
import type { ProfileField } from './profile.js';

/*
 * The women's list for men and staff (product.md §19.2, §19.3). The filters are the club's search form
 * (product.md §3.14): age, height and bust ranges, club (company), rank range, sake, golf, tobacco, joint party,
 * and lists of blood types, languages, types and areas. Rows never carry a login ID, password, e-mail or phone.
 */

export const ENTRY_PAGE_MAX = 50;
export const ENTRY_PAGE_DEFAULT = 20;
/** Site kinds (product.md §9.6): which women a site shows, by the host name it is reached at. */
export const SITE_KINDS = [1, 2, 3, 4, 5] as const;
export type SiteKind = (typeof SITE_KINDS)[number];

const e = jaMember.women.errors;
const bound = (min: number, max: number) =>
  numberOrDigits.pipe(z.number().int(e.range).min(min, e.range).max(max, e.range)).optional();
const codes = z
  .array(numberOrDigits.pipe(z.number().int().min(0).max(2_147_483_647)), { error: e.codes })
  .max(60, e.codes)
  .optional();

const range = <T extends Record<string, unknown>>(value: T, low: keyof T, high: keyof T) =>
  value[low] === undefined || value[high] === undefined || (value[low] as number) <= (value[high] as number);

export const EntryQuery = z
  .object({
    age_min: bound(18, 99),
    age_max: bound(18, 99),
    height_min: bound(100, 250),
    height_max: bound(100, 250),
    bust_min: bound(40, 160),
    bust_max: bound(40, 160),
    rank_min: bound(0, 8),
    rank_max: bound(0, 8),
    club: codes,
    sake: codes,
    golf: codes,
    tobacco: codes,
    joint_party: codes,
    blood: codes,
    languages: codes,
    type: codes,
    area: codes,
    /** Only the caller's favourites (the favourites tab). */
    favorites: z.boolean({ error: ja.errors.badRequest }).optional(),
  })
  .strict()
  .refine((q) => range(q, 'age_min', 'age_max'), { message: e.minOverMax, path: ['age_max'] })
  .refine((q) => range(q, 'height_min', 'height_max'), { message: e.minOverMax, path: ['height_max'] })
  .refine((q) => range(q, 'bust_min', 'bust_max'), { message: e.minOverMax, path: ['bust_max'] })
  .refine((q) => range(q, 'rank_min', 'rank_max'), { message: e.minOverMax, path: ['rank_max'] });
export type EntryQuery = z.output<typeof EntryQuery>;
export type EntryQueryInput = z.input<typeof EntryQuery>;

export const EntryListBody = z
  .object({
    ssid,
    /** Entry types to include (product.md §9.7); narrows what the site kind shows, never widens it. */
    type: codes,
    page: numberOrDigits.pipe(z.number().int().min(0).max(10_000)).default(0),
    perPage: numberOrDigits.pipe(z.number().int().min(1).max(ENTRY_PAGE_MAX)).default(ENTRY_PAGE_DEFAULT),
    query: EntryQuery.optional(),
  })
  .strict();

/** A card of the list: what a man sees before opening a profile. */
export const EntryRow = z.object({
  id: z.number(),
  name: z.string(),
  age: z.number().nullable(),
  area: z.number().nullable(),
  prefecture: z.number().nullable(),
  height: z.number().nullable(),
  bust: z.number().nullable(),
  cup: z.number().nullable(),
  women_rank: z.number(),
  photo: z.string().nullable(),
  favorite: z.boolean(),
});
export type EntryRow = z.infer<typeof EntryRow>;
export const EntryListReply = z.object({ rows: z.array(EntryRow), isEnd: z.boolean(), total: z.number() });
export type EntryListReply = z.infer<typeof EntryListReply>;

/**
 * The profile fields a detail page shows. Never the name in kana, birth date (the age instead), contact
 * method, ID document, income or anything of the sales notes but the rank.
 */
export const WOMAN_PUBLIC_FIELDS = [
  'area',
  'prefecture',
  'height',
  'bust',
  'waist',
  'hip',
  'cup',
  'type',
  'blood_type',
  'languages',
  'language_level',
  'marriage',
  'children',
  'education',
  'occupation',
  'employment',
  'sake',
  'tobacco',
  'golf',
  'holiday',
  'personality',
  'joint_party',
  'date_type',
  'preferred_man',
  'trip',
  'time_slots',
  'pr',
  'women_rank',
] as const satisfies readonly ProfileField[];
export type WomanPublicField = (typeof WOMAN_PUBLIC_FIELDS)[number];

export const EntryDetailBody = z.object({ ssid, id }).strict();
export const EntryDetailReply = EntryRow.extend({
  photos: z.array(z.string()),
  profile: z.record(z.string(), z.union([z.number(), z.array(z.number()), z.string(), z.null()])),
});
export type EntryDetailReply = z.infer<typeof EntryDetailReply>;
