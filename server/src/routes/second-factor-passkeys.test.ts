import { LoginReply, type WebauthnOptions, jaSecondStep } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestContext, type TestUser } from '../test/app.js';
import { ORIGIN, STEP_MS, factorApp, factorSteps, stepStart, totpCodeAt } from '../test/second-factor.js';
import { SoftAuthenticator } from '../test/soft-authenticator.js';

describe('second factor: passkeys, as a second step and alone', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  // Starts at the beginning of a TOTP step, so moving on by STEP_MS always reaches the next code.
  let now = stepStart();
  let member: TestUser;

  const totpCode = (secret: string, at = now) => totpCodeAt(secret, at);
  const { passwordStep, sessionOf, factors, withTotp, withPasskey } = factorSteps(
    () => app,
    () => now,
  );

  beforeAll(async () => {
    ({ ctx, app } = await factorApp(() => now));
    member = await createUser(app, { loginId: 'taro', role: 101 });
  });
  afterAll(() => ctx.close());

  describe('passkeys', () => {
    it('registers a passkey for staff with TOTP, and logs in with it as the second step', async () => {
      const user = await createUser(app, { loginId: 'passkey-staff', role: 1 });
      const { ssid, secret } = await withTotp(user);
      const { authenticator, reply } = await withPasskey(ssid);
      // Recovery codes came with TOTP, so none are handed out again.
      expect(reply.recovery_codes).toBeUndefined();
      expect((await factors(ssid)).passkeys).toEqual([
        expect.objectContaining({ id: authenticator.credentialId, name: 'iPhone', last_used_at: null }),
      ]);

      const { ticket, second_factor } = await passwordStep(user);
      expect(second_factor).toEqual(['webauthn', 'totp']);
      const options = (await call(app, 'login/second/options', { ticket })).body as WebauthnOptions;
      const assertion = authenticator.assert(options);
      const done = await call(app, 'login/second', { ticket, webauthn: assertion });
      expect(done.status).toBe(200);
      expect(LoginReply.parse(done.body).uid).toBe(user.uid);

      // Replayed on a new ticket: that ticket's challenge is another one.
      const next = await passwordStep(user);
      await call(app, 'login/second/options', { ticket: next.ticket });
      expect(await call(app, 'login/second', { ticket: next.ticket, webauthn: assertion })).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.passkeyExpired },
      });
      // Signed for the new challenge but with a counter that went back: a cloned authenticator.
      const fresh = (await call(app, 'login/second/options', { ticket: next.ticket }))
        .body as WebauthnOptions;
      authenticator.counter -= 1;
      expect(
        await call(app, 'login/second', { ticket: next.ticket, webauthn: authenticator.assert(fresh) }),
      ).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.passkeyFailed },
      });
      now += STEP_MS;
      expect((await call(app, 'login/second', { ticket: next.ticket, code: totpCode(secret) })).status).toBe(
        200,
      );
    });

    it('refuses a registration response used twice, and one for another challenge', async () => {
      const user = await createUser(app, { loginId: 'replay-staff', role: 3 });
      const ssid = await sessionOf(user);
      const authenticator = new SoftAuthenticator(ORIGIN);
      const options = (await call(app, '2fa/webauthn/register/options', { ssid })).body as WebauthnOptions;
      const response = authenticator.register(options as never);
      expect(await call(app, '2fa/webauthn/register/verify', { ssid, response })).toMatchObject({
        status: 200,
      });
      expect(await call(app, '2fa/webauthn/register/verify', { ssid, response })).toMatchObject({
        status: 400,
        body: { error: jaSecondStep.errors.passkeyExpired },
      });
      const other = new SoftAuthenticator('https://evil.example');
      const next = (await call(app, '2fa/webauthn/register/options', { ssid })).body as WebauthnOptions;
      expect(
        await call(app, '2fa/webauthn/register/verify', { ssid, response: other.register(next as never) }),
      ).toMatchObject({ status: 400, body: { error: jaSecondStep.errors.passkeyFailed } });
      expect((await factors(ssid)).passkeys).toHaveLength(1);
    });

    it('lets a member log in with a passkey alone (discoverable), once per challenge', async () => {
      const ssid = await sessionOf(member);
      const { authenticator, reply } = await withPasskey(ssid);
      // The first factor comes with recovery codes.
      expect(reply.recovery_codes).toHaveLength(10);
      const options = (await call(app, 'login/passkey/options', {})).body as WebauthnOptions;
      expect(options).not.toHaveProperty('allowCredentials.0');
      const assertion = authenticator.assert(options);
      const done = await call(app, 'login/passkey', { response: assertion });
      expect(done.status).toBe(200);
      expect(LoginReply.parse(done.body)).toMatchObject({ uid: member.uid, role: 101 });
      expect(await call(app, 'login/passkey', { response: assertion })).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.passkeyExpired },
      });
      const unknown = new SoftAuthenticator(ORIGIN);
      const again = (await call(app, 'login/passkey/options', {})).body as WebauthnOptions;
      expect(await call(app, 'login/passkey', { response: unknown.assert(again) })).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.passkeyUnknown },
      });
      // Without user verification a passkey alone is not enough.
      const third = (await call(app, 'login/passkey/options', {})).body as WebauthnOptions;
      expect(
        await call(app, 'login/passkey', { response: authenticator.assert(third, { userVerified: false }) }),
      ).toMatchObject({ status: 401, body: { error: jaSecondStep.errors.passkeyFailed } });
    });

    it('removes a passkey: the account is back to the password alone', async () => {
      const user = await createUser(app, { loginId: 'remove-member', role: 201 });
      const ssid = await sessionOf(user);
      const { authenticator } = await withPasskey(ssid);
      expect(await call(app, '2fa/webauthn/remove', { ssid, id: 'nope' })).toMatchObject({ status: 404 });
      expect((await call(app, '2fa/webauthn/remove', { ssid, id: authenticator.credentialId })).status).toBe(
        200,
      );
      expect(await factors(ssid)).toMatchObject({ passkeys: [], recovery_codes_left: 0 });
      expect(
        LoginReply.safeParse((await call(app, 'login', { id: user.loginId, password: user.password })).body)
          .success,
      ).toBe(true);
    });
  });
});
