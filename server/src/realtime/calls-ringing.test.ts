import { jaMember } from '@enishi/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../db/schema.js';
import { call, createTestContext, type TestContext } from '../test/app.js';
import {
  callFrames,
  callPeople,
  cancelled,
  connectCall,
  is,
  records,
  ring,
  SDP,
  settle,
  subscribePush,
  type CallFrame,
  Sockets,
  type Person,
} from '../test/call-club.js';
import { PushReceiver } from '../test/push-receiver.js';
import { listen } from '../test/socket.js';
import { deskOf, newClientId } from '../test/talk.js';

/*
 * Calls nobody answers at once (product.md §17.6): a closed app rung by push, a callee out of reach, the
 * timeout, and a man's call that rings every other online staff member. The timing is shortened here: a
 * call rings 1.5 s, a man's call escalates after 0.3 s.
 */

let receiver: PushReceiver;
let ctx: TestContext;
let base: string;
let staff: Person;
let helper: Person;
let owner: Person;
let man: Person;
let otherMan: Person;
const sockets = new Sockets();
const connect = (who: Person) => sockets.connect(base, who);

beforeAll(async () => {
  receiver = await PushReceiver.start();
  ctx = await createTestContext({
    env: { PUSH_ALLOWED_HOSTS: receiver.allowedHost, CALLS_PER_MINUTE: '1000' },
    deps: { push: { ca: receiver.ca }, calls: { timing: { ringMs: 1500, escalateMs: 300 } } },
  });
  ({ staff, helper, owner, man, otherMan } = await callPeople(ctx, 'ring', 5));
  const key = await call(ctx.app, 'pushkey', { ssid: man.ssid });
  receiver.publicKey = (key.body as { publicKey: string }).publicKey;
  base = await listen(ctx.app);
});
beforeEach(async () => {
  await ctx.database.db.delete(pushSubscriptions);
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

describe('a callee without an open app', () => {
  it('is rung by a high-urgency push that opens the call, and the caller is told', async () => {
    await subscribePush(ctx, receiver, man, 'man-phone');
    const staffSocket = await connect(staff);
    staffSocket.send({ type: 'calling', to: man.uid });
    expect(await staffSocket.take(is('ringing'))).toMatchObject({ push: true, escalated: false });
    // The call's push, not a message push still on its way from an earlier test's call record.
    const push = await receiver.waitForMatch('man-phone', (each) => each.payload.tag === 'call');
    expect(push).toMatchObject({
      payload: {
        title: jaMember.calls.pushTitle,
        body: jaMember.calls.pushBody('受付 佐藤'),
        url: `/call?from=${staff.uid}`,
        tag: 'call',
      },
      ttl: '60',
      urgency: 'high',
    });
    // The app opened from the push rings at once.
    const manSocket = await connect(man);
    expect((await manSocket.take<CallFrame<'calling'>>(is('calling'))).from.uid).toBe(staff.uid);
    await connectCall(staffSocket, staff.uid, manSocket, man.uid);
    staffSocket.send({ type: 'cancelCall', to: man.uid });
    await manSocket.take(cancelled('ended'));
    expect(receiver.problems).toEqual([]);
  });

  it('with no device to push to, answers offline and leaves a missed-call record', async () => {
    const before = (await records(ctx, otherMan)).length;
    const staffSocket = await connect(staff);
    staffSocket.send({ type: 'calling', to: otherMan.uid });
    expect(await staffSocket.take(is('cancelCall'))).toEqual({
      type: 'cancelCall',
      from: { uid: otherMan.uid, name: '高橋 次郎', image: null },
      reason: 'offline',
    });
    expect((await records(ctx, otherMan)).slice(before)).toEqual([
      { body: jaMember.calls.missed, senderId: staff.uid },
    ]);
    // Free to call again at once.
    const otherSocket = await connect(otherMan);
    await ring(staffSocket, otherSocket, otherMan.uid);
    staffSocket.send({ type: 'cancelCall', to: otherMan.uid });
    await otherSocket.take(cancelled('cancelled'));
  });
});

describe('a call nobody answers', () => {
  it('ends with timeout on both sides, recorded once as missed', async () => {
    const before = (await records(ctx, man)).length;
    const [staffSocket, manSocket] = [await connect(staff), await connect(man)];
    await ring(staffSocket, manSocket, man.uid);
    await staffSocket.take(cancelled('timeout'), 5000);
    await manSocket.take(cancelled('timeout'), 5000);
    expect((await records(ctx, man)).slice(before)).toEqual([
      { body: jaMember.calls.missed, senderId: staff.uid },
    ]);
    manSocket.send({ type: 'offer', to: staff.uid, sdp: SDP });
    expect(await manSocket.take(is('error'))).toMatchObject({ error: jaMember.calls.notInCall });
  });
});

describe("a man's unanswered call", () => {
  it('rings every other online staff member with a push; the first to answer takes it', async () => {
    const before = (await records(ctx, man)).length;
    const [staffSocket, helperSocket, manSocket] = [
      await connect(staff),
      await connect(helper),
      await connect(man),
    ];
    await subscribePush(ctx, receiver, helper, 'helper-phone');
    // The owner is offline: not rung.
    await ring(manSocket, staffSocket, staff.uid);
    expect((await helperSocket.take<CallFrame<'calling'>>(is('calling'))).from.uid).toBe(man.uid);
    expect(await manSocket.take(is('ringing'))).toMatchObject({ escalated: true, push: true });
    // The missed-call record of the test before may still push a talk to this phone first (pushes are gathered).
    const push = await receiver.waitForMatch('helper-phone', (each) => each.urgency === 'high');
    expect(push).toMatchObject({
      payload: { title: jaMember.calls.pushTitle, tag: 'call' },
      urgency: 'high',
    });

    const { offer } = await connectCall(manSocket, man.uid, helperSocket, helper.uid);
    expect(offer.from.uid).toBe(helper.uid);
    expect(await staffSocket.take(cancelled('answered'))).toMatchObject({ from: { uid: man.uid } });
    // The one first called cannot take it any more.
    staffSocket.send({ type: 'offer', to: man.uid, sdp: SDP });
    expect(await staffSocket.take(is('error'))).toMatchObject({ error: jaMember.calls.notInCall });

    manSocket.send({ type: 'cancelCall', to: helper.uid });
    await helperSocket.take(cancelled('ended'));
    expect((await records(ctx, man)).slice(before)).toEqual([
      { body: expect.stringMatching(/^通話 \d+秒$/), senderId: helper.uid },
    ]);
    for (const socket of [staffSocket, helperSocket, manSocket]) await settle(socket);
    expect(callFrames(staffSocket)).toEqual([]);
  });

  it('goes to one of two staff members answering at the same moment', async () => {
    const [staffSocket, helperSocket, manSocket] = [
      await connect(staff),
      await connect(helper),
      await connect(man),
    ];
    await ring(manSocket, staffSocket, staff.uid);
    await helperSocket.take(is('calling'));
    staffSocket.send({ type: 'offer', to: man.uid, sdp: SDP });
    helperSocket.send({ type: 'offer', to: man.uid, sdp: SDP });
    const offer = await manSocket.take<CallFrame<'offer'>>(is('offer'));
    const [winner, loser] =
      offer.from.uid === staff.uid ? [staffSocket, helperSocket] : [helperSocket, staffSocket];
    expect(await loser.take(is('error'))).toMatchObject({ error: jaMember.calls.notInCall });
    await loser.take(cancelled('answered'));
    manSocket.send({ type: 'cancelCall', to: offer.from.uid });
    await winner.take(cancelled('ended'));
    await settle(manSocket);
    expect(callFrames(manSocket).filter((frame) => frame.type === 'offer')).toEqual([]);
  });

  it('rings the other staff at once when the one called is offline, and times out for all', async () => {
    const before = (await records(ctx, man)).length;
    const [helperSocket, manSocket] = [await connect(helper), await connect(man)];
    manSocket.send({ type: 'calling', to: owner.uid });
    expect(await manSocket.take(is('ringing'))).toMatchObject({ to: { uid: owner.uid }, escalated: true });
    await helperSocket.take(is('calling'));
    await helperSocket.take(cancelled('timeout'), 5000);
    await manSocket.take(cancelled('timeout'), 5000);
    expect((await records(ctx, man)).slice(before)).toEqual([
      { body: jaMember.calls.missed, senderId: man.uid },
    ]);
  });

  it('declined by one staff member, keeps ringing the others until the last declines', async () => {
    const [staffSocket, helperSocket, manSocket] = [
      await connect(staff),
      await connect(helper),
      await connect(man),
    ];
    await ring(manSocket, staffSocket, staff.uid);
    await helperSocket.take(is('calling'));
    staffSocket.send({ type: 'cancelCall', to: man.uid });
    await staffSocket.take(cancelled('declined'));
    await settle(manSocket);
    expect(callFrames(manSocket).filter((frame) => frame.type === 'cancelCall')).toEqual([]);
    helperSocket.send({ type: 'cancelCall', to: man.uid });
    expect(await manSocket.take(cancelled('declined'))).toMatchObject({ from: { uid: staff.uid } });
  });
});

describe('one notice per call (product.md §17.10)', () => {
  it("rings a closed app by push; the call's record in the talk pushes nothing more", async () => {
    await subscribePush(ctx, receiver, otherMan, 'other-once');
    await call(ctx.app, 'pushsettings/update', { ssid: otherMan.ssid, show_text: true });
    const before = (await records(ctx, otherMan)).length;
    const staffSocket = await connect(staff);
    staffSocket.send({ type: 'calling', to: otherMan.uid });
    await receiver.waitForMatch('other-once', (each) => each.payload.tag === 'call');
    staffSocket.send({ type: 'cancelCall', to: otherMan.uid });
    await expect.poll(async () => (await records(ctx, otherMan)).length).toBe(before + 1);

    // A message after the record: once its push is in, a push the record made would be in too.
    const desk = await deskOf(ctx.app, otherMan.ssid);
    staffSocket.send({
      type: 'text',
      conversation_id: desk,
      conversation_type: 'men',
      message: '折り返しお電話します',
      image: [],
      reply: null,
      announce: false,
      client_id: newClientId(),
    });
    await receiver.waitForMatch('other-once', (each) => each.payload.body === '折り返しお電話します');
    expect(receiver.to('other-once').map((each) => each.payload.tag === 'call' || each.payload.body)).toEqual(
      [true, '折り返しお電話します'],
    );
  });
});
