import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { PushReceiver } from '../test/push-receiver.js';
import { testRedisUrl } from '../test/redis.js';
import { listen, TestSocket } from '../test/socket.js';
import { deskOf, postMessage } from '../test/talk.js';
import { connectSharedState, type SharedState } from './shared-state.js';

/*
 * Push with two instances sharing the database and Redis (product.md §16.7, §20): each message is pushed by
 * the instance that stored it, once per subscription, whichever instances the recipient's sockets are on.
 */
const REDIS_URL = testRedisUrl(7);

describe('push across two instances', () => {
  let receiver: PushReceiver;
  let ctx: TestContext;
  const shared: SharedState[] = [];
  const instances: FastifyInstance[] = [];
  const bases: string[] = [];
  let staff: TestUser;
  let man: TestUser;
  const ssid: Record<string, string> = {};
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    receiver = await PushReceiver.start();
    const env = { PUSH_ALLOWED_HOSTS: receiver.allowedHost };
    ctx = await createTestContext({ env });
    for (let i = 0; i < 2; i += 1) {
      const state = await connectSharedState(REDIS_URL, (error) => {
        throw error;
      });
      shared.push(state);
      const app = await ctx.buildApp(env, undefined, {
        fanout: state.fanout,
        rateLimiters: state.rateLimiters,
        fairUse: state.fairUse,
        push: { ca: receiver.ca, foreground: state.foreground },
      });
      instances.push(app);
      bases.push(await listen(app));
    }
    staff = await createUser(ctx.app, { loginId: 'multi-staff', role: 3, name: 'スタッフ' });
    man = await createUser(ctx.app, { loginId: 'multi-man', role: 101, name: '山田' });
    for (const user of [staff, man]) ssid[user.loginId] = await login(ctx.app, user);
    const key = await call(instances[0]!, 'pushkey', { ssid: ssid['multi-man'] });
    receiver.publicKey = (key.body as { publicKey: string }).publicKey;
    // The other instance reads the same key pair from the database.
    expect((await call(instances[1]!, 'pushkey', { ssid: ssid['multi-man'] })).body).toEqual(key.body);
  });

  afterAll(async () => {
    for (const socket of sockets) await socket.close();
    for (const app of instances) await app.close();
    for (const state of shared) await state.close();
    await ctx.close();
    await receiver.close();
  });

  /** Both instances have sent every push they had to send. */
  const bothIdle = () => Promise.all(instances.map((app) => app.services.pushNotifier.idle()));

  it('sends one push per subscription for a message, with the member connected to both instances', async () => {
    const [one, two] = instances as [FastifyInstance, FastifyInstance];
    const phone = receiver.subscriber('multi-phone');
    expect(
      (await call(one, 'subscript', { ssid: ssid['multi-man'], subscript: phone.toJSON() })).status,
    ).toBe(200);
    // The member's app is open but not on screen, on both instances.
    for (const base of bases) sockets.push(await TestSocket.session(base, ssid['multi-man']!));
    const desk = await deskOf(one, ssid['multi-man']!);

    await postMessage(two, ssid['multi-staff']!, desk, '一通目');
    await receiver.waitFor('multi-phone');
    await postMessage(one, ssid['multi-staff']!, desk, '二通目');
    await receiver.waitFor('multi-phone', 2);
    await bothIdle();
    expect(receiver.to('multi-phone')).toHaveLength(2);
    expect(receiver.problems).toEqual([]);

    // On screen through the socket on one instance: the other instance's message is not pushed.
    sockets[0]!.send({ type: 'visibility', visible: true });
    await expect
      .poll(async () => (await shared[1]!.foreground.away([man.uid])).length, { interval: 20 })
      .toBe(0);
    await postMessage(two, ssid['multi-staff']!, desk, '三通目');
    await bothIdle();
    expect(receiver.to('multi-phone')).toHaveLength(2);
  });
});
