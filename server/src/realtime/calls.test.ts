import { ja, jaMember } from '@enishi/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/app.js';
import {
  callFrames,
  callPeople,
  cancelled,
  connectCall,
  ICE,
  is,
  person,
  records,
  ring,
  SDP,
  settle,
  type CallFrame,
  Sockets,
  type Person,
} from '../test/call-club.js';
import { listen, TestSocket } from '../test/socket.js';

/* Voice-call signalling over real chat sockets (product.md §17): who may call whom, and each way a call ends. */

let ctx: TestContext;
let base: string;
let staff: Person;
let helper: Person;
let owner: Person;
let man: Person;
let otherMan: Person;
let woman: Person;
const sockets = new Sockets();
const connect = (who: Person) => sockets.connect(base, who);

beforeAll(async () => {
  ctx = await createTestContext({ env: { CALLS_PER_MINUTE: '1000' } });
  ({ staff, helper, owner, man, otherMan } = await callPeople(ctx, 'call', 6));
  woman = await person(ctx, 'call-woman', 201, '佐藤 花子');
  base = await listen(ctx.app);
});
afterEach(() => sockets.closeAll());
afterAll(() => ctx.close());

describe('who may call whom', () => {
  it('lets staff call a man and a man call staff, naming the caller with a signed picture or none', async () => {
    const [staffSocket, manSocket] = [await connect(staff), await connect(man)];
    const { calling, ringing } = await ring(staffSocket, manSocket, man.uid);
    expect(calling.from).toEqual({ uid: staff.uid, name: '受付 佐藤', image: null });
    expect(ringing).toEqual({
      type: 'ringing',
      to: { uid: man.uid, name: '山田 太郎', image: null },
      push: false,
      escalated: false,
    });
    staffSocket.send({ type: 'cancelCall', to: man.uid });
    await manSocket.take(cancelled('cancelled'));

    await ring(manSocket, staffSocket, staff.uid);
    manSocket.send({ type: 'cancelCall', to: staff.uid });
    expect((await staffSocket.take<CallFrame<'cancelCall'>>(cancelled('cancelled'))).from.uid).toBe(man.uid);
  });

  it('refuses every other pair with an error frame that reaches no one', async () => {
    const sockets = {
      staff: await connect(staff),
      helper: await connect(helper),
      man: await connect(man),
      otherMan: await connect(otherMan),
      woman: await connect(woman),
    };
    const refused: [TestSocket, number][] = [
      [sockets.staff, woman.uid],
      [sockets.staff, helper.uid],
      [sockets.staff, staff.uid],
      [sockets.man, otherMan.uid],
      [sockets.man, woman.uid],
      [sockets.woman, staff.uid],
      [sockets.woman, man.uid],
      [sockets.man, 2_000_000_000],
    ];
    for (const [from, to] of refused) {
      from.send({ type: 'calling', to });
      expect(await from.take(is('error'))).toEqual({ type: 'error', error: jaMember.calls.notAllowed });
    }
    for (const socket of Object.values(sockets)) await settle(socket);
    for (const socket of Object.values(sockets)) expect(callFrames(socket)).toEqual([]);
  });

  it('answers the staff list to staff and men only, with who is online', async () => {
    const manSocket = await connect(man);
    manSocket.send({ type: 'staff' });
    const list = await manSocket.take<CallFrame<'staff'>>(is('staff'));
    expect(list.rows.map((row) => [row.name, row.isOnline])).toEqual([
      ['代表 田中', false],
      ['受付 佐藤', false],
      ['補助 鈴木', false],
    ]);
    const womanSocket = await connect(woman);
    womanSocket.send({ type: 'staff' });
    expect(await womanSocket.take(is('error'))).toEqual({ type: 'error', error: ja.errors.forbidden });
  });

  it('tells men and staff when a staff member comes and goes', async () => {
    const [manSocket, staffSocket, womanSocket] = [
      await connect(man),
      await connect(staff),
      await connect(woman),
    ];
    const ownerSocket = await connect(owner);
    const isOwner = (online: boolean) =>
      is('updateConnection', (f) => f.uid === owner.uid && f.isOnline === online);
    await manSocket.take(isOwner(true));
    await staffSocket.take(isOwner(true));
    // A second socket changes nothing; the last one closing does.
    const second = await connect(owner);
    await ownerSocket.close();
    await second.close();
    await manSocket.take(isOwner(false));
    await settle(manSocket);
    expect(manSocket.untaken().filter(is('updateConnection', (f) => f.uid === owner.uid))).toEqual([]);
    await settle(womanSocket);
    expect(womanSocket.untaken().filter(is('updateConnection'))).toEqual([]);
  });
});

describe('a call', () => {
  it('connects, passes offer, answer and candidates, and leaves one record with its duration', async () => {
    const before = (await records(ctx, man)).length;
    const [staffSocket, manSocket] = [await connect(staff), await connect(man)];
    const manPhone = await connect(man);
    await ring(staffSocket, manSocket, man.uid);
    await manPhone.take(is('calling'));
    const { offer, answer } = await connectCall(staffSocket, staff.uid, manSocket, man.uid);
    expect(offer).toEqual({
      type: 'offer',
      from: { uid: man.uid, name: '山田 太郎', image: null },
      sdp: SDP,
    });
    expect(answer.from.uid).toBe(staff.uid);
    // The man's other device stops ringing.
    await manPhone.take(cancelled('answered'));

    manSocket.send({ type: 'candidate', to: staff.uid, ice: ICE });
    expect(await staffSocket.take(is('candidate'))).toMatchObject({ ice: ICE, from: { uid: man.uid } });
    staffSocket.send({ type: 'candidate', to: man.uid, ice: null });
    expect(await manSocket.take(is('candidate'))).toMatchObject({ ice: null, from: { uid: staff.uid } });
    // ICE restart: a later offer from either side is passed on.
    staffSocket.send({ type: 'offer', to: man.uid, sdp: SDP });
    await manSocket.take(is('offer'));

    manSocket.send({ type: 'cancelCall', to: staff.uid });
    await staffSocket.take(cancelled('ended'));
    await settle(manSocket);
    expect(callFrames(manPhone)).toEqual([]);
    expect((await records(ctx, man)).slice(before)).toEqual([
      { body: expect.stringMatching(/^通話 \d+秒$/), senderId: staff.uid },
    ]);
  });

  it('records how long it lasted, from the answer to the hang-up, as 通話 3分12秒', async () => {
    let now = Date.now();
    const app = await ctx.buildApp({}, () => now);
    const timedBase = await listen(app);
    const [staffSocket, manSocket] = [
      sockets.track(await TestSocket.session(timedBase, staff.ssid)),
      sockets.track(await TestSocket.session(timedBase, man.ssid)),
    ];
    await ring(staffSocket, manSocket, man.uid);
    now += 20_000;
    await connectCall(staffSocket, staff.uid, manSocket, man.uid);
    now += 192_400;
    staffSocket.send({ type: 'cancelCall', to: man.uid });
    const record = await manSocket.take<CallFrame<'message'>>(is('message', (f) => f.message_type === 1));
    expect(record).toMatchObject({ message: '通話 3分12秒', from: staff.uid, name: '受付 佐藤' });
    await manSocket.take(cancelled('ended'));
  });

  it('refuses forged and misdirected frames, passing none on', async () => {
    const [staffSocket, manSocket, otherSocket] = [
      await connect(staff),
      await connect(man),
      await connect(otherMan),
    ];
    const staffTab = await connect(staff);
    await ring(staffSocket, manSocket, man.uid);
    await connectCall(staffSocket, staff.uid, manSocket, man.uid);

    const refusals: [TestSocket, unknown, string][] = [
      [manSocket, { type: 'candidate', to: staff.uid, ice: ICE, from: { uid: 1 } }, ja.errors.unknownField],
      [otherSocket, { type: 'offer', to: staff.uid, sdp: SDP }, jaMember.calls.notInCall],
      [otherSocket, { type: 'candidate', to: man.uid, ice: ICE }, jaMember.calls.notInCall],
      [otherSocket, { type: 'cancelCall', to: staff.uid }, jaMember.calls.notInCall],
      [manSocket, { type: 'candidate', to: helper.uid, ice: ICE }, jaMember.calls.notInCall],
      [staffTab, { type: 'candidate', to: man.uid, ice: ICE }, jaMember.calls.notInCall],
      [manSocket, { type: 'answer', to: staff.uid, sdp: SDP }, jaMember.calls.notInCall],
      [manSocket, { type: 'offer', to: staff.uid, sdp: '' }, ja.errors.badRequest],
      [staffSocket, { type: 'calling', to: otherMan.uid }, jaMember.calls.alreadyInCall],
    ];
    for (const [socket, frame, error] of refusals) {
      socket.send(frame);
      expect(await socket.take(is('error'))).toMatchObject({ error });
    }
    for (const socket of [staffSocket, manSocket, otherSocket, staffTab]) await settle(socket);
    for (const socket of [staffSocket, manSocket, otherSocket, staffTab])
      expect(callFrames(socket)).toEqual([]);
    staffSocket.send({ type: 'cancelCall', to: man.uid });
    await manSocket.take(cancelled('ended'));
  });

  it('tells a second caller the man is busy, and records both calls', async () => {
    const before = (await records(ctx, man)).length;
    const [staffSocket, helperSocket, manSocket] = [
      await connect(staff),
      await connect(helper),
      await connect(man),
    ];
    await ring(staffSocket, manSocket, man.uid);
    helperSocket.send({ type: 'calling', to: man.uid });
    expect(await helperSocket.take(is('cancelCall'))).toEqual({
      type: 'cancelCall',
      from: { uid: man.uid, name: '山田 太郎', image: null },
      reason: 'busy',
    });
    manSocket.send({ type: 'cancelCall', to: staff.uid });
    await staffSocket.take(cancelled('declined'));
    // Every device of the one who declined stops ringing, this one included.
    await manSocket.take(cancelled('declined'));
    await settle(manSocket);
    expect(callFrames(manSocket)).toEqual([]);
    expect((await records(ctx, man)).slice(before)).toEqual([
      { body: jaMember.calls.missed, senderId: helper.uid },
      { body: jaMember.calls.missed, senderId: staff.uid },
    ]);
  });

  it('ends on both sides when a socket carrying it closes', async () => {
    const [staffSocket, manSocket] = [await connect(staff), await connect(man)];
    await ring(manSocket, staffSocket, staff.uid);
    await connectCall(manSocket, man.uid, staffSocket, staff.uid);
    staffSocket.ws.terminate();
    expect(await manSocket.take(cancelled('dropped'))).toMatchObject({ from: { uid: staff.uid } });
    // Both are free again.
    const again = await connect(staff);
    await ring(manSocket, again, staff.uid);
    await manSocket.close();
    await again.take(cancelled('cancelled'));
  });
});

describe('a peer gone silent', () => {
  it('is dropped and the call ended for the other side within 10 s of its last pong', async () => {
    const [staffSocket, manSocket] = [await connect(staff), await connect(man)];
    await ring(staffSocket, manSocket, man.uid);
    await connectCall(staffSocket, staff.uid, manSocket, man.uid);
    // The man's phone loses its network: it reads nothing more and answers no ping.
    const tcp = (manSocket.ws as unknown as { _socket: { pause(): void } })._socket;
    const lost = Date.now();
    tcp.pause();
    await staffSocket.take(cancelled('dropped'), 15_000);
    expect(Date.now() - lost).toBeLessThan(12_500);
    // The phone reads nothing, so a closing handshake would wait out ws's 30 s: it is let go at once.
    manSocket.ws.terminate();
  });
});

describe('rate of calling', () => {
  it('refuses a caller over the limit with Japanese text', async () => {
    const app = await ctx.buildApp({ CALLS_PER_MINUTE: '2' });
    const limitedBase = await listen(app);
    const [staffSocket, manSocket] = [
      await TestSocket.session(limitedBase, helper.ssid),
      await TestSocket.session(limitedBase, man.ssid),
    ];
    sockets.track(staffSocket);
    sockets.track(manSocket);
    for (let round = 0; round < 2; round += 1) {
      await ring(staffSocket, manSocket, man.uid);
      staffSocket.send({ type: 'cancelCall', to: man.uid });
      await manSocket.take(cancelled('cancelled'));
    }
    staffSocket.send({ type: 'calling', to: man.uid });
    expect(await staffSocket.take(is('error'))).toEqual({
      type: 'error',
      error: jaMember.calls.callingTooFast,
    });
    await settle(manSocket);
    expect(callFrames(manSocket)).toEqual([]);
  });
});
