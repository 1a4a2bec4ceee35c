import {
  AuditLogReply,
  LoginReply,
  NoticesReply,
  REAUTH_WINDOW_S,
  ReauthReply,
  type WebauthnOptions,
  jaMember,
  jaSecondStep,
} from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { SoftAuthenticator } from '../test/soft-authenticator.js';

/*
 * Outcome 2 of issue 44 (product.md §11.8): a session alone, past its fresh window, can change nothing about
 * how its person logs in; /api/reauth proves the person again (password, and their factor when they have one).
 */

const ORIGIN = 'http://localhost:5173';
const STEP_MS = 30_000;
const WINDOW_MS = REAUTH_WINDOW_S * 1000;
const needsProof = { status: 403, body: { error: jaMember.reauth.errors.required, reauth: true } };

describe('sensitive changes need fresh proof', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;
  let owner: TestUser;
  let accounts = 0;

  const codeAt = (secret: string) => generateSync({ secret, epoch: Math.floor(now / 1000) });
  const sessionOf = async (user: TestUser) =>
    LoginReply.parse((await call(app, 'login', { id: user.loginId, password: user.password })).body).session;
  /** A staff member with TOTP, and a session of theirs (logged in through the second step). */
  async function staffWithTotp() {
    accounts += 1;
    const user = await createUser(app, { loginId: `fresh-${accounts}`, role: 3 });
    const ssid = await sessionOf(user);
    const { secret } = (await call(app, '2fa/totp/setup', { ssid })).body as { secret: string };
    const confirmed = await call(app, '2fa/totp/confirm', { ssid, code: codeAt(secret) });
    expect(confirmed.status).toBe(200);
    now += STEP_MS;
    return { user, ssid, secret, codes: (confirmed.body as { recovery_codes: string[] }).recovery_codes };
  }

  beforeAll(async () => {
    ctx = await createTestContext({ env: { PUBLIC_ORIGIN: ORIGIN } });
    app = await ctx.buildApp({}, () => now);
    owner = await createUser(app, { loginId: 'fresh-owner', role: 2 });
  });
  afterAll(() => ctx.close());

  it('refuses every sensitive change of a stolen session past the window, then lets the person through with password and code', async () => {
    const { user, ssid, secret } = await staffWithTotp();
    const passkey = new SoftAuthenticator(ORIGIN);
    now += WINDOW_MS;

    // What a thief holding only the session tried (issue 44): each is refused and changes nothing.
    expect(await call(app, '2fa/webauthn/register/options', { ssid })).toMatchObject(needsProof);
    expect(await call(app, '2fa/totp/remove', { ssid })).toMatchObject(needsProof);
    expect(await call(app, '2fa/recovery/regenerate', { ssid })).toMatchObject(needsProof);
    expect(await call(app, '2fa/totp/setup', { ssid })).toMatchObject(needsProof);
    expect(await call(app, '2fa/webauthn/remove', { ssid, id: 'some-passkey' })).toMatchObject(needsProof);
    expect(await call(app, 'sessions/revoke_others', { ssid })).toMatchObject(needsProof);
    const factors = (await call(app, '2fa/factors', { ssid })).body;
    expect(factors).toMatchObject({ totp: true, passkeys: [], recovery_codes_left: 10 });

    // Proof: the password alone is not enough for an account with a factor; wrong answers are 400s.
    expect(await call(app, 'reauth', { ssid, password: 'wrong-pass' })).toMatchObject({
      status: 400,
      body: { error: jaMember.reauth.errors.passwordWrong },
    });
    expect(await call(app, 'reauth', { ssid, password: user.password })).toMatchObject({
      status: 400,
      body: { error: jaMember.reauth.errors.secondStepMissing },
    });
    const wrong = String((Number(codeAt(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    expect(await call(app, 'reauth', { ssid, password: user.password, code: wrong })).toMatchObject({
      status: 400,
      body: { error: jaSecondStep.errors.codeWrong },
    });
    const proof = await call(app, 'reauth', { ssid, password: user.password, code: codeAt(secret) });
    expect(proof.status).toBe(200);
    expect(ReauthReply.parse(proof.body).until).toBe(new Date(now + WINDOW_MS).toISOString());

    // Then the change goes through, and is audited and noticed.
    const options = (await call(app, '2fa/webauthn/register/options', { ssid })).body as WebauthnOptions;
    const added = await call(app, '2fa/webauthn/register/verify', {
      ssid,
      response: passkey.register(options as never),
      name: 'iPhone',
    });
    expect(added.status).toBe(200);
    const notices = NoticesReply.parse((await call(app, 'notices', { ssid })).body);
    expect(notices.rows.map((row) => row.kind)).toEqual(['passkey_added', 'totp_added']);
    const audit = AuditLogReply.parse(
      (await call(app, 'auditlog', { ssid: await sessionOf(owner), page: 0, action: 'security' })).body,
    );
    expect(audit.rows.filter((row) => row.actor.uid === user.uid).map((row) => row.changes)).toEqual([
      { passkey: [null, 'iPhone'] },
      { totp: [false, true] },
    ]);

    // The proof lasts the window, not longer.
    now += WINDOW_MS;
    expect(await call(app, '2fa/totp/remove', { ssid })).toMatchObject(needsProof);
  });

  it('takes a recovery code or a passkey as the second part of the proof', async () => {
    const { user, ssid, codes } = await staffWithTotp();
    const passkey = new SoftAuthenticator(ORIGIN);
    const options = (await call(app, '2fa/webauthn/register/options', { ssid })).body as WebauthnOptions;
    await call(app, '2fa/webauthn/register/verify', { ssid, response: passkey.register(options as never) });
    now += WINDOW_MS;
    expect(await call(app, '2fa/recovery/regenerate', { ssid })).toMatchObject(needsProof);
    expect(
      (await call(app, 'reauth', { ssid, password: user.password, recovery_code: codes[0]! })).status,
    ).toBe(200);
    expect((await call(app, '2fa/recovery/regenerate', { ssid })).status).toBe(200);

    now += WINDOW_MS;
    const request = (await call(app, 'reauth/options', { ssid })).body as WebauthnOptions;
    const webauthn = passkey.assert(request as never);
    expect((await call(app, 'reauth', { ssid, password: user.password, webauthn })).status).toBe(200);
    // A passkey answer is used once.
    expect(await call(app, 'reauth', { ssid, password: user.password, webauthn })).toMatchObject({
      status: 400,
      body: { error: jaSecondStep.errors.passkeyExpired },
    });
    expect((await call(app, 'sessions/revoke_others', { ssid })).status).toBe(200);
  });

  it('asks an account without a factor for its password only, and a new password of one\u2019s own needs it too', async () => {
    accounts += 1;
    const self = await createUser(app, { loginId: `fresh-owner-${accounts}`, role: 2 });
    const ssid = await sessionOf(self);
    const form = { uid: self.uid, id: self.loginId, name: self.name, rank: 0, role: 2, introducer: '' };
    // Fresh from the login: a new password goes through at once.
    expect((await call(app, 'updateuser', { ssid, ...form, pass: 'New-pass-1' })).status).toBe(200);
    now += WINDOW_MS;
    expect(await call(app, 'updateuser', { ssid, ...form, pass: 'New-pass-2' })).toMatchObject(needsProof);
    // The rest of the record stays editable without proof.
    expect((await call(app, 'updateuser', { ssid, ...form, name: '名前 変更' })).status).toBe(200);
    expect((await call(app, 'reauth', { ssid, password: 'New-pass-1' })).status).toBe(200);
    expect((await call(app, 'updateuser', { ssid, ...form, pass: 'New-pass-2' })).status).toBe(200);
    const notices = NoticesReply.parse((await call(app, 'notices', { ssid })).body);
    expect(notices.rows.map((row) => row.kind)).toEqual(['password_changed', 'password_changed']);
    // Dismissed, a notice is gone from the list; another person's id changes nothing.
    const dismissed = await call(app, 'notices/dismiss', { ssid, id: notices.rows[0]!.id });
    expect(NoticesReply.parse(dismissed.body).rows).toHaveLength(1);
  });

  it('counts a REAUTH_WINDOW_S of the operator\u2019s', async () => {
    const short = await ctx.buildApp({ REAUTH_WINDOW_S: '60' }, () => now);
    accounts += 1;
    const user = await createUser(short, { loginId: `fresh-short-${accounts}`, role: 201 });
    const ssid = LoginReply.parse(
      (await call(short, 'login', { id: user.loginId, password: user.password })).body,
    ).session;
    now += 59_000;
    expect((await call(short, '2fa/totp/setup', { ssid })).status).toBe(200);
    now += 2_000;
    expect(await call(short, '2fa/totp/setup', { ssid })).toMatchObject(needsProof);
  });
});
