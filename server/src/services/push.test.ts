import { BroadcastsReply, ja, jaMember, type StampsReply } from '@enishi/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../db/schema.js';
import { DEFAULT_PUSH_ALLOWED_HOSTS } from '../config-env.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { PushReceiver, type TestSubscriber } from '../test/push-receiver.js';
import { listen, TestSocket } from '../test/socket.js';
import { deskOf, postMessage } from '../test/talk.js';

let receiver: PushReceiver;
let ctx: TestContext;
let staff: TestUser;
let man: TestUser;
let woman: TestUser;
const ssid: Record<string, string> = {};

beforeAll(async () => {
  receiver = await PushReceiver.start();
  ctx = await createTestContext({
    env: { PUSH_ALLOWED_HOSTS: receiver.allowedHost },
    deps: { push: { ca: receiver.ca } },
  });
  staff = await createUser(ctx.app, { loginId: 'push-staff', role: 3, name: 'スタッフ' });
  man = await createUser(ctx.app, { loginId: 'push-man', role: 101, name: '山田' });
  woman = await createUser(ctx.app, { loginId: 'push-woman', role: 201, name: '佐藤' });
  for (const user of [staff, man, woman]) ssid[user.loginId] = await login(ctx.app, user);
  const key = await call(ctx.app, 'pushkey', { ssid: ssid['push-man'] });
  receiver.publicKey = (key.body as { publicKey: string }).publicKey;
});

afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

beforeEach(async () => {
  await ctx.database.db.delete(pushSubscriptions);
});

const subscribe = async (user: TestUser, subscriber: TestSubscriber | { toJSON(): unknown }, extra = {}) =>
  call(ctx.app, 'subscript', { ssid: ssid[user.loginId], subscript: subscriber.toJSON(), ...extra });

/** The counters' sum, as the server reads them: what the push's icon badge shows. */
const unreadTotal = async (session: string): Promise<number> => {
  const counters = { news: 0, fromStaff: 0, setting: 0, fromWomen: 0, fromMen: 0 };
  const reply = await call(ctx.app, 'updateNotifications', { ssid: session, ...counters });
  const row = (reply.body as { rows: Record<string, number>[] }).rows[0]!;
  return Object.values(row).reduce((total, count) => total + count, 0);
};

const endpointsOf = async (user: TestUser) =>
  (await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.uid))).map(
    (row) => row.endpoint,
  );

describe('/api/pushkey', () => {
  it('keeps the key made on the first start across restarts', async () => {
    const again = await ctx.buildApp({ PUSH_ALLOWED_HOSTS: receiver.allowedHost });
    const reply = await call(again, 'pushkey', { ssid: ssid['push-staff'] });
    expect(reply).toMatchObject({ status: 200, body: { publicKey: receiver.publicKey } });
    expect(Buffer.from(receiver.publicKey, 'base64url')).toHaveLength(65);
  });
});

describe('/api/subscript and /api/logout', () => {
  it('refuses an endpoint outside the allowed push services, with Japanese text', async () => {
    const outside = {
      toJSON: () => ({ endpoint: 'https://attacker.example/x', keys: { p256dh: 'k', auth: 'a' } }),
    };
    expect(await subscribe(man, outside)).toMatchObject({ status: 400, body: { error: ja.push.badHost } });
    expect(await endpointsOf(man)).toEqual([]);
  });

  it.each([
    'https://127.0.0.2%2e.notify.windows.com/x',
    'https://fcm%2egoogleapis%2ecom/x',
    'https://fcm.googleapis.com:6379/x',
    'https://user:pass@fcm.googleapis.com/x',
    'https://fcm.googleapis.com@127.0.0.2/x',
  ])('refuses %s, which a parser would read as somewhere else, and stores nothing', async (endpoint) => {
    const app = await ctx.buildApp({ PUSH_ALLOWED_HOSTS: DEFAULT_PUSH_ALLOWED_HOSTS.join(',') });
    const bypass = { toJSON: () => ({ endpoint, keys: { p256dh: 'k', auth: 'a' } }) };
    const reply = await call(app, 'subscript', { ssid: ssid[man.loginId], subscript: bypass.toJSON() });
    expect(reply).toMatchObject({ status: 400, body: { error: ja.push.badHost } });
    expect(await endpointsOf(man)).toEqual([]);
  });

  it('answers 404 for another person, moves a shared phone, drops the old one and forgets on logout', async () => {
    const phone = receiver.subscriber('shared-phone');
    expect((await subscribe(man, phone, { userId: woman.uid })).status).toBe(404);
    expect((await subscribe(man, phone, { userId: man.uid })).status).toBe(200);
    expect((await subscribe(woman, phone)).status).toBe(200);
    expect(await endpointsOf(man)).toEqual([]);
    expect(await endpointsOf(woman)).toEqual([phone.endpoint]);

    const renewed = receiver.subscriber('renewed-phone');
    expect((await subscribe(woman, renewed, { oldSubscript: phone.toJSON() })).status).toBe(200);
    expect(await endpointsOf(woman)).toEqual([renewed.endpoint]);

    const session = await login(ctx.app, woman);
    const logout = await call(ctx.app, 'logout', { ssid: session, subscript: renewed.toJSON() });
    expect(logout.status).toBe(200);
    expect(await endpointsOf(woman)).toEqual([]);
  });
});

describe('pushes for messages', () => {
  it('reaches an away member, decrypted, naming the desk but not the text, and a staff member by name', async () => {
    const desk = await deskOf(ctx.app, ssid['push-man']!);
    const manPhone = receiver.subscriber('man-away');
    const staffPhone = receiver.subscriber('staff-away');
    await subscribe(man, manPhone);
    await subscribe(staff, staffPhone);

    // The icon badge is everything the man has unread: what other tests left him, and this message.
    const before = await unreadTotal(ssid['push-man']!);
    await postMessage(ctx.app, ssid['push-staff']!, desk, '明日のご予定について');
    const [push] = await receiver.waitFor('man-away');
    expect(push).toMatchObject({
      payload: {
        title: ja.talk.fromStaff,
        body: ja.push.newMessage,
        url: `/talk/staff/${desk}`,
        tag: `talk-${desk}`,
        badge: before + 1,
      },
      ttl: '86400',
      urgency: 'normal',
    });

    await postMessage(ctx.app, ssid['push-man']!, desk, 'よろしくお願いします');
    const [toStaff] = await receiver.waitFor('staff-away');
    expect(toStaff!.payload).toMatchObject({
      title: '山田さんからメッセージがあります',
      url: `/talk/${desk}`,
    });
    await ctx.app.services.pushNotifier.idle();
    // Nobody is pushed their own message.
    expect(receiver.to('man-away')).toHaveLength(1);
    expect(receiver.problems).toEqual([]);
  });

  it('leaves out a person whose app is on screen, and shows the text to who chose it', async () => {
    const manDesk = await deskOf(ctx.app, ssid['push-man']!);
    const womanDesk = await deskOf(ctx.app, ssid['push-woman']!);
    await subscribe(man, receiver.subscriber('man-looking'));
    await subscribe(woman, receiver.subscriber('woman-text'));
    const settings = await call(ctx.app, 'pushsettings/update', {
      ssid: ssid['push-woman'],
      show_text: true,
    });
    expect(settings.body).toMatchObject({ show_text: true, kinds: { staff: true } });

    const socket = await TestSocket.session(await listen(ctx.app), ssid['push-man']!);
    socket.send({ type: 'visibility', visible: true });
    // The socket handles frames in order: once this answer is back, the visibility frame was taken.
    socket.send({ type: 'open', conversation_id: null });
    socket.send({ type: 'visibility', visible: 'yes' });
    await socket.take((frame) => frame.type === 'error');

    await postMessage(ctx.app, ssid['push-staff']!, manDesk, '画面を見ている人へ');
    await postMessage(ctx.app, ssid['push-staff']!, womanDesk, '本文つきのお知らせ');
    const [push] = await receiver.waitFor('woman-text');
    expect(push!.payload.body).toBe('本文つきのお知らせ');
    await ctx.app.services.pushNotifier.idle();
    expect(receiver.to('man-looking')).toEqual([]);
    await socket.close();
  });

  it('says スタンプが届きました for a stamp, even to who chose to see the text', async () => {
    const womanDesk = await deskOf(ctx.app, ssid['push-woman']!);
    await subscribe(woman, receiver.subscriber('woman-stamp'));
    await call(ctx.app, 'pushsettings/update', { ssid: ssid['push-woman'], show_text: true });
    const stamps = await call(ctx.app, 'stamps', { ssid: ssid['push-staff'] });
    const stamp = (stamps.body as StampsReply).sets[0]!.stamps[0]!;
    await postMessage(ctx.app, ssid['push-staff']!, womanDesk, '', { stamp_id: stamp.id });
    const [push] = await receiver.waitFor('woman-stamp');
    expect(push!.payload).toMatchObject({ title: ja.talk.fromStaff, body: jaMember.stamps.push });
  });

  it('respects a muted kind', async () => {
    const womanDesk = await deskOf(ctx.app, ssid['push-woman']!);
    await subscribe(staff, receiver.subscriber('staff-muted'));
    const muted = await call(ctx.app, 'pushsettings/update', {
      ssid: ssid['push-staff'],
      kinds: { women: false },
    });
    expect(muted.body).toMatchObject({ show_text: false, kinds: { women: false, men: true } });
    expect((await call(ctx.app, 'pushsettings/get', { ssid: ssid['push-staff'] })).body).toEqual(muted.body);

    await postMessage(ctx.app, ssid['push-woman']!, womanDesk, 'スタッフさんへ');
    await ctx.app.services.pushNotifier.idle();
    expect(receiver.to('staff-muted')).toEqual([]);
    await call(ctx.app, 'pushsettings/update', { ssid: ssid['push-staff'], kinds: { women: true } });
  });

  it("pushes a bulk send under the member's 一括送信 switch, not the desk talk's", async () => {
    await subscribe(man, receiver.subscriber('man-broadcast'));
    const send = (message: string) =>
      call(ctx.app, 'messages/send', { ssid: ssid['push-staff'], users: [man.uid], message, image: [] });
    await call(ctx.app, 'pushsettings/update', { ssid: ssid['push-man'], kinds: { staff: false } });
    expect((await send('一括のご案内')).status).toBe(200);
    const [push] = await receiver.waitFor('man-broadcast');
    expect(push!.payload).toMatchObject({ title: ja.talk.fromStaff });

    await call(ctx.app, 'pushsettings/update', {
      ssid: ssid['push-man'],
      kinds: { staff: true, broadcast: false },
    });
    expect((await send('二通目のご案内')).status).toBe(200);
    await ctx.app.services.pushNotifier.idle();
    expect(receiver.to('man-broadcast')).toHaveLength(1);
    // The figures of each send (product.md §4.6): the first was pushed, the muted second not.
    const history = BroadcastsReply.parse(
      (await call(ctx.app, 'broadcasts', { ssid: ssid['push-staff'], type: 1 })).body,
    ).rows;
    const figures = (message: string) => history.find((row) => row.message === message);
    expect(figures('一括のご案内')).toMatchObject({ count: 1, delivered: 1, pushed: 1 });
    expect(figures('二通目のご案内')).toMatchObject({ count: 1, delivered: 1, pushed: 0 });
    await call(ctx.app, 'pushsettings/update', { ssid: ssid['push-man'], kinds: { broadcast: true } });
  });

  it('tells the group of news with its title, at low urgency', async () => {
    await subscribe(man, receiver.subscriber('man-news'));
    await subscribe(woman, receiver.subscriber('woman-news'));
    const added = await call(ctx.app, 'news/add', {
      ssid: ssid['push-staff'],
      title: '春の交流会',
      body: '本文',
      type: 1,
    });
    expect(added.status).toBe(200);
    const [push] = await receiver.waitFor('man-news');
    expect(push).toMatchObject({
      payload: { title: '春の交流会', body: ja.push.newNews, url: '/news', tag: 'news' },
      urgency: 'low',
    });
    // The badge is what the app icon would show: the man's counters, his unread desk message and the news.
    const counters = await call(ctx.app, 'updateNotifications', { ssid: ssid['push-man'] });
    const rows = (counters.body as { rows: Record<string, number>[] }).rows;
    expect(push!.payload.badge).toBe(Object.values(rows[0]!).reduce((a, b) => a + b, 0));
    expect(rows[0]!.news).toBe(1);
    await ctx.app.services.pushNotifier.idle();
    expect(receiver.to('woman-news')).toEqual([]);
  });

  it('deletes a subscription answered 410 and retries a 429 after its Retry-After', async () => {
    const manDesk = await deskOf(ctx.app, ssid['push-man']!);
    const womanDesk = await deskOf(ctx.app, ssid['push-woman']!);
    await subscribe(man, receiver.subscriber('man-gone'));
    await subscribe(woman, receiver.subscriber('woman-busy'));
    receiver.answer('man-gone', { status: 410 });
    receiver.answer('woman-busy', { status: 429, headers: { 'retry-after': '1' } });

    const started = Date.now();
    await postMessage(ctx.app, ssid['push-staff']!, manDesk, 'もう届かない');
    await postMessage(ctx.app, ssid['push-staff']!, womanDesk, '少し待って届く');
    await receiver.waitFor('woman-busy');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await ctx.app.services.pushNotifier.idle();
    expect(await endpointsOf(man)).toEqual([]);
    expect(await endpointsOf(woman)).toHaveLength(1);
  });
});
