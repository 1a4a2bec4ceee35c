import { z } from 'zod';
import { ja } from './ja.js';
import { numberOrDigits, ssid } from './common.js';

/*
 * The staff back office on a desk (product.md §2.8): the member tables. Sorted, filtered and paged on the
 * server, so a club of 10,000 members reads one page at a time.
 */

export const MEMBER_TABLE_KINDS = ['men', 'women', 'staff'] as const;
export const MEMBER_TABLE_SORTS = ['name', 'id', 'rank', 'entry_type', 'activity', 'unread'] as const;
export type MemberTableSort = (typeof MEMBER_TABLE_SORTS)[number];
export const MEMBER_TABLE_PAGE_SIZES = [25, 50, 100] as const;

const smallInt = (min: number, max: number) =>
  numberOrDigits.pipe(z.number({ error: ja.errors.badRequest }).int().min(min).max(max));

// POST /api/members/table {ssid, kind, keyword?, rank?, entry_type?, sort?, desc?, page?, size?}
//   -> {rows, total}. Staff; kind 'staff' the owner only. rank 0 and entry_type -1: any.
export const MemberTableBody = z
  .object({
    ssid,
    kind: z.enum(MEMBER_TABLE_KINDS, { error: ja.errors.badRequest }),
    keyword: z.string({ error: ja.errors.badRequest }).trim().max(50, ja.errors.tooLong).default(''),
    rank: smallInt(0, 99).default(0),
    entry_type: smallInt(-1, 99).default(-1),
    sort: z.enum(MEMBER_TABLE_SORTS, { error: ja.errors.badRequest }).default('activity'),
    desc: z.boolean({ error: ja.errors.badRequest }).default(true),
    page: smallInt(0, 100_000).default(0),
    size: z
      .union([z.literal(25), z.literal(50), z.literal(100)], { error: ja.errors.badRequest })
      .default(50),
  })
  .strict();
export type MemberTableBody = z.input<typeof MemberTableBody>;

export const MemberTableRow = z.object({
  uid: z.number(),
  id: z.string(),
  name: z.string(),
  /** The reading in hiragana (kana.ts); null when none. The table sorts by name in its order. */
  name_kana: z.string().nullable(),
  role: z.number(),
  /** Men: the rank of the record (MEN_RANKS_LABELS); women: the profile's rank (WOMEN_RANKS). */
  rank: z.number(),
  /** Women and men with a profile: the entry type code (lookups.entryTypes); null without a profile. */
  entry_type: z.number().nullable(),
  /** The latest of the last use of the app and the last message in their talk with staff (ISO). */
  last_activity: z.string().nullable(),
  /** Messages in their talk with staff that the viewer has not read. */
  unread: z.number(),
  /** Their talk with staff (members; null for staff). */
  conversation_id: z.number().nullable(),
});
export type MemberTableRow = z.infer<typeof MemberTableRow>;
export const MemberTableReply = z.object({ rows: z.array(MemberTableRow), total: z.number() });
export type MemberTableReply = z.infer<typeof MemberTableReply>;
