import {
  AuditLogReply,
  DEFAULT_PUSH_SETTINGS,
  ja,
  jaMember,
  MessagesReply,
  Notifications,
  type Message,
  type ServerFrame,
} from '@enishi/contract';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageFact } from '../presenters/message-fact.js';
import { messagePayload } from '../services/push-notifier.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { appsOnRedis, testRedisUrl } from '../test/redis.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';
import { barrier, say } from '../test/chat-club.js';
import { actorOf, deskOf } from '../test/talk.js';

/*
 * 送信取消 (product.md §15.4): a sender takes their own message back within 24 hours. Everyone in the talk,
 * on either of two instances sharing Redis, gets the message again in its new words; the history, the
 * catch-up and search never give the original again, the audit log keeps it, and the badge comes down.
 */

const REDIS_URL = testRedisUrl(0);
const UNSENT = jaMember.unsend.unsent;
const HOUR = 60 * 60 * 1000;

let ctx: TestContext;
let cluster: Awaited<ReturnType<typeof appsOnRedis>>;
let a: string;
let b: string;
/** The two instances' clock: moved forward by the 24-hour test. */
let offset = 0;
const clock = () => Date.now() + offset;
let owner: TestUser;
let man: TestUser;
let woman: TestUser;
let outsider: TestUser;
const ssid: Record<string, string> = {};
let groupTalk: number;
let manDesk: number;
const open: TestSocket[] = [];

async function connect(base: string, who: string, lastId: number | null = null) {
  const socket = await TestSocket.session(base, ssid[who]!, { last_id: lastId });
  open.push(socket);
  return socket;
}

const isMessage = (test: (message: Message) => boolean) => (frame: ServerFrame) =>
  frame.type === 'message' && test(frame);

async function history(who: string, conversationId: number) {
  const reply = await call(cluster.apps[0]!, 'messages', { ssid: ssid[who], id: conversationId });
  return MessagesReply.parse(reply.body).rows.flatMap((group) => group.messages);
}

async function unread(who: string) {
  const reply = await call(cluster.apps[0]!, 'updateNotifications', { ssid: ssid[who] });
  return Notifications.parse((reply.body as { rows: unknown[] }).rows[0]);
}

beforeAll(async () => {
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  await redis.quit();
  ctx = await createTestContext();
  cluster = await appsOnRedis(ctx, REDIS_URL, 2, clock);
  [a, b] = [await listen(cluster.apps[0]!), await listen(cluster.apps[1]!)];
  owner = await createUser(ctx.app, { loginId: 'unsend-owner', role: 2, name: '縁 オーナー' });
  man = await createUser(ctx.app, { loginId: 'unsend-man', role: 101, name: '山田 太郎' });
  woman = await createUser(ctx.app, { loginId: 'unsend-woman', role: 201, name: '佐藤 花子' });
  outsider = await createUser(ctx.app, { loginId: 'unsend-jiro', role: 101, name: '鈴木 次郎' });
  for (const user of [owner, man, woman, outsider]) ssid[user.loginId] = await login(ctx.app, user);
  manDesk = await deskOf(ctx.app, ssid['unsend-man']!);
  const talk = await ctx.app.services.conversations.createGroupTalk(
    await actorOf(ctx.app, ssid['unsend-owner']!),
    { manId: man.uid, womanId: woman.uid },
  );
  groupTalk = talk.id;
});
afterEach(async () => {
  await closeAll(open.splice(0));
  offset = 0;
});
afterAll(async () => {
  await ctx.close();
  await cluster.close();
});

describe('送信取消', () => {
  it('replaces the message for everyone in the talk on both instances, and the history says so too', async () => {
    const manSocket = await connect(a, 'unsend-man');
    const womanSocket = await connect(b, 'unsend-woman');
    const staffSocket = await connect(b, 'unsend-owner');
    const sent = await say(manSocket, groupTalk, '今の話はなかったことに');
    await womanSocket.take(isMessage((m) => m.id === sent.id));
    await staffSocket.take(isMessage((m) => m.id === sent.id));

    const search = () =>
      call(cluster.apps[0]!, 'messages/search', { ssid: ssid['unsend-owner'], q: 'なかったこと' });
    expect(JSON.stringify((await search()).body)).toContain('なかったこと');

    manSocket.send({ type: 'unsend', message_id: sent.id });
    const expected = {
      type: 'message',
      id: sent.id,
      conversation_id: groupTalk,
      message: UNSENT,
      image: [],
      announce: false,
      unsent: true,
    };
    for (const [socket, own] of [
      [manSocket, true],
      [womanSocket, false],
      [staffSocket, false],
    ] as const) {
      expect(await socket.take(isMessage((m) => m.id === sent.id))).toMatchObject({ ...expected, own });
    }

    for (const who of ['unsend-woman', 'unsend-man', 'unsend-owner']) {
      const shown = (await history(who, groupTalk)).find((m) => m.id === sent.id);
      expect(shown).toMatchObject({ message: UNSENT, image: [], unsent: true });
    }
    // Staff search no longer finds the original words.
    expect(JSON.stringify((await search()).body)).not.toContain('なかったこと');
  });

  it('gives the catch-up after last_id the new words only', async () => {
    const manSocket = await connect(a, 'unsend-man');
    const before = await say(manSocket, groupTalk, '合図');
    const sent = await say(manSocket, groupTalk, '取り消す前の言葉');
    manSocket.send({ type: 'unsend', message_id: sent.id });
    await manSocket.take(isMessage((m) => m.id === sent.id && m.unsent === true));

    const womanSocket = await connect(b, 'unsend-woman', before.id);
    const caught = await womanSocket.take(isMessage((m) => m.id === sent.id));
    expect(caught).toMatchObject({ message: UNSENT, image: [], unsent: true });
    expect(JSON.stringify(womanSocket.received)).not.toContain('取り消す前の言葉');
  });

  it('keeps the original in the audit log for the owner', async () => {
    const manSocket = await connect(a, 'unsend-man');
    const sent = await say(manSocket, manDesk, '監査に残る元の言葉');
    manSocket.send({ type: 'unsend', message_id: sent.id });
    await manSocket.take(isMessage((m) => m.id === sent.id && m.unsent === true));

    const reply = await call(cluster.apps[0]!, 'auditlog', { ssid: ssid['unsend-owner'], action: 'unsend' });
    const rows = AuditLogReply.parse(reply.body).rows;
    const row = rows.find((each) => each.changes?.message?.[0] === '監査に残る元の言葉');
    expect(row).toMatchObject({
      action: 'unsend',
      actor: { uid: man.uid, name: '山田 太郎' },
      target: { uid: man.uid, role: 101, name: '山田 太郎' },
      changes: { message: ['監査に残る元の言葉', UNSENT], talk: ['山田 太郎', manDesk], images: [[], []] },
    });
    // Nobody but the owner reads it.
    expect((await call(cluster.apps[0]!, 'auditlog', { ssid: ssid['unsend-man'] })).status).toBe(403);
  });

  it('refuses after 24 hours by the server clock, and leaves the message as it was', async () => {
    const manSocket = await connect(a, 'unsend-man');
    const sent = await say(manSocket, groupTalk, '昨日の言葉');
    offset = 24 * HOUR + 1_000;
    manSocket.send({ type: 'unsend', message_id: sent.id });
    expect(await manSocket.take((frame) => frame.type === 'error')).toMatchObject({
      error: jaMember.unsend.tooLate,
    });
    const shown = (await history('unsend-woman', groupTalk)).find((m) => m.id === sent.id);
    expect(shown).toMatchObject({ message: '昨日の言葉' });
    expect(shown?.unsent).toBeUndefined();
  });

  it('takes back a message just inside 24 hours', async () => {
    const manSocket = await connect(a, 'unsend-man');
    const sent = await say(manSocket, groupTalk, 'ぎりぎりの言葉');
    offset = 24 * HOUR - 60_000;
    manSocket.send({ type: 'unsend', message_id: sent.id });
    expect(await manSocket.take(isMessage((m) => m.id === sent.id))).toMatchObject({ unsent: true });
  });

  it("refuses someone else's message, staff included, and an unseen one as not found", async () => {
    const manSocket = await connect(a, 'unsend-man');
    const sent = await say(manSocket, groupTalk, '私の言葉');
    for (const [who, error] of [
      ['unsend-woman', jaMember.unsend.notOwn],
      ['unsend-owner', jaMember.unsend.notOwn],
      ['unsend-jiro', ja.errors.notFound],
    ] as const) {
      const socket = await connect(b, who);
      socket.send({ type: 'unsend', message_id: sent.id });
      expect(await socket.take((frame) => frame.type === 'error')).toMatchObject({ error });
    }
    const shown = (await history('unsend-man', groupTalk)).find((m) => m.id === sent.id);
    expect(shown).toMatchObject({ message: '私の言葉' });
  });

  it('is idempotent: a second unsend changes nothing and logs nothing more', async () => {
    const manSocket = await connect(a, 'unsend-man');
    const sent = await say(manSocket, groupTalk, '二度取り消す');
    manSocket.send({ type: 'unsend', message_id: sent.id });
    await manSocket.take(isMessage((m) => m.id === sent.id && m.unsent === true));
    manSocket.send({ type: 'unsend', message_id: sent.id });
    await barrier(manSocket);
    expect(manSocket.untaken().filter((frame) => frame.type === 'error' || frame.type === 'message')).toEqual(
      [],
    );
    const reply = await call(cluster.apps[0]!, 'auditlog', { ssid: ssid['unsend-owner'], action: 'unsend' });
    const rows = AuditLogReply.parse(reply.body).rows.filter(
      (row) => row.changes?.message?.[0] === '二度取り消す',
    );
    expect(rows).toHaveLength(1);
  });

  it('takes an unread message out of the badge', async () => {
    const manSocket = await connect(a, 'unsend-man');
    const start = (await unread('unsend-woman')).setting;
    const sent = await say(manSocket, groupTalk, 'まだ読まれていない');
    await expect.poll(async () => (await unread('unsend-woman')).setting).toBe(start + 1);
    manSocket.send({ type: 'unsend', message_id: sent.id });
    await manSocket.take(isMessage((m) => m.id === sent.id && m.unsent === true));
    expect((await unread('unsend-woman')).setting).toBe(start);
  });

  it('pushes the words taken back quietly in the talk’s notification, whatever the text switch', () => {
    const fact = {
      ...messageFact(
        {
          id: 9,
          conversationId: groupTalk,
          senderId: man.uid,
          senderName: man.name,
          senderRole: 101,
          senderImage: null,
          body: UNSENT,
          images: [],
          announce: false,
          messageType: 0,
          clientId: null,
          createdAt: new Date(),
          stamp: null,
          unsentAt: new Date(),
          kind: 'st',
          memberId: null,
          memberRole: null,
          manId: man.uid,
          womanId: woman.uid,
          reply: null,
        },
        () => [],
      ),
    };
    expect(messagePayload(fact, 201, DEFAULT_PUSH_SETTINGS, 0)).toMatchObject({
      body: UNSENT,
      tag: `talk-${groupTalk}`,
      quiet: true,
    });
  });
});
