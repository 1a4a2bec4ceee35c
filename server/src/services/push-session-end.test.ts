import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../db/schema.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { PushReceiver } from '../test/push-receiver.js';

/*
 * A subscription belongs to the session that registered it (product.md §16.3): when that session ends
 * without the device saying so (expired, then answered 401; ended by a new password elsewhere; a logout
 * that did not name it), the device stops receiving the user's pushes.
 */
describe('a push subscription ends with its session', () => {
  let receiver: PushReceiver;
  let ctx: TestContext;
  let member: TestUser;

  beforeAll(async () => {
    receiver = await PushReceiver.start();
    ctx = await createTestContext({ env: { PUSH_ALLOWED_HOSTS: receiver.allowedHost } });
    member = await createUser(ctx.app, { loginId: 'session-end', role: 101, name: '終了' });
  });

  afterAll(async () => {
    await ctx.close();
    await receiver.close();
  });

  const endpoints = async () =>
    (
      await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, member.uid))
    ).map((row) => row.endpoint);

  async function subscribed(name: string): Promise<{ ssid: string; endpoint: string }> {
    const ssid = await login(ctx.app, member);
    const phone = receiver.subscriber(name);
    expect((await call(ctx.app, 'subscript', { ssid, subscript: phone.toJSON() })).status).toBe(200);
    return { ssid, endpoint: phone.endpoint };
  }

  it('is kept while its session lives, and removed once the expired session is purged', async () => {
    const device = await subscribed('expiring');
    await ctx.app.services.sessions.purgeExpired();
    expect(await endpoints()).toContain(device.endpoint);
    // A year later the session has expired: and the purge takes the subscription.
    const later = Date.now() + 400 * 24 * 60 * 60 * 1000;
    const future = await ctx.buildApp({}, () => later);
    expect(await future.services.sessions.purgeExpired()).toBeGreaterThan(0);
    expect(await endpoints()).not.toContain(device.endpoint);
  });

  it('is removed with a logout that did not name it', async () => {
    const device = await subscribed('forgot');
    expect((await call(ctx.app, 'logout', { ssid: device.ssid })).status).toBe(200);
    expect(await endpoints()).not.toContain(device.endpoint);
  });

  it('answers push/check: registered only for the endpoint, user and session that registered it', async () => {
    const device = await subscribed('checked');
    const check = async (ssid: string, endpoint: string) =>
      (await call(ctx.app, 'push/check', { ssid, endpoint })).body as { registered: boolean };
    expect(await check(device.ssid, device.endpoint)).toEqual({ registered: true });
    expect(await check(device.ssid, `${device.endpoint}-other`)).toEqual({ registered: false });
    // Another session of the same member (another device, or after logging in again): not this one's.
    const other = await login(ctx.app, member);
    expect(await check(other, device.endpoint)).toEqual({ registered: false });
    const someone = await createUser(ctx.app, { loginId: 'session-check-2', role: 201, name: '別人' });
    expect(await check(await login(ctx.app, someone), device.endpoint)).toEqual({ registered: false });
    expect((await call(ctx.app, 'push/check', { ssid: 'nope', endpoint: device.endpoint })).status).toBe(401);
  });
});
