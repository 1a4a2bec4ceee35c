import { LoginReply, type WebauthnOptions, ja, jaMember } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestContext, type TestUser } from '../test/app.js';
import { factorApp, factorSteps, stepStart, totpCodeAt } from '../test/second-factor.js';
import type { SoftAuthenticator } from '../test/soft-authenticator.js';

describe('second factor: the owner\u2019s requirement for staff', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  // At the beginning of a TOTP step (test/second-factor.ts).
  const now = stepStart();
  let owner: TestUser;
  let staff: TestUser;
  let plainMember: TestUser;

  const totpCode = (secret: string, at = now) => totpCodeAt(secret, at);
  const { sessionOf, factors, withPasskey } = factorSteps(
    () => app,
    () => now,
  );

  beforeAll(async () => {
    ({ ctx, app } = await factorApp(() => now));
    owner = await createUser(app, { loginId: 'owner', role: 2 });
    staff = await createUser(app, { loginId: 'staff-1', role: 3 });
    plainMember = await createUser(app, { loginId: 'hanako', role: 201 });
  });
  afterAll(() => ctx.close());

  describe('the owner requires a second factor for staff', () => {
    // Only an owner with a factor of their own and fresh proof switches it (product.md §11.8).
    let ownerSession: string;
    let ownerKey: SoftAuthenticator;
    const freshOwner = async () => {
      const request = (await call(app, 'reauth/options', { ssid: ownerSession })).body as WebauthnOptions;
      const webauthn = ownerKey.assert(request as never);
      expect(
        (await call(app, 'reauth', { ssid: ownerSession, password: owner.password, webauthn })).status,
      ).toBe(200);
    };
    beforeAll(async () => {
      ownerSession = await sessionOf(owner);
      ({ authenticator: ownerKey } = await withPasskey(ownerSession));
    });

    it('only the owner switches it, and the switch is in the audit log', async () => {
      const staffSession = await sessionOf(await createUser(app, { loginId: 'staff-2', role: 3 }));
      expect(await call(app, '2fa/staff-requirement', { ssid: staffSession, required: true })).toMatchObject({
        status: 403,
      });
      await freshOwner();
      await call(app, '2fa/staff-requirement', { ssid: ownerSession, required: false });
      const notBoolean = await call(app, '2fa/staff-requirement', { ssid: ownerSession, required: 'yes' });
      expect(notBoolean).toMatchObject({ status: 400, body: { error: ja.errors.badRequest } });
      expect(await call(app, '2fa/staff-requirement', { ssid: ownerSession, required: true })).toMatchObject({
        status: 200,
        body: { staff_required: true },
      });
      const audit = await call(app, 'auditlog', { ssid: ownerSession, page: 0, action: 'security' });
      expect((audit.body as { rows: unknown[] }).rows).toContainEqual(
        expect.objectContaining({
          action: 'security',
          actor: { uid: owner.uid, name: owner.name },
          changes: { staff_second_factor: [false, true] },
        }),
      );
    });

    it('gives staff without a factor a session that may only set one up, until they do', async () => {
      await freshOwner();
      await call(app, '2fa/staff-requirement', { ssid: ownerSession, required: true });
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
