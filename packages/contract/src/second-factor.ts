import { jaSecondStep } from './ja-second-step.js';
import { z } from 'zod';
import { ja } from './ja.js';
import { LIMITS, ssid } from './common.js';

/*
 * A second factor at login and device tokens (product.md §11.7, decision 018): the bodies and replies of the
 * login steps and of the calls that set factors up. WebAuthn's own JSON (options, responses) is checked only
 * for its outline here; @simplewebauthn/server checks the rest.
 */

/** Which second steps an account offers after its password. A recovery code is always offered as well. */
export const SECOND_FACTORS = ['webauthn', 'totp'] as const;
export type SecondFactor = (typeof SECOND_FACTORS)[number];
/** A ticket's life and tries (product.md §11.7). */
export const LOGIN_TICKET_MS = 5 * 60 * 1000;
export const LOGIN_TICKET_TRIES = 5;
export const RECOVERY_CODE_COUNT = 10;

/** An opaque token: a login ticket or a device token. */
const opaque = (error: string) => z.string({ error }).min(1, error).max(200, error);
const ticket = opaque(jaSecondStep.errors.ticketExpired);
export const deviceToken = z.string().max(200).optional();
/** A TOTP code: six digits (spaces typed in between are dropped). */
export const totpCode = z
  .string({ error: jaSecondStep.errors.codeFormat })
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, jaSecondStep.errors.codeFormat));
/** A recovery code as handed out (`xxxx-xxxx-xxxx`), any case, with or without hyphens. */
export const recoveryCode = z
  .string({ error: jaSecondStep.errors.recoveryWrong })
  .max(40, jaSecondStep.errors.recoveryWrong)
  .transform((value) => value.replace(/[\s-]/g, '').toLowerCase());

/** A credential as @simplewebauthn/browser returns it (registration or authentication). */
export const WebauthnResponse = z.looseObject(
  {
    id: z.string().min(1).max(1400),
    rawId: z.string().min(1).max(1400),
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: z.string().max(4096) }),
    clientExtensionResults: z.looseObject({}),
  },
  { error: jaSecondStep.errors.passkeyFailed },
);
export type WebauthnResponse = z.infer<typeof WebauthnResponse>;
/** WebAuthn options for the browser (creation or request), produced by @simplewebauthn/server. */
export const WebauthnOptions = z.looseObject({ challenge: z.string() });
export type WebauthnOptions = z.infer<typeof WebauthnOptions>;

// POST /api/login -> the usual reply, or for an account with a second factor a ticket and no session.
export const LoginTicketReply = z.object({
  ticket: z.string(),
  second_factor: z.array(z.enum(SECOND_FACTORS)),
});
export type LoginTicketReply = z.infer<typeof LoginTicketReply>;

// POST /api/login/second {ticket, code | webauthn | recovery_code}: exactly one of the three.
export const LoginSecondBody = z
  .object({
    ticket,
    code: totpCode.optional(),
    webauthn: WebauthnResponse.optional(),
    recovery_code: recoveryCode.optional(),
  })
  .strict()
  .refine(
    (body) => [body.code, body.webauthn, body.recovery_code].filter((v) => v !== undefined).length === 1,
    jaSecondStep.errors.secondStepOneOf,
  );
export type LoginSecondBody = z.input<typeof LoginSecondBody>;
// POST /api/login/second/options {ticket} -> the passkey request of that ticket's account.
export const LoginSecondOptionsBody = z.object({ ticket }).strict();
// POST /api/login/passkey/options {} -> a request for any passkey of this site (discoverable credentials).
export const PasskeyLoginOptionsBody = z.object({}).strict();
// POST /api/login/passkey {response, device?} -> the usual login reply.
export const PasskeyLoginBody = z.object({ response: WebauthnResponse, device: deviceToken }).strict();
export type PasskeyLoginBody = z.input<typeof PasskeyLoginBody>;

// POST /api/2fa/factors {ssid} -> what the caller has set up, and whether they must set one up now.
export const SessionOnlyBody = z.object({ ssid }).strict();
export const FactorsReply = z.object({
  totp: z.boolean(),
  passkeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      created_at: z.string(),
      last_used_at: z.string().nullable(),
    }),
  ),
  recovery_codes_left: z.number(),
  /** This session may do nothing else until a factor is set up (staff, while the owner requires it). */
  setup_required: z.boolean(),
  /** The owner's switch: every staff member needs a second factor. */
  staff_required: z.boolean(),
});
export type FactorsReply = z.infer<typeof FactorsReply>;

// POST /api/2fa/totp/setup {ssid} -> {secret, uri}; /api/2fa/totp/confirm {ssid, code} -> {recovery_codes}.
export const TotpSetupReply = z.object({ secret: z.string(), uri: z.string() });
export type TotpSetupReply = z.infer<typeof TotpSetupReply>;
export const TotpConfirmBody = z.object({ ssid, code: totpCode }).strict();
export const RecoveryCodesReply = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodesReply = z.infer<typeof RecoveryCodesReply>;

// POST /api/2fa/webauthn/register/verify {ssid, response, name?} -> {ok: true} (+ recovery codes, first factor).
export const PasskeyRegisterBody = z
  .object({
    ssid,
    response: WebauthnResponse,
    name: z.string().trim().max(LIMITS.nameMax, ja.errors.tooLong).optional(),
  })
  .strict();
export const PasskeyRegisterReply = z.object({
  ok: z.literal(true),
  recovery_codes: z.array(z.string()).optional(),
});
export type PasskeyRegisterReply = z.infer<typeof PasskeyRegisterReply>;
export const PasskeyRemoveBody = z.object({ ssid, id: z.string().min(1).max(1400) }).strict();
export const FactorOkReply = z.object({ ok: z.literal(true) });

// POST /api/2fa/staff-requirement {ssid, required} -> {staff_required} (the owner; audited).
export const StaffRequirementBody = z
  .object({ ssid, required: z.boolean({ error: ja.errors.badRequest }) })
  .strict();
export const StaffRequirementReply = z.object({ staff_required: z.boolean() });
