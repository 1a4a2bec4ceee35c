import { FactorsReply, LoginReply, ja, type WebauthnOptions, jaMember, jaSecondStep } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { SoftAuthenticator } from '../test/soft-authenticator.js';

const ORIGIN = 'http://localhost:5173';
const STEP_MS = 30_000;

describe('second factor: TOTP, passkeys, recovery codes, tickets, the staff requirement', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  // Starts at the beginning of a TOTP step, so moving on by STEP_MS always reaches the next code.
  let now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;
  let owner: TestUser;
  let staff: TestUser;
  let member: TestUser;
  let plainMember: TestUser;

  const totpCode = (secret: string, at = now) => generateSync({ secret, epoch: Math.floor(at / 1000) });
  const passwordStep = async (user: TestUser) => {
    const reply = await call(app, 'login', { id: user.loginId, password: user.password });
    expect(reply.status).toBe(200);
    return reply.body as { ticket: string; second_factor: string[] };
  };
  const sessionOf = async (user: TestUser) => {
    const reply = await call(app, 'login', { id: user.loginId, password: user.password });
    return LoginReply.parse(reply.body).session;
  };
  const factors = async (ssid: string) => FactorsReply.parse((await call(app, '2fa/factors', { ssid })).body);
  const withTotp = async (user: TestUser) => {
    const ssid = await sessionOf(user);
    const { secret } = (await call(app, '2fa/totp/setup', { ssid })).body as { secret: string };
    const confirmed = await call(app, '2fa/totp/confirm', { ssid, code: totpCode(secret) });
    expect(confirmed.status).toBe(200);
    return { ssid, secret, codes: (confirmed.body as { recovery_codes: string[] }).recovery_codes };
  };
  const withPasskey = async (ssid: string) => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = (await call(app, '2fa/webauthn/register/options', { ssid })).body as WebauthnOptions;
    const reply = await call(app, '2fa/webauthn/register/verify', {
      ssid,
      response: authenticator.register(options as never),
      name: 'iPhone',
    });
    expect(reply.status).toBe(200);
    return { authenticator, reply: reply.body as { ok: true; recovery_codes?: string[] } };
  };

  beforeAll(async () => {
    ctx = await createTestContext({ env: { PUBLIC_ORIGIN: ORIGIN } });
    app = await ctx.buildApp({}, () => now);
    owner = await createUser(app, { loginId: 'owner', role: 2 });
    staff = await createUser(app, { loginId: 'staff-1', role: 3 });
    member = await createUser(app, { loginId: 'taro', role: 101 });
    plainMember = await createUser(app, { loginId: 'hanako', role: 201 });
  });
  afterAll(() => ctx.close());

  describe('TOTP', () => {
    // Each test has its own account with TOTP set up (and its recovery codes): they run in any order.
    let user: TestUser;
    let secret: string;
    let codes: string[];
    let accounts = 0;
    beforeEach(async () => {
      accounts += 1;
      user = await createUser(app, { loginId: `totp-staff-${accounts}`, role: 3 });
      ({ secret, codes } = await withTotp(user));
      now += STEP_MS;
    });

    it('sets up with a base32 secret and an otpauth URI, confirmed only by a right code', async () => {
      const user = await createUser(app, { loginId: 'totp-new', role: 3 });
      const ssid = await sessionOf(user);
      const setup = await call(app, '2fa/totp/setup', { ssid });
      expect(setup.status).toBe(200);
      const { secret } = setup.body as { secret: string; uri: string };
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      expect((setup.body as { uri: string }).uri).toMatch(/^otpauth:\/\/totp\/.*totp-new.*secret=/);

      const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
      expect(await call(app, '2fa/totp/confirm', { ssid, code: wrong })).toMatchObject({
        status: 400,
        body: { error: jaSecondStep.errors.codeWrong },
      });
      expect(await call(app, '2fa/totp/confirm', { ssid, code: '12ab' })).toMatchObject({
        status: 400,
        body: { error: jaSecondStep.errors.codeFormat },
      });
      expect((await factors(ssid)).totp).toBe(false);
      // Still one step: the password alone logs in.
      expect(
        LoginReply.safeParse((await call(app, 'login', { id: user.loginId, password: user.password })).body)
          .success,
      ).toBe(true);

      const confirmed = await call(app, '2fa/totp/confirm', { ssid, code: totpCode(secret) });
      expect(confirmed.status).toBe(200);
      const codes = (confirmed.body as { recovery_codes: string[] }).recovery_codes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      expect(await factors(ssid)).toMatchObject({ totp: true, recovery_codes_left: 10 });
    });

    it('answers the password with a ticket and no session, then logs in with the next code', async () => {
      const first = await call(app, 'login', { id: user.loginId, password: user.password });
      expect(first.status).toBe(200);
      expect(Object.keys(first.body as object).sort()).toEqual(['second_factor', 'ticket']);
      const { ticket } = first.body as { ticket: string };
      expect((first.body as { second_factor: string[] }).second_factor).toEqual(['totp']);
      // The code that confirmed the setup is spent: it is never accepted twice.
      expect(
        await call(app, 'login/second', { ticket, code: totpCode(secret, now - STEP_MS) }),
      ).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.codeWrong },
      });
      now += STEP_MS;
      const second = await call(app, 'login/second', { ticket, code: totpCode(secret) });
      expect(second.status).toBe(200);
      const body = LoginReply.parse(second.body);
      expect(body.uid).toBe(user.uid);
      expect((await call(app, '2fa/factors', { ssid: body.session })).status).toBe(200);
      // The ticket did its work: it logs in once.
      now += STEP_MS;
      expect(await call(app, 'login/second', { ticket, code: totpCode(secret) })).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.ticketExpired },
      });
    });

    it('refuses a stale code (two steps old) and a code from another secret', async () => {
      const { ticket } = await passwordStep(user);
      now += STEP_MS;
      expect(
        await call(app, 'login/second', { ticket, code: totpCode(secret, now - 2 * STEP_MS) }),
      ).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.codeWrong },
      });
      expect(
        await call(app, 'login/second', { ticket, code: totpCode('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') }),
      ).toMatchObject({ status: 401, body: { error: jaSecondStep.errors.codeWrong } });
      expect((await call(app, 'login/second', { ticket, code: totpCode(secret) })).status).toBe(200);
    });

    it('allows a ticket 5 tries: the sixth is refused even with the right code', async () => {
      const { ticket } = await passwordStep(user);
      now += STEP_MS;
      for (let i = 0; i < 5; i += 1)
        expect(
          (
            await call(app, 'login/second', {
              ticket,
              code: '000000' === totpCode(secret) ? '111111' : '000000',
            })
          ).status,
        ).toBe(401);
      expect(await call(app, 'login/second', { ticket, code: totpCode(secret) })).toMatchObject({
        status: 429,
        body: { error: jaSecondStep.errors.ticketTooManyTries },
      });
      expect(await call(app, 'login/second/options', { ticket })).toMatchObject({ status: 429 });
    });

    it('refuses a ticket after its 5 minutes, and one that never was', async () => {
      const { ticket } = await passwordStep(user);
      now += 5 * 60_000 + 1;
      expect(await call(app, 'login/second', { ticket, code: totpCode(secret) })).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.ticketExpired },
      });
      expect(await call(app, 'login/second', { ticket: 'made-up', code: '123456' })).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.ticketExpired },
      });
    });

    it('takes a recovery code once, in any case and without hyphens', async () => {
      const code = codes[0]!;
      const { ticket } = await passwordStep(user);
      const reply = await call(app, 'login/second', {
        ticket,
        recovery_code: code.replace(/-/g, '').toUpperCase(),
      });
      expect(reply.status).toBe(200);
      const again = await passwordStep(user);
      expect(await call(app, 'login/second', { ticket: again.ticket, recovery_code: code })).toMatchObject({
        status: 401,
        body: { error: jaSecondStep.errors.recoveryWrong },
      });
      expect((await factors(LoginReply.parse(reply.body).session)).recovery_codes_left).toBe(9);
    });

    it('wants exactly one of code, passkey and recovery code', async () => {
      const { ticket } = await passwordStep(user);
      for (const body of [{ ticket }, { ticket, code: '123456', recovery_code: codes[1] }])
        expect(await call(app, 'login/second', body)).toMatchObject({
          status: 400,
          body: { error: jaSecondStep.errors.secondStepOneOf },
        });
    });

    it('regenerates recovery codes: the old ones stop working', async () => {
      now += STEP_MS;
      const { ticket } = await passwordStep(user);
      const { session } = LoginReply.parse(
        (await call(app, 'login/second', { ticket, code: totpCode(secret) })).body,
      );
      const fresh = await call(app, '2fa/recovery/regenerate', { ssid: session });
      expect((fresh.body as { recovery_codes: string[] }).recovery_codes).toHaveLength(10);
      const next = await passwordStep(user);
      expect((await call(app, 'login/second', { ticket: next.ticket, recovery_code: codes[2] })).status).toBe(
        401,
      );
    });
  });

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

  describe('the owner requires a second factor for staff', () => {
    it('only the owner switches it, and the switch is in the audit log', async () => {
      const staffSession = await sessionOf(await createUser(app, { loginId: 'staff-2', role: 3 }));
      expect(await call(app, '2fa/staff-requirement', { ssid: staffSession, required: true })).toMatchObject({
        status: 403,
      });
      // The owner is staff too: while it is required, a login without a factor may only set one up.
      await call(app, '2fa/staff-requirement', { ssid: await sessionOf(owner), required: false });
      const ownerSession = await sessionOf(owner);
      const notBoolean = await call(app, '2fa/staff-requirement', { ssid: ownerSession, required: 'yes' });
      expect(notBoolean).toMatchObject({ status: 400, body: { error: ja.errors.badRequest } });
      expect(await call(app, '2fa/staff-requirement', { ssid: ownerSession, required: true })).toMatchObject({
        status: 200,
        body: { staff_required: true },
      });
      const audit = await call(app, 'auditlog', { ssid: ownerSession, page: 0 });
      expect((audit.body as { rows: unknown[] }).rows[0]).toMatchObject({
        action: 'security',
        actor: { uid: owner.uid },
        changes: { staff_second_factor: [false, true] },
      });
    });

    it('gives staff without a factor a session that may only set one up, until they do', async () => {
      await call(app, '2fa/staff-requirement', { ssid: await sessionOf(owner), required: true });
      const reply = await call(app, 'login', { id: staff.loginId, password: staff.password });
      const { session } = LoginReply.parse(reply.body);
      expect(await call(app, 'config', { ssid: session })).toMatchObject({
        status: 403,
        body: { error: jaMember.security.errors.secondFactorSetupFirst },
      });
      expect(await factors(session)).toMatchObject({ setup_required: true, staff_required: true });
      // Members are not concerned.
      expect((await call(app, 'config', { ssid: await sessionOf(plainMember) })).status).toBe(200);

      const { secret } = (await call(app, '2fa/totp/setup', { ssid: session })).body as { secret: string };
      expect((await call(app, '2fa/totp/confirm', { ssid: session, code: totpCode(secret) })).status).toBe(
        200,
      );
      expect((await call(app, 'config', { ssid: session })).status).toBe(200);
      expect((await factors(session)).setup_required).toBe(false);
      // The last factor stays while the owner requires one.
      expect(await call(app, '2fa/totp/remove', { ssid: session })).toMatchObject({
        status: 400,
        body: { error: jaMember.security.errors.lastFactorRequired },
      });
      expect((await factors(session)).totp).toBe(true);
    });
  });
});
