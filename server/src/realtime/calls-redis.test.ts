import { randomUUID } from 'node:crypto';
import { jaMember } from '@enishi/contract';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSharedState, type SharedState } from '../composition/shared-state.js';
import type { CallState } from '../services/call-store.js';
import { createTestContext, type TestContext } from '../test/app.js';
import {
  cancelled,
  connectCall,
  ICE,
  is,
  person,
  records,
  ring,
  type CallFrame,
  Sockets,
  type Person,
} from '../test/call-club.js';
import { testRedisUrl } from '../test/redis.js';
import { listen } from '../test/socket.js';

/*
 * Two instances on one database and one Redis (product.md §20): a call, its busy signal, presence and the
 * rate of calling hold whichever instance each person is connected to.
 */

const REDIS_URL = testRedisUrl(8);

let ctx: TestContext;
const shared: SharedState[] = [];
let a: string;
let b: string;
let staff: Person;
let helper: Person;
let owner: Person;
let man: Person;
let otherMan: Person;
const sockets = new Sockets();
const connect = (instance: string, who: Person) => sockets.connect(instance, who);

beforeAll(async () => {
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  await redis.quit();
  ctx = await createTestContext();
  const onError = (error: unknown) => {
    throw error;
  };
  for (let index = 0; index < 2; index += 1) shared.push(await connectSharedState(REDIS_URL, onError));
  const [one, two] = await Promise.all(
    shared.map((state) =>
      ctx.buildApp({ CALLS_PER_MINUTE: '4' }, undefined, {
        fanout: state.fanout,
        rateLimiters: state.rateLimiters,
        push: { foreground: state.foreground },
        calls: state.calls,
      }),
    ),
  );
  [a, b] = [await listen(one!), await listen(two!)];
  staff = await person(ctx, 'redis-staff', 3, '受付 佐藤');
  helper = await person(ctx, 'redis-helper', 4, '補助 鈴木');
  owner = await person(ctx, 'redis-owner', 2, '代表 田中');
  man = await person(ctx, 'redis-man', 101, '山田 太郎');
  otherMan = await person(ctx, 'redis-man2', 101, '高橋 次郎');
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await ctx.close();
  for (const state of shared) await state.close();
});

describe('calls across two instances with Redis', () => {
  it('connect a man on one instance with staff on the other, and record the call once', async () => {
    const before = (await records(ctx, man)).length;
    const [staffSocket, manSocket] = [await connect(a, staff), await connect(b, man)];
    const { ringing } = await ring(staffSocket, manSocket, man.uid);
    expect(ringing).toMatchObject({ push: false, escalated: false });
    await connectCall(staffSocket, staff.uid, manSocket, man.uid);
    manSocket.send({ type: 'candidate', to: staff.uid, ice: ICE });
    expect(await staffSocket.take(is('candidate'))).toMatchObject({ ice: ICE });
    staffSocket.send({ type: 'cancelCall', to: man.uid });
    await manSocket.take(cancelled('ended'));
    expect((await records(ctx, man)).slice(before)).toEqual([
      { body: expect.stringMatching(/^通話 \d+秒$/), senderId: staff.uid },
    ]);
  });

  it('find the man busy when staff on the other instance is calling him', async () => {
    const [staffSocket, helperSocket, manSocket] = [
      await connect(a, staff),
      await connect(b, helper),
      await connect(b, man),
    ];
    await ring(staffSocket, manSocket, man.uid);
    helperSocket.send({ type: 'calling', to: man.uid });
    expect(await helperSocket.take(is('cancelCall'))).toMatchObject({
      reason: 'busy',
      from: { uid: man.uid },
    });
    // The caller's socket dropping on one instance stops the ring on the other.
    staffSocket.ws.terminate();
    expect(await manSocket.take(cancelled('cancelled'))).toMatchObject({ from: { uid: staff.uid } });
  });

  it('show staff presence from either instance', async () => {
    const manSocket = await connect(b, man);
    const ownerSocket = await connect(a, owner);
    await manSocket.take(is('updateConnection', (frame) => frame.uid === owner.uid && frame.isOnline));
    manSocket.send({ type: 'staff' });
    const list = await manSocket.take<CallFrame<'staff'>>(is('staff'));
    expect(list.rows.find((row) => row.uid === owner.uid)?.isOnline).toBe(true);
    expect(list.rows.find((row) => row.uid === helper.uid)?.isOnline).toBe(false);
    await ownerSocket.close();
    await manSocket.take(is('updateConnection', (frame) => frame.uid === owner.uid && !frame.isOnline));
  });

  it('take back a place held by a call whose instance died', async () => {
    const store = shared[0]!.calls.store!;
    // A call still ringing long after its timeout, and a place whose call is gone altogether.
    const stale: CallState = {
      id: randomUUID(),
      caller: helper.uid,
      callerSocket: 'gone',
      callee: man.uid,
      memberId: man.uid,
      ringing: [man.uid],
      answeredBy: null,
      answerSocket: null,
      startedAt: Date.now() - 10 * 60_000,
      answeredAt: null,
      escalated: false,
    };
    expect(await store.swap(stale.id, null, stale)).toBe(true);
    expect(await store.claim(man.uid, stale.id)).toBe(true);
    expect(await store.claim(man.uid, randomUUID())).toBe(false);
    expect(await store.claim(otherMan.uid, randomUUID())).toBe(true);

    const [staffSocket, manSocket, otherSocket] = [
      await connect(a, staff),
      await connect(b, man),
      await connect(b, otherMan),
    ];
    await ring(staffSocket, manSocket, man.uid);
    staffSocket.send({ type: 'cancelCall', to: man.uid });
    await manSocket.take(cancelled('cancelled'));
    await ring(staffSocket, otherSocket, otherMan.uid);
    staffSocket.send({ type: 'cancelCall', to: otherMan.uid });
    await otherSocket.take(cancelled('cancelled'));
    expect(await store.load(stale.id)).toBeNull();
  });

  it('count the rate of calling club-wide', async () => {
    const sockets = [await connect(a, owner), await connect(b, owner)];
    for (let round = 0; round < 4; round += 1) {
      const socket = sockets[round % 2]!;
      socket.send({ type: 'calling', to: otherMan.uid });
      await socket.take(cancelled('offline'));
    }
    sockets[1]!.send({ type: 'calling', to: otherMan.uid });
    expect(await sockets[1]!.take(is('error'))).toEqual({
      type: 'error',
      error: jaMember.calls.callingTooFast,
    });
  });
});
