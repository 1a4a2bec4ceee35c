import type { ServerFrame } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { appsOnRedis, testRedisUrl } from '../test/redis.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';
import { deskOf } from '../test/talk.js';

/*
 * A bulk send through one instance reaches its members wherever their socket is (decision 027: its copies
 * cross Redis several to a message): each connected member has their copy once, in their desk talk, with the
 * badge raised.
 */
const REDIS_URL = testRedisUrl(5);
const FIRST = '一括のお知らせです';
const SECOND = '二通目のお知らせです';

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;

describe('a bulk send with two instances', () => {
  let ctx: TestContext;
  let closeShared = async () => {};
  let a: FastifyInstance;
  let bases: string[];
  let staff: TestUser;
  let staffSsid: string;
  const men: { user: TestUser; ssid: string; desk: number }[] = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const redis = new Redis(REDIS_URL);
    await redis.flushdb();
    await redis.quit();
    ctx = await createTestContext();
    const instances = await appsOnRedis(ctx, REDIS_URL);
    closeShared = instances.close;
    a = instances.apps[0]!;
    bases = await Promise.all(instances.apps.map((app) => listen(app)));
    staff = await createUser(a, { loginId: 'bulk-staff', role: 3, name: '受付' });
    staffSsid = await login(a, staff);
    for (const loginId of ['bulk-taro', 'bulk-jiro', 'bulk-saburo']) {
      const user = await createUser(a, { loginId, role: 101 });
      const ssid = await login(a, user);
      men.push({ user, ssid, desk: await deskOf(a, ssid) });
    }
  });
  afterAll(async () => {
    await closeAll(sockets.splice(0));
    await ctx.close();
    await closeShared();
  });

  const send = async (message: string, to: typeof men) => {
    const reply = await call(a, 'messages/send', {
      ssid: staffSsid,
      users: to.map((man) => man.user.uid),
      message,
      image: [],
    });
    expect(reply).toMatchObject({ status: 200, body: { status: 'OK', count: to.length } });
  };
  const copiesOf = (socket: TestSocket, text: string) =>
    socket.received.filter((frame) => frame.type === 'message' && frame.message === text);

  it('reaches a member on the sending instance and one on the other, once each, with the badge raised', async () => {
    // The first man's socket is on the instance that sends, the second man's on the other; the third has none.
    const connected = await Promise.all(
      men.slice(0, 2).map((man, index) => TestSocket.session(bases[index]!, man.ssid)),
    );
    sockets.push(...connected);
    await send(FIRST, men);

    for (const [index, socket] of connected.entries()) {
      const frame = await socket.take<MessageFrame>((f) => f.type === 'message' && f.message === FIRST);
      expect(frame).toMatchObject({
        conversation_id: men[index]!.desk,
        conversation_type: 'staff',
        from: staff.uid,
        own: false,
      });
      const counters = await socket.take((f) => f.type === 'notifications' && f.fromStaff > 0);
      expect(counters).toMatchObject({ fromStaff: 1 });
    }

    // A later send comes after the first on each socket, in id order: by then no second copy of it is on its way.
    await send(SECOND, men.slice(0, 2));
    for (const socket of connected) {
      await socket.take((f) => f.type === 'message' && f.message === SECOND);
      expect(copiesOf(socket, FIRST)).toHaveLength(1);
    }
  });
});
