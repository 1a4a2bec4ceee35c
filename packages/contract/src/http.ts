import { z } from 'zod';
import { ja } from './ja.js';
import { jaFirstPassword } from './ja-first-password.js';
import { LIMITS, PushSubscriptionJson, numberOrDigits, ssid, uid } from './common.js';
import { entryDigits, entryFieldError } from './entry-rules.js';
import { jaIntro } from './ja-intro.js';

/*
 * One schema for every HTTP body (product.md §11.1). Bodies are strict: an unknown field is bad input (400).
 * Each call has `<Name>Body` (what the client posts) and `<Name>Reply` (what a 200 carries).
 */

// POST /api/login
export const LoginBody = z
  .object({
    id: z
      .string({ error: ja.errors.loginMissing })
      .min(1, ja.errors.loginMissing)
      .max(LIMITS.loginIdMax, ja.errors.loginFailed),
    password: z
      .string({ error: ja.errors.loginMissing })
      .min(1, ja.errors.loginMissing)
      .max(128, ja.errors.loginFailed),
    // The device token an earlier login on this device returned (product.md §11.4): counted on its own.
    device: z.string().max(200).optional(),
  })
  .strict();
export type LoginBody = z.infer<typeof LoginBody>;
// POST /api/login/first-password {id, password, new_password, device?} -> as /api/login: an imported member's
// first password exchanged for their own (product.md §11.4), then the login goes on with the new one.
export const FirstPasswordLoginBody = LoginBody.extend({
  new_password: z
    .string({ error: jaFirstPassword.newPasswordInvalid })
    .regex(/^[A-Za-z0-9.?/-]{8,24}$/, jaFirstPassword.newPasswordInvalid),
})
  .strict()
  .refine(
    (body) =>
      body.new_password.replace(/-/g, '').toUpperCase() !== body.password.replace(/[\s-]/g, '').toUpperCase(),
    {
      message: jaFirstPassword.newPasswordSame,
      path: ['new_password'],
    },
  );
export type FirstPasswordLoginBody = z.infer<typeof FirstPasswordLoginBody>;

export const LoginReply = z.object({
  uid: z.number(),
  role: z.number(),
  rank: z.number(),
  name: z.string(),
  session: z.string(),
  /** Kept by the client and sent with its next logins (product.md §11.4). */
  device: z.string(),
});
export type LoginReply = z.infer<typeof LoginReply>;

const subscriptionField = z.union([PushSubscriptionJson, z.null()]).optional();

// POST /api/logout
export const LogoutBody = z
  .object({
    ssid,
    userId: uid.optional(),
    subscript: subscriptionField,
    oldSubscript: subscriptionField,
  })
  .strict();
export type LogoutBody = z.infer<typeof LogoutBody>;
export const StatusReply = z.object({ status: z.string() });
export type StatusReply = z.infer<typeof StatusReply>;

// POST /api/subscript (push; the sending side comes with push notifications)
export const SubscriptBody = LogoutBody;
export type SubscriptBody = z.infer<typeof SubscriptBody>;

// POST /api/auth: 200 both ways; `accepted` only when the session is valid and belongs to uid.
export const AuthBody = z.object({ ssid: z.string().max(200), uid: uid.optional() }).strict();
export type AuthBody = z.infer<typeof AuthBody>;
export const AuthReply = z.object({ status: z.enum(['accepted', 'rejected']) });
export type AuthReply = z.infer<typeof AuthReply>;

/** A user as the client sees it. `id` is the login ID, `uid` the server's id (product.md §11.5). Never the password. */
export const UserRow = z.object({
  uid: z.number(),
  id: z.string(),
  name: z.string(),
  /** The reading in hiragana (ふりがな, kana.ts); null when none is known. */
  name_kana: z.string().nullable(),
  role: z.number(),
  rank: z.number(),
  introducer: z.string(),
  image: z.string().nullable(),
  username: z.string(),
  user_image: z.string().nullable(),
  unreads: z.string(),
});
export type UserRow = z.infer<typeof UserRow>;

// POST /api/getuser: members may read only themselves; staff anyone.
export const GetUserBody = z.object({ ssid, uid }).strict();
export type GetUserBody = z.infer<typeof GetUserBody>;
export const GetUserReply = z.object({ rows: z.array(UserRow) });
export type GetUserReply = z.infer<typeof GetUserReply>;

// POST /api/entry: public application from the intro pages.
export const EntryBody = z
  .object({
    // A logged-in phone may still attach its session; it is not needed.
    ssid: z.string().max(200).optional(),
    type: z.enum(['male', 'female'], { error: ja.errors.badRequest }),
    name: z.string({ error: jaIntro.nameRequired }).max(1000, ja.errors.tooLong),
    age: z.union([z.string().max(100, jaIntro.ageInvalid), z.number()], { error: jaIntro.ageRequired }),
    email: z.string({ error: jaIntro.emailRequired }).max(1000, ja.errors.tooLong),
    tel: z.string({ error: jaIntro.telRequired }).max(1000, ja.errors.tooLong),
  })
  .strict()
  // Each field by the rules the form checks as it is typed (entry-rules.ts), in the form's order.
  .superRefine((entry, ctx) => {
    for (const field of ['name', 'age', 'email', 'tel'] as const) {
      const message = entryFieldError(field, String(entry[field]), entry.type);
      if (message) ctx.addIssue({ code: 'custom', message, path: [field] });
    }
  })
  .transform((entry) => ({
    type: entry.type,
    name: entry.name.trim(),
    age: Number(entryDigits(String(entry.age))),
    email: entry.email.trim(),
    tel: entryDigits(entry.tel),
  }));
export type EntryBody = z.input<typeof EntryBody>;
export type Entry = z.output<typeof EntryBody>;
export const EntryReply = z.object({ status: z.literal('OK') });

// POST /api/applications: staff list the stored applications, newest first.
export const ApplicationsBody = z
  .object({ ssid, page: numberOrDigits.pipe(z.number().int().min(0).max(100_000)).default(0) })
  .strict();
export const ApplicationRow = z.object({
  id: z.number(),
  type: z.enum(['male', 'female']),
  name: z.string(),
  age: z.number(),
  email: z.string(),
  tel: z.string(),
  created_at: z.string(),
  // Staff marked it handled (or made a member from it); the inbox badge counts the others.
  handled: z.boolean().optional(),
  member_uid: z.number().nullable().optional(),
});
export type ApplicationRow = z.infer<typeof ApplicationRow>;
export const ApplicationsReply = z.object({
  rows: z.array(ApplicationRow),
  isEnd: z.boolean(),
  // How many are not handled yet (the inbox badge).
  newCount: z.number().optional(),
});
export type ApplicationsReply = z.infer<typeof ApplicationsReply>;
