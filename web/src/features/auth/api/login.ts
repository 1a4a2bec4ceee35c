import { can, type CallReply, type LoginBody, type LoginReply, type SecondFactor } from '@enishi/contract';
import { startAuthentication } from '@simplewebauthn/browser';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { deviceTokenFor, keepDeviceToken } from '@/lib/device-tokens';
import { forgetLastScreens } from '@/lib/last-screen';
import { setSession, updateSession } from '@/lib/session';

/** Where a login goes next: done (perhaps to set up a second factor first), or to its second step. */
export type LoginOutcome =
  | { next: 'done'; setup: boolean }
  | { next: 'second'; ticket: string; factors: SecondFactor[]; id: string }
  | { next: 'first-password'; id: string; password: string };

/** The second step as the form sends it: a TOTP code, a recovery code, or the passkey (asked here). */
export type SecondStepInput = { ticket: string; id: string } & (
  { code: string } | { recovery_code: string } | { passkey: true }
);

/**
 * Keeps the session on this device (and the device token for the login ID). Staff learn at once whether
 * the owner makes them set up a second factor before anything else (product.md §11.7).
 */
async function finish(reply: LoginReply, id: string | null): Promise<LoginOutcome> {
  const { device, ...session } = reply;
  if (id) keepDeviceToken(id, device);
  // Screens kept by an earlier session on this device (product.md §15.6) are not this user's to see.
  await forgetLastScreens();
  setSession({ ...session, image: null });
  if (!can({ role: reply.role }, 'desk.use')) return { next: 'done', setup: false };
  const factors = await api('2fa/factors', {});
  if (factors.setup_required) updateSession({ secondFactorSetup: true });
  return { next: 'done', setup: factors.setup_required };
}

/** POST /api/login {id, password, device?}: a session, or a ticket for the second step. */
export async function logIn(body: Omit<LoginBody, 'device'>): Promise<LoginOutcome> {
  const device = deviceTokenFor(body.id);
  let reply;
  try {
    reply = await api('login', { ...body, ...(device ? { device } : {}) }, { public: true });
  } catch (error) {
    // An imported member's first password: they set their own before anything else (product.md §11.4).
    if (error instanceof ApiError && error.passwordChange)
      return { next: 'first-password', id: body.id, password: body.password };
    throw error;
  }
  return afterPassword(reply, body.id);
}

function afterPassword(reply: CallReply<'login'>, id: string): Promise<LoginOutcome> {
  if ('ticket' in reply)
    return Promise.resolve({ next: 'second', ticket: reply.ticket, factors: reply.second_factor, id });
  return finish(reply, id);
}

/** POST /api/login/first-password: the first password exchanged for the member's own, then logged in. */
export async function logInFirstPassword(input: {
  id: string;
  password: string;
  newPassword: string;
}): Promise<LoginOutcome> {
  const device = deviceTokenFor(input.id);
  const reply = await api(
    'login/first-password',
    {
      id: input.id,
      password: input.password,
      new_password: input.newPassword,
      ...(device ? { device } : {}),
    },
    { public: true },
  );
  return afterPassword(reply, input.id);
}

/** POST /api/login/second: the ticket with a code, a recovery code or the passkey's answer. */
export async function logInSecond(input: SecondStepInput): Promise<LoginOutcome> {
  const { ticket, id, ...step } = input;
  let reply: LoginReply;
  if ('passkey' in step) {
    const optionsJSON = await api('login/second/options', { ticket }, { public: true });
    const webauthn = await startAuthentication({ optionsJSON: optionsJSON as never });
    reply = await api('login/second', { ticket, webauthn: webauthn as never }, { public: true });
  } else {
    reply = await api('login/second', { ticket, ...step }, { public: true });
  }
  return finish(reply, id);
}

/** A passwordless login with a passkey of this site (the browser lets the person choose one). */
export async function logInWithPasskey(): Promise<LoginOutcome> {
  const optionsJSON = await api('login/passkey/options', {}, { public: true });
  const response = await startAuthentication({ optionsJSON: optionsJSON as never });
  return finish(await api('login/passkey', { response: response as never }, { public: true }), null);
}
