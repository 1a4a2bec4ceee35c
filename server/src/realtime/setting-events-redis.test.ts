import { slotOf, type ServerFrame } from '@enishi/contract';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSharedState, type SharedState } from '../composition/shared-state.js';
import { createTestContext, type TestContext } from '../test/app.js';
import { person, Sockets, type Person } from '../test/call-club.js';
import { testRedisUrl } from '../test/redis.js';
import { listen } from '../test/socket.js';

/*
 * Staff hear of a new setting request live on any instance (product.md §2.8): a man asks through one
 * instance, staff connected to the other get the `setting` frame; members never do.
 */

const REDIS_URL = testRedisUrl(6);
const DAY = 86_400_000;
const ahead = (days: number, hour = 19) =>
  `${slotOf(new Date(Date.now() + days * DAY)).slice(0, 10)}T${hour}:00`;

let ctx: TestContext;
const shared: SharedState[] = [];
let a: string;
let b: string;
let staff: Person;
let man: Person;
let woman: Person;
const sockets = new Sockets();

/** A call over HTTP to one instance (the first app of the context has no Redis fan-out). */
async function post(base: string, name: string, body: Record<string, unknown>) {
  const response = await fetch(`${base}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

beforeAll(async () => {
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  await redis.quit();
  ctx = await createTestContext();
  const onError = (error: unknown) => {
    throw error;
  };
  for (let index = 0; index < 2; index += 1) shared.push(await connectSharedState(REDIS_URL, onError));
  const apps = await Promise.all(
    shared.map((state) => ctx.buildApp({}, undefined, { fanout: state.fanout, calls: state.calls })),
  );
  [a, b] = [await listen(apps[0]!), await listen(apps[1]!)];
  staff = await person(ctx, 'live-staff', 3, '受付 佐藤');
  man = await person(ctx, 'live-man', 101, '山田 太郎');
  woman = await person(ctx, 'live-woman', 201, '佐藤 花子');
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await ctx.close();
  for (const state of shared) await state.close();
});

describe('setting requests reach staff live across instances', () => {
  it('sends the new request to staff on the other instance, within 2 s, and nothing to the woman', async () => {
    const staffSocket = await sockets.connect(b, staff);
    const womanSocket = await sockets.connect(b, woman);
    const started = Date.now();
    const reply = await post(a, 'setting/add', {
      ssid: man.ssid,
      women_id: woman.uid,
      preferred1: ahead(3),
      preferred2: ahead(4),
      preferred3: ahead(5, 12),
      note: '',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    // The man asked through instance a; the staff socket is on instance b.
    const frame = await staffSocket.take((each: ServerFrame) => each.type === 'setting', 2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(frame).toEqual({
      type: 'setting',
      id: (reply.body as { id: number }).id,
      status: 'requested',
      man: '山田 太郎',
      woman: '佐藤 花子',
    });
    // A decision is heard too (boards refresh); the woman's socket heard none of it.
    const decided = await post(a, 'setting/update', {
      ssid: staff.ssid,
      id: frame.type === 'setting' ? frame.id : 0,
      status: 'declined',
      reason: '日程が合いません',
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    await staffSocket.take(
      (each: ServerFrame) => each.type === 'setting' && each.status === 'declined',
      2_000,
    );
    expect(womanSocket.received.some((each) => each.type === 'setting')).toBe(false);
  });
});
