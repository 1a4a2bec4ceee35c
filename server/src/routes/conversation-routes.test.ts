import {
  ConversationsReply,
  GetConversationReply,
  GetUserReply,
  ja,
  MessagesReply,
  UpdateNotificationsReply,
  type ConversationRow,
} from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationRepository } from '../repositories/conversation-repository.js';
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
import { actorOf, deskOf, postMessage } from '../test/talk.js';

const DAY = 24 * 60 * 60 * 1000;

describe('conversations and messages over HTTP', () => {
  let ctx: TestContext;
  /** An app on the same database whose clock the tests set, to place messages on chosen dates. */
  let clocked: FastifyInstance;
  let now = Date.now();
  let admin: TestUser;
  let staff: TestUser;
  let man: TestUser;
  let otherMan: TestUser;
  let woman: TestUser;
  let otherWoman: TestUser;
  const ssid: Record<string, string> = {};
  const desk: Record<string, number> = {};
  let groupTalk: number;
  let otherGroupTalk: number;
  let staffRoom: number;
  let broadcast: number;
  let png: string;

  const list = async (who: string, type: string, extra: Record<string, unknown> = {}) => {
    const reply = await call(ctx.app, 'conversations', {
      ssid: ssid[who],
      type,
      search: '',
      page: 0,
      ...extra,
    });
    expect(reply.status).toBe(200);
    return ConversationsReply.parse(reply.body);
  };
  const rowOf = (rows: ConversationRow[], id: number) => rows.find((row) => row.id === id);
  const messagesOf = async (who: string, id: number, before?: number) => {
    const reply = await call(ctx.app, 'messages', { ssid: ssid[who], id, ...(before ? { before } : {}) });
    expect(reply.status).toBe(200);
    return MessagesReply.parse(reply.body);
  };
  const counters = async (who: string) =>
    UpdateNotificationsReply.parse((await call(ctx.app, 'updateNotifications', { ssid: ssid[who] })).body)
      .rows[0]!;

  beforeAll(async () => {
    ctx = await createTestContext();
    clocked = await ctx.buildApp({}, () => now);
    admin = await createUser(ctx.app, { loginId: 'admin', role: 1, name: '管理者' });
    staff = await createUser(ctx.app, { loginId: 'staff-3', role: 3, name: 'スタッフ三郎' });
    man = await createUser(ctx.app, { loginId: 'taro', role: 101, name: '山田 太郎', rank: 2 });
    otherMan = await createUser(ctx.app, { loginId: 'ichiro', role: 101, name: '田中 一郎' });
    woman = await createUser(ctx.app, { loginId: 'hanako', role: 201, name: '佐藤 花子' });
    otherWoman = await createUser(ctx.app, { loginId: 'yuki', role: 201, name: '高橋 由紀' });
    for (const user of [admin, staff, man, otherMan, woman, otherWoman]) {
      ssid[user.loginId] = await login(ctx.app, user);
    }
    for (const member of ['taro', 'ichiro', 'hanako', 'yuki'])
      desk[member] = await deskOf(ctx.app, ssid[member]!);

    const registrar = await actorOf(ctx.app, ssid.admin!);
    groupTalk = (
      await ctx.app.services.conversations.createGroupTalk(registrar, { manId: man.uid, womanId: woman.uid })
    ).id;
    otherGroupTalk = (
      await ctx.app.services.conversations.createGroupTalk(registrar, {
        manId: otherMan.uid,
        womanId: otherWoman.uid,
      })
    ).id;
    await ctx.app.services.conversations.ensureStaffRoom();
    staffRoom = (await list('admin', 'staff')).rows[0]!.id;
    broadcast = (
      await new ConversationRepository(ctx.database.db).createStaffConversation(
        'sendmen',
        '一括送信 男性',
        new Date(),
      )
    ).id;
    const pixel = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    png = `data:image/png;base64,${pixel.toString('base64')}`;
  });
  afterAll(() => ctx.close());

  describe('/api/conversations', () => {
    it('gives every member their one talk with staff from the start, as type staff', async () => {
      const reply = await list('yuki', 'staff');
      expect(reply).toEqual({
        rows: [
          {
            id: desk.yuki,
            conversation_id: desk.yuki,
            type: 'staff',
            name: ja.talk.staffDesk,
            uid: otherWoman.uid,
            username: ja.talk.staffDesk,
            role: null,
            rank: null,
            user_image: null,
            last_content: '{"content":""}',
            last_date: null,
            unread: 0,
          },
        ],
        isEnd: true,
      });
    });

    it('lists men’s and women’s talks to staff, newest activity first, searchable by name and login ID', async () => {
      now = Date.now();
      await postMessage(clocked, ssid.ichiro!, desk.ichiro!, '一郎です');
      const men = await list('staff-3', 'men');
      expect(men.rows.map((row) => row.id)).toEqual(expect.arrayContaining([desk.taro, desk.ichiro]));
      expect(men.rows[0]).toMatchObject({
        id: desk.ichiro,
        type: 'men',
        name: '田中 一郎',
        username: '田中 一郎',
        uid: otherMan.uid,
        role: 101,
        last_content: '{"content":"一郎です"}',
        unread: 1,
      });
      expect(rowOf(men.rows, desk.taro!)).toMatchObject({ type: 'men', rank: 2, role: 101 });
      expect(men.rows.every((row) => row.type === 'men')).toBe(true);

      const women = await list('admin', 'women');
      expect(women.rows.map((row) => row.id).sort()).toEqual([desk.hanako, desk.yuki].sort());
      expect(women.rows.every((row) => row.type === 'women')).toBe(true);

      expect((await list('admin', 'men', { search: '太郎' })).rows.map((row) => row.id)).toEqual([desk.taro]);
      expect((await list('admin', 'men', { search: 'ICHIRO' })).rows.map((row) => row.id)).toEqual([
        desk.ichiro,
      ]);
      expect((await list('admin', 'men', { search: '%' })).rows).toEqual([]);
      expect((await list('admin', 'women', { search: '太郎' })).rows).toEqual([]);
    });

    it('shows members only their own group talks and staff all of them; other types are empty', async () => {
      const mine = await list('taro', 'st');
      expect(mine.rows).toHaveLength(1);
      expect(mine.rows[0]).toMatchObject({ id: groupTalk, type: 'st', name: '太郎花子', uid: null });
      expect((await list('admin', 'st')).rows.map((row) => row.id).sort()).toEqual(
        [groupTalk, otherGroupTalk].sort(),
      );
      for (const type of ['men', 'women', 'sendmen', 'sendwomen']) {
        expect(await list('taro', type)).toEqual({ rows: [], isEnd: true });
      }
      expect((await list('admin', 'staff')).rows).toEqual([
        expect.objectContaining({ id: staffRoom, type: 'staff', name: ja.talk.staffRoom }),
      ]);
      expect((await list('admin', 'sendmen')).rows).toEqual([
        expect.objectContaining({ id: broadcast, type: 'sendmen', name: '一括送信 男性' }),
      ]);
      expect(await list('admin', 'sendwomen')).toEqual({ rows: [], isEnd: true });
    });

    it('counts unread messages per caller and shows 画像 for an image-only last message', async () => {
      now = Date.now();
      await postMessage(clocked, ssid.admin!, desk.taro!, 'ご入会ありがとうございます');
      await postMessage(clocked, ssid.admin!, desk.taro!, '', { image: [png] });

      const forMember = rowOf((await list('taro', 'staff')).rows, desk.taro!)!;
      expect(forMember).toMatchObject({
        unread: 2,
        last_content: JSON.stringify({ content: ja.talk.image }),
      });
      expect(new Date(forMember.last_date!).getTime()).toBe(now);
      // The writer has nothing unread, and neither has a colleague: what the desk wrote is not news to it.
      expect(rowOf((await list('admin', 'men')).rows, desk.taro!)?.unread).toBe(0);
      expect(rowOf((await list('staff-3', 'men')).rows, desk.taro!)?.unread).toBe(0);
      // The member's own words are unread for every staff member.
      await postMessage(clocked, ssid.taro!, desk.taro!, 'よろしくお願いします');
      expect(rowOf((await list('staff-3', 'men')).rows, desk.taro!)?.unread).toBe(1);
      expect(rowOf((await list('admin', 'men')).rows, desk.taro!)?.unread).toBe(1);

      await ctx.app.services.messages.markRead(await actorOf(ctx.app, ssid.taro!), desk.taro!);
      expect(rowOf((await list('taro', 'staff')).rows, desk.taro!)?.unread).toBe(0);
    });

    it('pages 20 at a time with isEnd', async () => {
      const users = new UserRepository(ctx.database.db);
      for (let i = 0; i < 25; i += 1) {
        await users.create({ loginId: `page-man-${i}`, name: `頁 男${i}`, passwordHash: 'h', role: 101 });
      }
      const first = await list('admin', 'men', { search: '頁' });
      expect(first.rows).toHaveLength(20);
      expect(first.isEnd).toBe(false);
      const second = await list('admin', 'men', { search: '頁', page: '1' });
      expect(second.rows).toHaveLength(5);
      expect(second.isEnd).toBe(true);
      const ids = [...first.rows, ...second.rows].map((row) => row.id);
      expect(new Set(ids).size).toBe(25);
      expect(await list('admin', 'men', { search: '頁', page: 2 })).toEqual({ rows: [], isEnd: true });
    });
  });

  describe('/api/get_conversation and /api/get_send_conversation', () => {
    it('gives a member their own talk and answers 404 for another’s exactly as for none', async () => {
      const own = await call(ctx.app, 'get_conversation', {
        ssid: ssid.hanako,
        user_id: woman.uid,
        conversation_id: groupTalk,
      });
      expect(GetConversationReply.parse(own.body).rows).toEqual([
        expect.objectContaining({ id: groupTalk, type: 'st', name: '太郎花子' }),
      ]);
      const others = await call(ctx.app, 'get_conversation', {
        ssid: ssid.hanako,
        conversation_id: desk.taro,
      });
      const none = await call(ctx.app, 'get_conversation', { ssid: ssid.hanako, conversation_id: 999_999 });
      expect(others).toMatchObject({ status: 404, body: { error: ja.errors.notFound } });
      expect({ status: none.status, body: none.body }).toEqual({ status: others.status, body: others.body });
      for (const id of [otherGroupTalk, staffRoom, broadcast]) {
        expect(
          (await call(ctx.app, 'get_conversation', { ssid: ssid.hanako, conversation_id: id })).status,
        ).toBe(404);
      }
    });

    it('gives staff any talk, each with the type they see', async () => {
      for (const [id, type] of [
        [desk.taro, 'men'],
        [desk.hanako, 'women'],
        [groupTalk, 'st'],
        [staffRoom, 'staff'],
      ] as const) {
        const reply = await call(ctx.app, 'get_conversation', { ssid: ssid['staff-3'], conversation_id: id });
        expect(GetConversationReply.parse(reply.body).rows[0]).toMatchObject({
          id,
          conversation_id: id,
          type,
        });
      }
    });

    it('gives bulk-send histories to staff only', async () => {
      const reply = await call(ctx.app, 'get_send_conversation', {
        ssid: ssid.admin,
        conversation_id: broadcast,
      });
      expect(GetConversationReply.parse(reply.body).rows[0]).toMatchObject({
        id: broadcast,
        type: 'sendmen',
      });
      expect(
        (await call(ctx.app, 'get_send_conversation', { ssid: ssid.admin, conversation_id: desk.taro }))
          .status,
      ).toBe(404);
      expect(
        await call(ctx.app, 'get_send_conversation', { ssid: ssid.taro, conversation_id: broadcast }),
      ).toMatchObject({ status: 403, body: { error: ja.errors.forbidden } });
    });
  });

  describe('/api/messages', () => {
    it('groups by Japan date, newest group last, with messages in the contract shape', async () => {
      // 23:59:59 and 00:00:00 in Japan, on two consecutive Japan dates.
      const midnight = Math.floor((Date.now() - 3 * DAY) / DAY) * DAY + 15 * 60 * 60 * 1000;
      now = midnight - 1000;
      const late = await postMessage(clocked, ssid.yuki!, desk.yuki!, '夜遅くにすみません');
      now = midnight;
      const reply = await postMessage(clocked, ssid.admin!, desk.yuki!, 'お返事です', { reply: late.id });

      const page = await messagesOf('yuki', desk.yuki!);
      const dayBefore = new Date(midnight - 1000 + 9 * 60 * 60 * 1000).toISOString().slice(0, 10);
      const dayAfter = new Date(midnight + 9 * 60 * 60 * 1000).toISOString().slice(0, 10);
      expect(page.isEnd).toBe(true);
      expect(page.rows.map((group) => group.date)).toEqual([dayBefore, dayAfter]);
      expect(page.rows[0]!.messages[0]).toEqual({
        id: late.id,
        client_id: late.client_id,
        from: otherWoman.uid,
        name: '高橋 由紀',
        role: 201,
        conversation_id: desk.yuki,
        conversation_type: 'staff',
        message: '夜遅くにすみません',
        image: [],
        reply: null,
        announce: false,
        message_type: 0,
        date: new Date(midnight - 1000).toISOString(),
        own: true,
        user_image: null,
        // Staff answered, so staff had read it.
        read: true,
      });
      expect(page.rows[1]!.messages[0]).toMatchObject({
        id: reply.id,
        own: false,
        name: '管理者',
        role: 1,
        reply: {
          id: late.id,
          message: '夜遅くにすみません',
          own: true,
          name: '高橋 由紀',
          role: 201,
          image: [],
        },
        read: false,
      });
      // Staff see the same talk as type women, and their own message as own.
      const forStaff = await messagesOf('admin', desk.yuki!);
      expect(forStaff.rows[1]!.messages[0]).toMatchObject({ own: true, conversation_type: 'women' });
    });

    it('pages 50 at a time, older ones with `before`', async () => {
      now = Date.now();
      const ids: number[] = [];
      for (let i = 0; i < 55; i += 1)
        ids.push((await postMessage(clocked, ssid.ichiro!, desk.ichiro!, `m${i}`)).id);
      const first = await messagesOf('ichiro', desk.ichiro!);
      const firstIds = first.rows.flatMap((group) => group.messages.map((message) => message.id));
      expect(firstIds).toEqual(ids.slice(-50));
      expect(first.isEnd).toBe(false);
      const older = await messagesOf('ichiro', desk.ichiro!, firstIds[0]);
      const olderIds = older.rows.flatMap((group) => group.messages.map((message) => message.id));
      expect(olderIds.slice(-5)).toEqual(ids.slice(0, 5));
      expect(older.isEnd).toBe(true);
    });

    it('signs image URLs and answers 404 to anyone outside the talk', async () => {
      const page = await messagesOf('taro', desk.taro!);
      const withImage = page.rows.flatMap((group) => group.messages).find((message) => message.image.length);
      expect(withImage?.image[0]).toMatch(/^\/media\/[A-Za-z0-9_-]{22}\?e=\d+&s=[A-Za-z0-9_-]{43}$/);

      for (const id of [desk.taro, groupTalk, staffRoom, broadcast, 999_999]) {
        expect(await call(ctx.app, 'messages', { ssid: ssid.yuki, id })).toMatchObject({
          status: 404,
          body: { error: ja.errors.notFound },
        });
      }
    });
  });

  describe('/api/updateNotifications and unreads', () => {
    it('derives each member’s counters from their unread messages', async () => {
      now = Date.now();
      const before = await counters('hanako');
      await postMessage(clocked, ssid.admin!, desk.hanako!, '花子さんへ');
      await postMessage(clocked, ssid.taro!, groupTalk, 'グループへ');
      await postMessage(clocked, ssid.admin!, otherGroupTalk, '他のグループへ');
      // Sent counters are accepted (the original client sends them) and do not change the answer.
      const reply = await call(ctx.app, 'updateNotifications', {
        ssid: ssid.hanako,
        uid: woman.uid,
        news: 0,
        fromStaff: 5,
        setting: 0,
      });
      expect(UpdateNotificationsReply.parse(reply.body).rows[0]).toEqual({
        news: 0,
        fromStaff: before.fromStaff + 1,
        setting: before.setting + 1,
        fromWomen: 0,
        fromMen: 0,
      });
    });

    it('gives staff their counters of men’s, women’s and group talks and staff rooms', async () => {
      const before = await counters('staff-3');
      await postMessage(clocked, ssid.taro!, desk.taro!, '男性から');
      await postMessage(clocked, ssid.hanako!, desk.hanako!, '女性から');
      await postMessage(clocked, ssid.hanako!, groupTalk, 'グループから');
      await postMessage(clocked, ssid.admin!, staffRoom, 'スタッフルームへ');
      expect(await counters('staff-3')).toEqual({
        news: 0,
        fromMen: before.fromMen + 1,
        fromWomen: before.fromWomen + 1,
        setting: before.setting + 1,
        fromStaff: before.fromStaff + 1,
      });
    });

    it('lists unread message ids in getuser’s unreads', async () => {
      const latest = await postMessage(clocked, ssid.admin!, desk.taro!, '未読リスト');
      const reply = await call(ctx.app, 'getuser', { ssid: ssid.taro, uid: man.uid });
      const unreads = JSON.parse(GetUserReply.parse(reply.body).rows[0]!.unreads) as Record<
        string,
        Record<string, number[]>
      >;
      expect(Object.keys(unreads).sort()).toEqual(['men', 'staff', 'women']);
      expect(unreads.staff![String(desk.taro)]).toContain(latest.id);
      expect(unreads.men).toEqual({});

      const fromMember = await postMessage(clocked, ssid.taro!, desk.taro!, 'スタッフさんへ');
      const forStaff = await call(ctx.app, 'getuser', { ssid: ssid['staff-3'], uid: staff.uid });
      const staffUnreads = JSON.parse(GetUserReply.parse(forStaff.body).rows[0]!.unreads) as Record<
        string,
        Record<string, number[]>
      >;
      const ids = staffUnreads.men![String(desk.taro)]!;
      expect(ids).toContain(fromMember.id);
      expect(ids).not.toContain(latest.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(Object.keys(staffUnreads.women!)).toContain(String(desk.hanako));
      expect(Object.keys(staffUnreads.staff!)).toEqual([String(staffRoom)]);
    });
  });

  describe('bad input', () => {
    const good: Record<string, Record<string, unknown>> = {
      conversations: { type: 'men', search: '', page: 0 },
      get_conversation: { conversation_id: 1 },
      get_send_conversation: { conversation_id: 1 },
      messages: { id: 1 },
      updateNotifications: {},
    };

    it.each(Object.keys(good))('/api/%s answers 401 without a valid session', async (name) => {
      for (const ssidValue of [undefined, '', 'x'.repeat(43)]) {
        expect(await call(ctx.app, name, { ...good[name], ssid: ssidValue })).toMatchObject({
          status: 401,
          body: { error: ja.errors.unauthorized },
        });
      }
    });

    it.each(Object.keys(good))('/api/%s answers 400 for malformed JSON', async (name) => {
      expect(await callRaw(ctx.app, name, '{"ssid": ', 'application/json')).toMatchObject({
        status: 400,
        body: { error: ja.errors.malformedJson },
      });
    });

    it.each([
      ['conversations', { type: 'other' }],
      ['conversations', { type: 1 }],
      ['conversations', {}],
      ['conversations', { type: 'men', search: 'あ'.repeat(51) }],
      ['conversations', { type: 'men', search: 5 }],
      ['conversations', { type: 'men', page: -1 }],
      ['conversations', { type: 'men', page: 'x' }],
      ['conversations', { type: 'men', extra: true }],
      ['get_conversation', {}],
      ['get_conversation', { conversation_id: 'abc' }],
      ['get_conversation', { conversation_id: 0 }],
      ['get_conversation', { conversation_id: 1, extra: 1 }],
      ['get_send_conversation', { conversation_id: true }],
      ['messages', {}],
      ['messages', { id: -3 }],
      ['messages', { id: 1, before: 'yesterday' }],
      ['messages', { id: 1, limit: 10 }],
      ['updateNotifications', { news: -1 }],
      ['updateNotifications', { setting: 'many' }],
      ['updateNotifications', { badge: 1 }],
    ])('/api/%s refuses %j with 400', async (name, body) => {
      const reply = await call(ctx.app, name, { ssid: ssid.admin, ...body });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9faf]/) });
    });
  });
});
