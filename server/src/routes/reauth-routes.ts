import type { apiCalls } from '../http/calls.js';
import type { AccountNotices } from '../services/account-notices.js';
import type { ReauthService } from '../services/reauth-service.js';
import type { SecondStep } from '../services/factor-answers.js';

/** Fresh proof before a sensitive change, and the notices about one's account (product.md §11.8). */
export function reauthRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { reauth: ReauthService; notices: AccountNotices },
): void {
  const { reauth, notices } = services;
  calls.session('reauth', 'account.use', async ({ actor, body, request }) => {
    const { ssid: _ssid, password, ...step } = body;
    const given = Object.keys(step).length > 0 ? (step as SecondStep) : null;
    return reauth.prove(actor, { password, step: given, address: request.ip });
  });
  calls.session('reauth/options', 'account.use', async ({ actor }) => reauth.options(actor));
  calls.session('notices', 'account.use', async ({ actor }) => notices.list(actor));
  calls.session('notices/dismiss', 'account.use', async ({ actor, body }) => notices.dismiss(actor, body.id));
}
