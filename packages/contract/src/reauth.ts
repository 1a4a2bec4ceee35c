import { z } from 'zod';
import * as jaMember from './ja-member.js';
import { jaSecondStep } from './ja-second-step.js';
import { id, ssid } from './common.js';
import { recoveryCode, totpCode, WebauthnResponse } from './second-factor.js';

/*
 * Fresh proof before a sensitive change, the per-account lock of the second step, and the notices a person
 * gets about their account's security (product.md §11.7, §11.8).
 */

/** How long a proof (or a login) counts as fresh, unless REAUTH_WINDOW_S says otherwise. */
export const REAUTH_WINDOW_S = 300;
/**
 * Wrong second-step answers per account (any ticket, any address) within the window lock the account's codes
 * for LOCK_S; each further lock within a day lasts twice as long as the one before (decision 035).
 */
export const SECOND_STEP_FAILURES = 5;
export const SECOND_STEP_WINDOW_S = 15 * 60;
export const SECOND_STEP_LOCK_S = 15 * 60;
export const SECOND_STEP_LOCK_MEMORY_S = 24 * 60 * 60;
/** Wrong answers an account may get in a day, however spread out (so 4 every 15 minutes cannot go on). */
export const SECOND_STEP_DAILY_FAILURES = 20;

const password = z
  .string({ error: jaMember.reauth.errors.passwordMissing })
  .min(1, jaMember.reauth.errors.passwordMissing)
  .max(200, jaMember.reauth.errors.passwordWrong);

// POST /api/reauth {ssid, password, code? | recovery_code? | webauthn?} -> {until}: at most one second step.
export const ReauthBody = z
  .object({
    ssid,
    password,
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
    webauthn: WebauthnResponse.optional(),
  })
  .strict()
  .refine(
    (body) => [body.code, body.webauthn, body.recovery_code].filter((v) => v !== undefined).length <= 1,
    jaSecondStep.errors.secondStepOneOf,
  );
export type ReauthBody = z.input<typeof ReauthBody>;
export const ReauthReply = z.object({ until: z.string() });
export type ReauthReply = z.infer<typeof ReauthReply>;
// POST /api/reauth/options {ssid} -> WebAuthn request options for the caller's own passkeys.
export const ReauthOptionsBody = z.object({ ssid }).strict();

/** What a notice is about; the web words each from jaMember.reauth.notices. */
export const NOTICE_KINDS = [
  'second_step_locked',
  'totp_added',
  'totp_removed',
  'passkey_added',
  'passkey_removed',
  'recovery_regenerated',
  'password_changed',
  'sessions_ended',
  'staff_requirement',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

// POST /api/notices {ssid} -> {rows}: the caller's notices not yet dismissed, newest first.
export const NoticesBody = z.object({ ssid }).strict();
export const NoticeRow = z.object({ id: z.number(), kind: z.enum(NOTICE_KINDS), created_at: z.string() });
export type NoticeRow = z.infer<typeof NoticeRow>;
export const NoticesReply = z.object({ rows: z.array(NoticeRow) });
export type NoticesReply = z.infer<typeof NoticesReply>;
// POST /api/notices/dismiss {ssid, id} -> {rows}: the list as it now stands.
export const NoticeDismissBody = z.object({ ssid, id }).strict();
