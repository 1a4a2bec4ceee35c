import * as jaMember from './ja-member.js';
import { z } from 'zod';
import { ja } from './ja.js';

export { ROLE, ROLE_TRAITS, type Role, type RoleKind, type RoleTraits } from './roles.js';

// In a module of its own without zod, so a web page that needs only a limit does not load the schemas.
export { LIMITS, socketReconnectDelay } from './limits.js';
import { LIMITS } from './limits.js';

/** The session id that /api/login returns and every other call carries. */
export const ssid = z.string({ error: ja.errors.unauthorized }).min(1, ja.errors.unauthorized).max(200);

/**
 * A whole number sent as a JSON number or as a string of digits (the original client sends both). Unlike
 * z.coerce, it refuses true, null and arrays, which would otherwise turn into 1, 0 or a number.
 */
export const numberOrDigits = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,15}$/),
    ],
    { error: ja.errors.badRequest },
  )
  .transform(Number);

/** The largest id a column holds: ids are PostgreSQL `integer` (message ids `bigint`, but never this many). */
export const ID_MAX = 2_147_483_647;

/**
 * The id of a stored row (a talk, message, news item, banner...), as a JSON number or a string of digits.
 * Beyond ID_MAX nothing can exist: a 400 here rather than an integer overflow in the database.
 */
export const id = numberOrDigits.pipe(
  z.number().int(ja.errors.badRequest).positive(ja.errors.badRequest).max(ID_MAX, ja.errors.badRequest),
);

/** Server id of a user, as /api/login returns it as `uid`. Clients also send it as a numeric string. */
export const uid = id;

/** Login ID: letters, digits and hyphen, at most 24 (product.md §5). */
export const loginId = z
  .string({ error: ja.errors.badRequest })
  .min(1, ja.errors.badRequest)
  .max(LIMITS.loginIdMax, ja.errors.tooLong)
  .regex(/^[A-Za-z0-9-]+$/, ja.errors.badRequest);

/**
 * A new password: letters, digits, dot, question mark, slash and hyphen, 8 to 24 (product.md §5; at least 8 so
 * that a guessed or listed short password cannot be set). Logging in accepts any stored password.
 */
export const password = z
  .string({ error: ja.errors.badRequest })
  .min(1, ja.errors.badRequest)
  .min(LIMITS.passwordMin, jaMember.members.errors.passTooShort)
  .max(LIMITS.passwordMax, ja.errors.tooLong)
  .regex(/^[A-Za-z0-9.?/-]+$/, ja.errors.badRequest);

/** The error body of every failed call (product.md §11.3). */
export const ErrorReply = z.object({ error: z.string() });
export type ErrorReply = z.infer<typeof ErrorReply>;

/** A browser push subscription as PushSubscription.toJSON() gives it. */
export const PushSubscriptionJson = z
  .object({
    endpoint: z.url({ protocol: /^https$/, error: ja.errors.badRequest }).max(2000),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: z.string().max(200), auth: z.string().max(100) }).strict(),
  })
  .strict();
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJson>;

/**
 * The message for a failed parse: the first issue's own Japanese text, or a generic one for issues zod
 * raised itself (unknown keys, wrong types deep inside).
 */
export function firstErrorMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return ja.errors.badRequest;
  if (issue.code === 'unrecognized_keys') return ja.errors.unknownField;
  const message = issue.message;
  return /[\u3040-\u30ff\u4e00-\u9faf]/.test(message) ? message : ja.errors.badRequest;
}
