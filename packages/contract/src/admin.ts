import * as jaMember from './ja-member.js';
import { z } from 'zod';
import { IceServer } from './call-frames.js';
import { ja } from './ja.js';
import { LIMITS, ROLE, ROLE_TRAITS, numberOrDigits, ssid, uid } from './common.js';
import { UserRow } from './http.js';
import { NameKana } from './profile.js';
import { AUDIT_ACTIONS } from './audit-actions.js';

/*
 * Member and staff administration (product.md §2 admin routes, §5 member forms, §6). The member form rules live
 * here once: the server validates /api/adduser and /api/updateuser with them and the web form checks its
 * fields with the very same schemas before sending.
 */

/** The three kinds of user record that staff manage: men (101), women (201) and staff (roles 1 to 6). */
export const MEMBER_KINDS = ['men', 'women', 'staff'] as const;
export type MemberKind = (typeof MEMBER_KINDS)[number];

/** The kind of a role's records (ROLE_TRAITS); null for a role the club does not use. */
export const kindOfRole = (role: number): MemberKind | null => ROLE_TRAITS[role]?.kind ?? null;

/** The role a new record of each kind gets (product.md §9): staff are always registered as role 3. */
export const NEW_USER_ROLE: Record<MemberKind, number> = {
  men: ROLE.male,
  women: ROLE.female,
  staff: ROLE.staff,
};

/** Men's ranks (product.md §1): 1 一般, 2 プラチナ, 3 VIP, 4 スペシャル, 5 クライアント, 6 ブラック. */
export const MEN_RANKS = [1, 2, 3, 4, 5, 6] as const;

const LOGIN_ID_PATTERN = /^[A-Za-z0-9-]+$/;
const PASSWORD_PATTERN = /^[A-Za-z0-9.?/-]+$/;

/**
 * What the ID field keeps of what is typed (product.md §5: others stripped): full-width letters and digits from a
 * Japanese keyboard become their ASCII forms first, then anything but letters, digits and hyphen goes.
 */
export const stripLoginId = (value: string): string =>
  value
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9-]/g, '')
    .slice(0, LIMITS.loginIdMax);

/** What the password field keeps: letters, digits, dot, question mark, slash and hyphen. */
export const stripPassword = (value: string): string =>
  value
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9.?/-]/g, '')
    .slice(0, LIMITS.passwordMax);

const e = jaMember.members.errors;

const memberName = z
  .string({ error: e.nameRequired })
  .trim()
  .min(1, e.nameRequired)
  .max(LIMITS.nameMax, e.nameTooLong);

/** The same rule as `loginId` in common.ts (login), with the form's own wording. */
const memberLoginId = z
  .string({ error: e.idRequired })
  .min(1, e.idRequired)
  .max(LIMITS.loginIdMax, e.idTooLong)
  .regex(LOGIN_ID_PATTERN, e.idInvalid);

/** The same rule as `password` in common.ts, with the form's own wording. */
const memberPassword = z
  .string({ error: e.passRequired })
  .min(1, e.passRequired)
  .regex(PASSWORD_PATTERN, e.passInvalid)
  .min(LIMITS.passwordMin, e.passTooShort)
  .max(LIMITS.passwordMax, e.passTooLong);

/** On edit: empty (or absent) keeps the current password. */
const optionalPassword = z
  .union([memberPassword, z.literal(''), z.null()], { error: e.passInvalid })
  .optional()
  .transform((value) => value || undefined);

/** A rank as a number or digits; empty or absent is 0 (no rank). Men must have 1 to 6 (checked below). */
const rank = z
  .union([numberOrDigits, z.literal(''), z.null()], { error: e.rankRequired })
  .optional()
  .transform((value) => (typeof value === 'number' ? value : 0))
  .pipe(z.number().int(e.rankRequired).min(0, e.rankRequired).max(6, e.rankRequired));

/** 101 a man, 201 a woman, 1 to 6 staff. Which role a record really gets is the server's decision. */
const role = numberOrDigits.pipe(
  z
    .number()
    .int(e.roleInvalid)
    .refine((value) => kindOfRole(value) !== null, e.roleInvalid),
);

const introducer = z
  .union([z.string(), z.null()], { error: e.introducerTooLong })
  .optional()
  .transform((value) => (value ?? '').trim())
  .pipe(z.string().max(LIMITS.introducerMax, e.introducerTooLong));

function rankRequiredForMen(value: { role: number; rank: number }, ctx: z.RefinementCtx): void {
  if (ROLE_TRAITS[value.role]?.ranked && !(MEN_RANKS as readonly number[]).includes(value.rank)) {
    ctx.addIssue({ code: 'custom', message: e.rankRequired, path: ['rank'] });
  }
}

/** The form's field rules one by one: the CSV import checks each cell with them (member-import-service.ts). */
export const MEMBER_FIELD_RULES = {
  id: memberLoginId,
  name: memberName,
  name_kana: NameKana,
  introducer,
} as const;

const formShape = {
  id: memberLoginId,
  name: memberName,
  name_kana: NameKana.optional(),
  rank,
  role,
  introducer,
};

/**
 * The member form (men, women, staff) as the web app validates it: name and ID required, password required
 * on add and optional on edit, rank 1 to 6 required for men (product.md §5).
 */
export const MemberForm = {
  add: z
    .object({ ...formShape, pass: memberPassword })
    .strict()
    .superRefine(rankRequiredForMen),
  edit: z
    .object({ ...formShape, pass: optionalPassword })
    .strict()
    .superRefine(rankRequiredForMen),
};
export type MemberFormInput = z.input<typeof MemberForm.add>;
export type MemberFormField = 'id' | 'name' | 'name_kana' | 'pass' | 'rank' | 'role' | 'introducer';

// POST /api/adduser {ssid, id, name, name_kana?, pass, rank, role, introducer} -> {rows: [UserRow]}
export const AddUserBody = z
  .object({ ssid, ...formShape, pass: memberPassword })
  .strict()
  .superRefine(rankRequiredForMen);
export type AddUserBody = z.input<typeof AddUserBody>;

// POST /api/updateuser {ssid, uid, id, name, name_kana?, pass?, rank, role, introducer} -> {rows: [UserRow]}
export const UpdateUserBody = z
  .object({ ssid, uid, ...formShape, pass: optionalPassword })
  .strict()
  .superRefine(rankRequiredForMen);
export type UpdateUserBody = z.input<typeof UpdateUserBody>;

/** The reply of adduser, updateuser, deluser and uploadUserImage: the user as now stored (or as deleted). */
export const UserRowsReply = z.object({ rows: z.array(UserRow) });
export type UserRowsReply = z.infer<typeof UserRowsReply>;

/** Most rows one search answers; `count` still tells how many matched. */
export const SEARCH_USERS_MAX = 500;

// POST /api/searchuser {ssid, keyword?, rank?, role} -> {rows, count} by reading (§11.5). role 101 men, 201 women, 1..6 staff.
export const SearchUserBody = z
  .object({
    ssid,
    keyword: z
      .union([z.string().max(50, ja.errors.tooLong), z.null()], {
        error: ja.errors.badRequest,
      })
      .optional()
      .transform((value) => (value ?? '').trim()),
    // 0 or absent: every rank.
    rank: z
      .union([numberOrDigits, z.literal(''), z.null()], { error: ja.errors.badRequest })
      .optional()
      .transform((value) => (typeof value === 'number' ? value : 0))
      .pipe(z.number().int().min(0, ja.errors.badRequest).max(6, ja.errors.badRequest)),
    role,
  })
  .strict();
export type SearchUserBody = z.input<typeof SearchUserBody>;
export const SearchUserReply = z.object({ rows: z.array(UserRow), count: z.number() });
export type SearchUserReply = z.infer<typeof SearchUserReply>;

// POST /api/deluser {ssid, uid} -> {rows: [the deleted user]}
export const DelUserBody = z.object({ ssid, uid }).strict();
export type DelUserBody = z.input<typeof DelUserBody>;

/** A data URL of at most LIMITS.imageBytes of image (base64 is 4/3 of that), plus its prefix. */
const IMAGE_DATA_URL_MAX = Math.ceil((LIMITS.imageBytes * 4) / 3) + 100;

// POST /api/uploadUserImage {ssid, uid, image: dataURL} -> {rows: [UserRow]} (image as a URL)
export const UploadUserImageBody = z
  .object({
    ssid,
    uid,
    image: z
      .string({ error: e.imageRejected })
      .max(IMAGE_DATA_URL_MAX, ja.errors.imageTooLarge)
      .regex(/^data:[a-z/+.-]*(;[a-z0-9=-]*)*;base64,/i, e.imageRejected),
  })
  .strict();
export type UploadUserImageBody = z.input<typeof UploadUserImageBody>;

/** Largest side of a profile image (product.md §5: scaled to fit 200 by 200). */
export const PROFILE_IMAGE_SIDE = 200;

// POST /api/add_conversation {ssid, params: {men, women, type: 'st'}} -> {conversation_id}
export const AddConversationBody = z
  .object({
    ssid,
    params: z
      .object({
        men: uid,
        women: uid,
        type: z.literal('st', { error: ja.errors.badRequest }),
        // The original client sends its own uid as `register`; the session decides who registers.
        register: z.unknown().optional(),
      })
      .strict(),
  })
  .strict();
export type AddConversationBody = z.input<typeof AddConversationBody>;
export const AddConversationReply = z.object({ conversation_id: z.number() });
export type AddConversationReply = z.infer<typeof AddConversationReply>;

export { AUDIT_ACTIONS, type AuditAction } from './audit-actions.js';
/** A day of the filter, in Japan time: 2026-11-26. */
const auditDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: jaMember.audit.badDate })
  .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00+09:00`)), { error: jaMember.audit.badDate });
// POST /api/auditlog {ssid, page, person?, action?, from?, to?} -> {rows, isEnd} (the owner only).
// person: part of the name of who acted or whose record it is; from/to: days in Japan time, both included.
export const AuditLogBody = z
  .object({
    ssid,
    page: numberOrDigits.pipe(z.number().int().min(0).max(100_000)).default(0),
    person: z.string().trim().max(50, { error: jaMember.audit.badPerson }).optional(),
    action: z.enum(AUDIT_ACTIONS, { error: ja.errors.badRequest }).optional(),
    from: auditDay.optional(),
    to: auditDay.optional(),
  })
  .strict();
export type AuditLogBody = z.input<typeof AuditLogBody>;
/** A user record as the audit log keeps it: never the password or its hash. */
export const AuditSnapshot = z.object({
  id: z.string(),
  name: z.string(),
  name_kana: z.string().nullable().optional(), // absent in rows written before issue 46
  role: z.number(),
  rank: z.number(),
  introducer: z.string(),
  image: z.boolean(),
});
export type AuditSnapshot = z.infer<typeof AuditSnapshot>;
/** A profile or photo change in the audit log: field name -> [before, after]. */
export const AuditChanges = z.record(z.string(), z.tuple([z.unknown(), z.unknown()]));
export type AuditChanges = z.infer<typeof AuditChanges>;
export const AuditRow = z.object({
  id: z.number(),
  date: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  actor: z.object({ uid: z.number().nullable(), name: z.string() }),
  // name: the record's name when the change was made (kept after the record is deleted).
  target: z.object({ uid: z.number(), role: z.number(), name: z.string() }),
  before: AuditSnapshot.nullable(),
  after: AuditSnapshot.nullable(),
  password_reset: z.boolean(),
  changes: AuditChanges.nullable().optional(),
});
export type AuditRow = z.infer<typeof AuditRow>;
export const AuditLogReply = z.object({ rows: z.array(AuditRow), isEnd: z.boolean() });
export type AuditLogReply = z.infer<typeof AuditLogReply>;
export const AUDIT_PAGE_SIZE = 50;

/** The external member-site pages of the male members' mypage menu (product.md §2). */
export const MEMBER_SITE_LINKS = ['deposit', 'settings', 'points', 'payment', 'purchase'] as const;
export type MemberSiteLink = (typeof MEMBER_SITE_LINKS)[number];

// POST /api/config {ssid} -> what the club configured: member-site links (null: not configured), course images
export const ClubConfigBody = z.object({ ssid }).strict();
export const ClubConfigReply = z.object({
  memberSiteLinks: z.record(z.enum(MEMBER_SITE_LINKS), z.string().nullable()),
  courseImages: z.array(z.string()),
  /**
   * The ICE servers for voice calls (product.md §17.5): ICE_SERVERS, TURN entries with this user's
   * credentials when TURN_SECRET is set; fetched again before each call, since the credentials expire.
   */
  iceServers: z.array(IceServer),
  /** The external member site shown in a frame at /member (role 101); null: /member is the women's list. */
  memberSiteUrl: z.string().nullable().optional(),
  /** PUBLIC_ORIGIN, the one address whose pages the chat socket accepts (product.md §15.1). */
  publicOrigin: z.string().optional(),
});
export type ClubConfigReply = z.infer<typeof ClubConfigReply>;
