import type { ServerFrame } from '@enishi/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSharedState, type SharedState } from '../composition/shared-state.js';
import { createTestContext, type TestContext } from '../test/app.js';
import { person, Sockets, type Person } from '../test/call-club.js';
import { testRedisUrl } from '../test/redis.js';
import { listen } from '../test/socket.js';
import { deskOf, postMessage } from '../test/talk.js';

/*
 * A desk talk's status reaches every staff screen live on any instance (product.md §2.6, §15.4): staff
 * change it through one instance, staff connected to the other get the `desk` frame, and so when the
 * member's message reopens it; the member's own socket never hears of it.
 */

const REDIS_URL = testRedisUrl(6);

let ctx: TestContext;
const shared: SharedState[] = [];
let a: string;
let b: string;
let instanceA: TestContext['app'];
let staff: Person;
let helper: Person;
let man: Person;
const sockets = new Sockets();

beforeAll(async () => {
  ctx = await createTestContext();
  const onError = (error: unknown) => {
    throw error;
  };
  for (let index = 0; index < 2; index += 1) shared.push(await connectSharedState(REDIS_URL, onError));
  const apps = await Promise.all(
    shared.map((state) => ctx.buildApp({}, undefined, { fanout: state.fanout, calls: state.calls })),
  );
  [a, b] = [await listen(apps[0]!), await listen(apps[1]!)];
  instanceA = apps[0]!;
  staff = await person(ctx, 'desk-live-staff', 3, '受付 佐藤');
  helper = await person(ctx, 'desk-live-helper', 6, '補助 鈴木');
  man = await person(ctx, 'desk-live-man', 101, '山田 太郎');
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await ctx.close();
  for (const state of shared) await state.close();
});

describe('desk talk changes reach staff live across instances', () => {
  it('sends the change to staff on the other instance, and nothing to the member', async () => {
    const talk = await deskOf(ctx.app, man.ssid);
    const staffSocket = await sockets.connect(b, helper);
    const memberSocket = await sockets.connect(b, man);
    const response = await fetch(`${a}/api/desk/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ssid: staff.ssid, conversation_id: talk, status: 'done' }),
    });
    expect(response.status).toBe(200);
    const frame = await staffSocket.take((each: ServerFrame) => each.type === 'desk', 2_000);
    expect(frame).toEqual({
      type: 'desk',
      conversation_id: talk,
      uid: man.uid,
      status: 'done',
      assignee: null,
    });

    // The member's message, through instance a, reopens it: staff on b hear that too.
    await postMessage(instanceA, man.ssid, talk, 'また連絡しました');
    await staffSocket.take((each: ServerFrame) => each.type === 'desk' && each.status === 'open', 2_000);
    await memberSocket.take((each: ServerFrame) => each.type === 'message', 2_000);
    expect(memberSocket.received.some((each) => each.type === 'desk')).toBe(false);
  });
});
