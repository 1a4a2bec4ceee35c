import { ConversationsReply, MemberTableReply } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessFanout } from '../bus/fanout.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { actorOf, deskOf, postMessage } from '../test/talk.js';

/**
 * The order of the desk's lists (product.md §12.3, §2.8): talks by their latest message, talks without one
 * below them (newest member first); 最終利用 is null (未ログイン) for a member who never logged in.
 */
describe('the order of the desk’s lists', () => {
  let ctx: TestContext;
  /** An app whose clock stands an hour back: its messages are older than the members made after them. */
  let earlier: FastifyInstance;
  let staff: string;
  let active: TestUser;
  let activeDesk: number;
  const newMen: number[] = [];

  const rooms = async (type: string, page = 0) => {
    const reply = await call(ctx.app, 'conversations', { ssid: staff, type, search: '', page });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return ConversationsReply.parse(reply.body);
  };
  const table = async (body: Record<string, unknown>) => {
    const reply = await call(ctx.app, 'members/table', { ssid: staff, kind: 'men', ...body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return MemberTableReply.parse(reply.body);
  };

  beforeAll(async () => {
    // One fan-out for both apps, as for instances on one database: a write drops cached room lists.
    ctx = await createTestContext({ deps: { fanout: new InProcessFanout() } });
    const hourAgo = Date.now() - 3_600_000;
    earlier = await ctx.buildApp({}, () => hourAgo);
    staff = await login(ctx.app, await createUser(ctx.app, { loginId: 'desk-staff', role: 3, name: '受付' }));
    active = await createUser(ctx.app, { loginId: 'active-man', role: 101, name: '常連 一郎' });
    const activeSsid = await login(ctx.app, active);
    activeDesk = await deskOf(ctx.app, activeSsid);
    await postMessage(earlier, activeSsid, activeDesk, 'こんにちは');
    await postMessage(earlier, activeSsid, activeDesk, 'お返事お待ちしています');
    // He logged out since: no session is left, his messages still show he used the app.
    expect((await call(ctx.app, 'logout', { ssid: activeSsid })).status).toBe(200);
    // 30 men added after his messages: their empty talks were made later than his last message.
    for (let i = 0; i < 30; i += 1) {
      const man = await createUser(ctx.app, { loginId: `added-${i}`, role: 101, name: `新人 ${i}` });
      newMen.push(man.uid);
    }
  });
  afterAll(async () => ctx?.close());

  it('puts a talk with messages above every talk without one, on the first page', async () => {
    // Another case writes to one of the new men (the cases run in any order): talks with a message come first,
    // whichever they are, and he is the only new man who may be among them.
    const first = await rooms('men');
    const all = [...first.rows, ...(await rooms('men', 1)).rows];
    const talked = all.filter((row) => row.last_date !== null);
    expect(all.slice(0, talked.length)).toEqual(talked);
    expect(talked.map((row) => row.uid).filter((uid) => uid !== active.uid && uid !== newMen.at(-1))).toEqual(
      [],
    );
    expect(first.rows.find((row) => row.id === activeDesk)).toMatchObject({ name: '常連 一郎', unread: 2 });
    // The empty talks follow, newest member first.
    const empty = all
      .slice(talked.length)
      .map((row) => row.uid)
      .filter((uid): uid is number => uid !== null && newMen.includes(uid));
    expect(empty).toEqual([...newMen].reverse().filter((uid) => empty.includes(uid)));
    expect(empty.length).toBeGreaterThanOrEqual(newMen.length - 1);
  });

  it('orders group talks the same way: the one with a message first, the empty ones newest first', async () => {
    const registrar = await actorOf(ctx.app, staff);
    const woman = await createUser(ctx.app, { loginId: 'group-woman', role: 201, name: '佐藤 花子' });
    const made = async (manId: number) =>
      (await ctx.app.services.conversations.createGroupTalk(registrar, { manId, womanId: woman.uid })).id;
    const talked = await made(active.uid);
    await postMessage(earlier, staff, talked, 'ご紹介します');
    const quietOld = await made(newMen[0]!);
    const quietNew = await made(newMen[1]!);
    expect((await rooms('st')).rows.map((row) => row.id)).toEqual([talked, quietNew, quietOld]);
  });

  it('gives 最終利用 as null (未ログイン) to who never logged in, even when staff wrote to them', async () => {
    const quiet = newMen.at(-1)!;
    const quietDesk = (await rooms('men')).rows.find((row) => row.uid === quiet)!.id;
    await postMessage(ctx.app, staff, quietDesk, 'ご入会ありがとうございます');
    const loggedIn = await createUser(ctx.app, { loginId: 'looked-once', role: 101, name: '一見 次郎' });
    await login(ctx.app, loggedIn);

    const byActivity = await table({ keyword: '', sort: 'activity', desc: true, size: 50 });
    const activity = new Map(byActivity.rows.map((row) => [row.uid, row.last_activity]));
    expect(activity.get(quiet)).toBeNull();
    expect(newMen.every((uid) => activity.get(uid) === null)).toBe(true);
    // Logged in: his session's last request; wrote: his last message (an hour ago).
    expect(activity.get(loggedIn.uid)).toEqual(expect.any(String));
    expect(Math.abs(Date.parse(activity.get(active.uid)!) - (Date.now() - 3_600_000))).toBeLessThan(60_000);
    // The men who used the app first, the others after them whichever way it is sorted.
    expect(byActivity.rows.slice(0, 2).map((row) => row.uid)).toEqual([loggedIn.uid, active.uid]);
    const up = await table({ keyword: '', sort: 'activity', desc: false, size: 50 });
    expect(up.rows.slice(0, 2).map((row) => row.uid)).toEqual([active.uid, loggedIn.uid]);
  });
});
