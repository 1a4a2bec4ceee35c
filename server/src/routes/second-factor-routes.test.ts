import { LoginReply, jaSecondStep } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createUser, type TestContext, type TestUser } from '../test/app.js';
import { STEP_MS, factorApp, factorSteps, stepStart, totpCodeAt } from '../test/second-factor.js';

describe('second factor: TOTP, login tickets and recovery codes', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  // Starts at the beginning of a TOTP step, so moving on by STEP_MS always reaches the next code.
  let now = stepStart();

  const totpCode = (secret: string, at = now) => totpCodeAt(secret, at);
  const { passwordStep, sessionOf, factors, withTotp } = factorSteps(
    () => app,
    () => now,
  );

  beforeAll(async () => {
    ({ ctx, app } = await factorApp(() => now));
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
});
