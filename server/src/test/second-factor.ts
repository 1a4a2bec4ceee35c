import { FactorsReply, LoginReply, type WebauthnOptions } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { generateSync } from 'otplib';
import { expect } from 'vitest';
import { call, createTestContext, type TestContext, type TestUser } from './app.js';
import { SoftAuthenticator } from './soft-authenticator.js';

/*
 * What the second-factor route tests share (routes/second-factor-*.test.ts, product.md §11.7): a clock on
 * TOTP steps, and the steps of logging in and setting factors up through the API.
 */

/** The site the soft authenticator's passkeys belong to (the tests' PUBLIC_ORIGIN). */
export const ORIGIN = 'http://localhost:5173';
export const STEP_MS = 30_000;

/** The beginning of a TOTP step (plus a second), so moving on by STEP_MS always reaches the next code. */
export const stepStart = () => Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;

/** The TOTP code of `secret` at `at` (ms). */
export const totpCodeAt = (secret: string, at: number) =>
  generateSync({ secret, epoch: Math.floor(at / 1000) });

/** A test database and an app on `clock` whose passkeys belong to ORIGIN. */
export async function factorApp(clock: () => number): Promise<{ ctx: TestContext; app: FastifyInstance }> {
  const ctx = await createTestContext({ env: { PUBLIC_ORIGIN: ORIGIN } });
  return { ctx, app: await ctx.buildApp({}, clock) };
}

/** The login and setup steps against the app `appOf` returns (read when called, so beforeAll may build it). */
export function factorSteps(appOf: () => FastifyInstance, clock: () => number) {
  const passwordStep = async (user: TestUser) => {
    const reply = await call(appOf(), 'login', { id: user.loginId, password: user.password });
    expect(reply.status).toBe(200);
    return reply.body as { ticket: string; second_factor: string[] };
  };
  const sessionOf = async (user: TestUser) => {
    const reply = await call(appOf(), 'login', { id: user.loginId, password: user.password });
    return LoginReply.parse(reply.body).session;
  };
  const factors = async (ssid: string) =>
    FactorsReply.parse((await call(appOf(), '2fa/factors', { ssid })).body);
  const withTotp = async (user: TestUser) => {
    const ssid = await sessionOf(user);
    const { secret } = (await call(appOf(), '2fa/totp/setup', { ssid })).body as { secret: string };
    const confirmed = await call(appOf(), '2fa/totp/confirm', { ssid, code: totpCodeAt(secret, clock()) });
    expect(confirmed.status).toBe(200);
    return { ssid, secret, codes: (confirmed.body as { recovery_codes: string[] }).recovery_codes };
  };
  const withPasskey = async (ssid: string) => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = (await call(appOf(), '2fa/webauthn/register/options', { ssid })).body as WebauthnOptions;
    const reply = await call(appOf(), '2fa/webauthn/register/verify', {
      ssid,
      response: authenticator.register(options as never),
      name: 'iPhone',
    });
    expect(reply.status).toBe(200);
    return { authenticator, reply: reply.body as { ok: true; recovery_codes?: string[] } };
  };
  return { passwordStep, sessionOf, factors, withTotp, withPasskey };
}
