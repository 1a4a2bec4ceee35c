import {
  BroadcastsReply,
  ConversationsReply,
  ja,
  MessagesReply,
  RecipientsReply,
  type Message,
  type ServerFrame,
  jaMember,
} from '@enishi/contract';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../lib/passwords.js';
import { UserRepository } from '../repositories/user-repository.js';
import {
  call,
  callRaw,
  createTestContext,
  createUser,
  login,
  type TestContext,
  type TestUser,
} from '../test/app.js';
import {
  createRoleUsers,
  fetchImage,
  imageDataUrl,
  MEMBER_ROLES,
  STAFF_ROLES,
  type RoleName,
} from '../test/content.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';
import { actorOf, deskOf } from '../test/talk.js';

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;

describe('bulk send', () => {
  let ctx: TestContext;
  let ssid: Record<RoleName, string>;
  let users: Record<RoleName, TestUser>;
  let men: TestUser[];
  let menSsid: string[];
  let women: TestUser[];
  const sockets: TestSocket[] = [];
  let base: string;

  const send = (who: RoleName, body: Record<string, unknown>) =>
    call(ctx.app, 'messages/send', { ssid: ssid[who], message: '一括のお知らせです', image: [], ...body });
  /** Every message of a talk, as the member sees it. */
  const talkOf = async (memberSsid: string): Promise<Message[]> => {
    const desk = await deskOf(ctx.app, memberSsid);
    const reply = await call(ctx.app, 'messages', { ssid: memberSsid, id: desk });
    return MessagesReply.parse(reply.body).rows.flatMap((group) => group.messages);
  };
  const history = async (type: 1 | 2) => {
    const reply = await call(ctx.app, 'broadcasts', { ssid: ssid.staff, type });
    expect(reply.status).toBe(200);
    return BroadcastsReply.parse(reply.body).rows;
  };

  /** A club of its own: the role users, three men and two women, nothing sent yet. */
  const openClub = async () => {
    ctx = await createTestContext();
    base = await listen(ctx.app);
    ({ ssid, users } = await createRoleUsers(ctx.app));
    men = [users.man];
    for (const loginId of ['jiro', 'saburo'])
      men.push(await createUser(ctx.app, { loginId, role: 101, rank: 3 }));
    menSsid = [ssid.man, ...(await Promise.all(men.slice(1).map((man) => login(ctx.app, man))))];
    women = [users.woman, await createUser(ctx.app, { loginId: 'hanako', role: 201 })];
  };
  const closeClub = async () => {
    await closeAll(sockets.splice(0));
    await ctx.close();
  };

  describe('who may call what', () => {
    // Nothing here is sent, so these tests share one club.
    beforeAll(openClub);
    afterAll(closeClub);

    it.each(['messages/send', 'broadcasts', 'broadcasts/recipients'])(
      '%s answers 401 without a session',
      async (name) => {
        for (const body of [{}, { ssid: 'made-up' }]) {
          expect(await call(ctx.app, name, { ...body, type: 1, users: [1], message: 'x' })).toMatchObject({
            status: 401,
            body: { error: ja.errors.unauthorized },
          });
        }
      },
    );

    it.each(MEMBER_ROLES)('member %s may not send, see the history or list recipients (403)', async (who) => {
      const own = who === 'man' ? men : women;
      expect(await send(who, { users: own.map((user) => user.uid) })).toMatchObject({
        status: 403,
        body: { error: ja.errors.forbidden },
      });
      expect((await call(ctx.app, 'broadcasts', { ssid: ssid[who], type: 1 })).status).toBe(403);
      expect((await call(ctx.app, 'broadcasts/recipients', { ssid: ssid[who], type: 1 })).status).toBe(403);
      expect(await talkOf(ssid.man)).toEqual([]);
    });

    it.each(STAFF_ROLES)('staff role %s lists the recipients of each group', async (who) => {
      const menRows = RecipientsReply.parse(
        (await call(ctx.app, 'broadcasts/recipients', { ssid: ssid[who], type: 1 })).body,
      ).rows;
      // Newest first, as every staff list of members.
      expect(menRows.map((row) => row.uid)).toEqual(men.map((man) => man.uid).reverse());
      expect(menRows.find((row) => row.uid === men[1]!.uid)).toEqual({
        uid: men[1]!.uid,
        name: men[1]!.name,
        rank: 3,
      });
      const womenRows = RecipientsReply.parse(
        (await call(ctx.app, 'broadcasts/recipients', { ssid: ssid[who], type: '2' })).body,
      ).rows;
      expect(womenRows.map((row) => row.uid)).toEqual(women.map((woman) => woman.uid).reverse());
    });
  });

  describe('validation', () => {
    // Every send here is refused, so these tests share one club.
    beforeAll(openClub);
    afterAll(closeClub);

    it.each([
      [{ users: [] }, 400, jaMember.broadcast.noRecipients],
      [{ users: 'all' }, 400, jaMember.broadcast.noRecipients],
      [{ message: '', image: [] }, 400, ja.talk.emptyComment],
      [{ message: '   ' }, 400, ja.talk.emptyComment],
      [{ message: 'x'.repeat(5001) }, 400, ja.errors.tooLong],
      [{ image: ['https://example.com/a.png'] }, 400, ja.errors.badImage],
      [{ type: 3 }, 400, ja.errors.badRequest],
    ])('refuses %j', async (change, status, message) => {
      expect(await send('staff', { users: [men[0]!.uid], ...change })).toMatchObject({
        status,
        body: { error: message },
      });
    });

    it('refuses a list that mixes men and women, names staff, or does not match the type', async () => {
      const wrong = { status: 400, body: { error: jaMember.broadcast.wrongGroup } };
      expect(await send('staff', { users: [men[0]!.uid, women[0]!.uid] })).toMatchObject(wrong);
      expect(await send('staff', { users: [users.staff.uid] })).toMatchObject(wrong);
      expect(await send('staff', { users: [women[0]!.uid], type: 1 })).toMatchObject(wrong);
    });

    it('answers 404 when a recipient does not exist', async () => {
      expect(await send('staff', { users: [men[0]!.uid, 999_999] })).toMatchObject({ status: 404 });
    });

    it('answers 413 with Japanese text for a body over the route limit', async () => {
      const body = JSON.stringify({
        ssid: ssid.staff,
        users: [men[0]!.uid],
        message: 'x',
        image: ['x'.repeat(43_000_000)],
      });
      expect(await callRaw(ctx.app, 'messages/send', body, 'application/json')).toMatchObject({
        status: 413,
        body: { error: ja.errors.tooLarge },
      });
    });

    it('stores nothing when refused', async () => {
      expect((await send('staff', { users: [men[0]!.uid, women[0]!.uid] })).status).toBe(400);
      expect((await send('staff', { users: [men[0]!.uid], message: '' })).status).toBe(400);
      expect((await send('staff', { users: [men[0]!.uid, 999_999] })).status).toBe(404);
      expect((await send('man', { users: [men[0]!.uid] })).status).toBe(403);
      for (const man of menSsid) expect(await talkOf(man)).toEqual([]);
      expect(await history(1)).toEqual([]);
    });
  });

  describe('sending', () => {
    // Each test counts what its own send stored: a club of its own, where nothing was sent before.
    beforeEach(openClub);
    afterEach(closeClub);

    it('puts the message once into each chosen member’s talk with staff, live on their socket with the badge raised', async () => {
      const live = await TestSocket.session(base, menSsid[0]!);
      const other = await TestSocket.session(base, menSsid[2]!);
      sockets.push(live, other);
      const deskOfFirst = await deskOf(ctx.app, menSsid[0]!);

      // The original client sends a conversation id too: ignored. Duplicated uids count once.
      const reply = await send('staff', { id: 12345, users: [men[0]!.uid, men[1]!.uid, men[0]!.uid] });
      expect(reply).toEqual(expect.objectContaining({ status: 200, body: { status: 'OK', count: 2 } }));

      const frame = await live.take<MessageFrame>((f) => f.type === 'message');
      expect(frame).toMatchObject({
        conversation_id: deskOfFirst,
        conversation_type: 'staff',
        message: '一括のお知らせです',
        from: users.staff.uid,
        name: users.staff.name,
        own: false,
      });
      const counters = await live.take((f) => f.type === 'notifications' && f.fromStaff > 0);
      expect(counters).toMatchObject({ fromStaff: 1 });

      for (const man of menSsid.slice(0, 2)) {
        const talk = await talkOf(man);
        expect(talk).toHaveLength(1);
        expect(talk[0]).toMatchObject({ message: '一括のお知らせです', from: users.staff.uid, own: false });
      }
      expect(await talkOf(menSsid[2]!)).toEqual([]);
      expect(other.untaken().filter((f) => f.type === 'message')).toEqual([]);
    });

    it('keeps the staff’s record in the sendmen history, and counts who has read it', async () => {
      expect((await send('staff', { users: [men[0]!.uid, men[1]!.uid] })).status).toBe(200);
      const [record] = await history(1);
      expect(record).toEqual({
        id: expect.any(Number),
        type: 1,
        message: '一括のお知らせです',
        image: [],
        name: users.staff.name,
        date: expect.any(String),
        count: 2,
        read: 0,
      });
      const sendmen = ConversationsReply.parse(
        (await call(ctx.app, 'conversations', { ssid: ssid.admin, type: 'sendmen', search: '', page: 0 }))
          .body,
      ).rows;
      expect(sendmen).toHaveLength(1);
      expect(JSON.parse(sendmen[0]!.last_content)).toEqual({ content: '一括のお知らせです' });

      // The first man opens his talk: one of two has read it.
      const actor = await actorOf(ctx.app, menSsid[0]!);
      await ctx.app.services.messages.markRead(actor, await deskOf(ctx.app, menSsid[0]!));
      expect((await history(1))[0]).toMatchObject({ count: 2, read: 1 });
      // A send to men never shows in the women's history.
      expect(await history(2)).toEqual([]);
    });

    it('counts only the recipients still members: a deleted member leaves the count with their copy', async () => {
      expect((await send('staff', { users: [men[0]!.uid, men[1]!.uid] })).status).toBe(200);
      expect((await history(1))[0]).toMatchObject({ count: 2, read: 0 });
      expect((await call(ctx.app, 'deluser', { ssid: ssid.admin, uid: men[1]!.uid })).status).toBe(200);
      expect((await history(1))[0]).toMatchObject({ count: 1, read: 0 });
    });

    it('sends images: every copy has its own image, which outlives another copy being deleted', async () => {
      const png = await imageDataUrl('png', { width: 400, height: 300 });
      const reply = await send('admin', {
        users: women.map((woman) => woman.uid),
        message: '',
        image: [png],
        type: 2,
      });
      expect(reply.body).toEqual({ status: 'OK', count: 2 });
      const womenSsid = [ssid.woman, await login(ctx.app, women[1]!)];
      const [first] = await talkOf(womenSsid[0]!);
      const [second] = await talkOf(womenSsid[1]!);
      expect(first!.image).toHaveLength(1);
      expect(first!.image[0]!.split('?')[0]).not.toBe(second!.image[0]!.split('?')[0]);
      // Sent as PNG, stored as a JPEG photo like any talk picture (product.md §14.1).
      expect((await fetchImage(ctx.app, first!.image[0]!)).type).toBe('image/jpeg');

      await ctx.app.services.messages.delete(await actorOf(ctx.app, ssid.admin), first!.id);
      expect((await fetchImage(ctx.app, first!.image[0]!)).status).toBe(404);
      expect((await fetchImage(ctx.app, second!.image[0]!)).status).toBe(200);
      const [record] = await history(2);
      expect(record).toMatchObject({ message: '', count: 2, name: users.admin.name });
      expect((await fetchImage(ctx.app, record!.image[0]!)).status).toBe(200);
    });

    it('sends to more members than one insert batch holds, each once', async () => {
      const repository = new UserRepository(ctx.database.db);
      const passwordHash = await hashPassword('Bulk-pass.1');
      const uids: number[] = [];
      for (let i = 0; i < 1100; i += 1) {
        const user = await repository.create({
          loginId: `bulk-${i}`,
          name: `会員${i}`,
          passwordHash,
          role: 101,
        });
        uids.push(user!.id);
      }
      const reply = await send('staff', { users: uids, message: '大量送信' });
      expect(reply.body).toEqual({ status: 'OK', count: 1100 });
      expect((await history(1))[0]).toMatchObject({ message: '大量送信', count: 1100, read: 0 });

      const counts = await ctx.database.db.execute<{ n: number; conversations: number }>(
        sql`select count(*)::int as n, count(distinct conversation_id)::int as conversations from messages where body = '大量送信'`,
      );
      const row = (Array.isArray(counts) ? counts[0] : (counts as { rows: unknown[] }).rows[0]) as {
        n: number;
        conversations: number;
      };
      // 1,100 copies and the history message, each in its own conversation.
      expect(row).toEqual({ n: 1101, conversations: 1101 });
    });
  });
});
