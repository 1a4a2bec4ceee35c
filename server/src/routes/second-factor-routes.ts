import type { apiCalls } from '../http/calls.js';
import { presentLogin } from '../presenters/user-presenter.js';
import type { AccountFactors } from '../services/account-factors.js';
import type { SecondStep } from '../services/factor-answers.js';
import type { LoginService } from '../services/login-service.js';
import type { PasskeySetup } from '../services/passkey-setup.js';
import type { RecoveryCodes } from '../services/recovery-codes.js';
import type { StaffRequirement } from '../services/staff-requirement.js';
import type { TotpSetup } from '../services/totp-setup.js';

/**
 * The login's second step, passwordless passkeys and setting factors up (product.md §11.7). The /api/2fa
 * calls are for any logged-in person (their own factors), including a session that must set one up first;
 * `2fa/staff-requirement` is the owner's (the `staff.manage` permission).
 */
export function secondFactorRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: {
    login: LoginService;
    factors: AccountFactors;
    totp: TotpSetup;
    passkeySetup: PasskeySetup;
    recoveryCodes: RecoveryCodes;
    staffRequirement: StaffRequirement;
  },
): void {
  const { login, factors, totp, passkeySetup, recoveryCodes, staffRequirement } = services;

  calls.open('login/second/options', async ({ body }) => login.secondOptions(body.ticket));
  calls.open('login/second', async ({ body, request }) => {
    const { ticket, ...step } = body;
    return presentLogin(
      await login.second({
        ticket,
        step: step as SecondStep,
        address: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      }),
    );
  });
  calls.open('login/passkey/options', async ({ request }) => login.passkeyOptions(request.ip));
  calls.open('login/passkey', async ({ body, request }) =>
    presentLogin(
      await login.passkey({
        response: body.response,
        device: body.device,
        address: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      }),
    ),
  );

  calls.session('2fa/factors', 'account.use', async ({ actor }) => factors.status(actor));
  calls.session('2fa/totp/setup', 'account.use', async ({ actor }) => totp.setup(actor));
  calls.session('2fa/totp/confirm', 'account.use', async ({ actor, body }) => totp.confirm(actor, body.code));
  calls.session('2fa/totp/remove', 'account.use', async ({ actor }) => {
    await totp.remove(actor);
    return { ok: true };
  });
  calls.session('2fa/webauthn/register/options', 'account.use', async ({ actor }) =>
    passkeySetup.registerOptions(actor),
  );
  calls.session('2fa/webauthn/register/verify', 'account.use', async ({ actor, body }) =>
    passkeySetup.registerVerify(actor, body.response, body.name),
  );
  calls.session('2fa/webauthn/remove', 'account.use', async ({ actor, body }) => {
    await passkeySetup.remove(actor, body.id);
    return { ok: true };
  });
  calls.session('2fa/recovery/regenerate', 'account.use', async ({ actor }) =>
    recoveryCodes.regenerate(actor),
  );
  calls.session('2fa/staff-requirement', 'staff.manage', async ({ actor, body }) =>
    staffRequirement.set(actor, body.required),
  );
}
