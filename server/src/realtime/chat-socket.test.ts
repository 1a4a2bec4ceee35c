import {
  ja,
  MessagesReply,
  SOCKET_CLOSE,
  SOCKET_MAX_PAYLOAD,
  UpdateNotificationsReply,
  type ServerFrame,
} from '@enishi/contract';
import { count, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../db/schema.js';
import { sha256Hex } from '../lib/tokens.js';
import { SessionRepository } from '../repositories/session-repository.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';
import { SESSION_RECHECK_MS } from './chat-socket.js';
import { actorOf, deskOf, newClientId } from '../test/talk.js';

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;
type ErrorFrame = Extract<ServerFrame, { type: 'error' }>;

const isMessage = (clientId?: string) => (frame: ServerFrame) =>
  frame.type === 'message' && (clientId === undefined || frame.client_id === clientId);
const isError = (frame: ServerFrame) => frame.type === 'error';

describe('chat socket /ws/chat', () => {
  let ctx: TestContext;
  let base: string;
  let admin: TestUser;
  let helper: TestUser;
  let man: TestUser;
  let woman: TestUser;
  let outsider: TestUser;
  const ssid: Record<string, string> = {};
  let manDesk: number;
  let womanDesk: number;
  let outsiderDesk: number;
  let groupTalk: number;
  let staffRoom: number;
  const open: TestSocket[] = [];

  /** Opens an authenticated socket that is closed after the test. */
  const connect = async (session: string, options: { last_id?: number | null } = {}) => {
    const socket = await TestSocket.session(base, session, options);
    open.push(socket);
    return socket;
  };

  const text = (conversationId: number, message: string, extra: Record<string, unknown> = {}) => ({
    type: 'text',
    conversation_id: conversationId,
    conversation_type: null,
    message,
    image: [],
    reply: null,
    announce: false,
    client_id: newClientId(),
    ...extra,
  });

  /** Sends a message and waits for the sender's own echo (which comes only after the commit). */
  const say = async (socket: TestSocket, conversationId: number, message: string) => {
    const frame = text(conversationId, message);
    socket.send(frame);
    return socket.take<MessageFrame>(isMessage(frame.client_id));
  };

  /**
   * Everything published before this call has reached `socket` when it returns: the socket's frames are
   * handled in order, and this one (opening a talk that does not exist) always answers an error.
   */
  const barrier = async (socket: TestSocket) => {
    socket.send({ type: 'open', conversation_id: 2_000_000_000 });
    await socket.take(isError);
  };

  const messageCount = async (conversationId?: number) => {
    const rows = await ctx.database.db
      .select({ n: count() })
      .from(messages)
      .where(conversationId === undefined ? undefined : eq(messages.conversationId, conversationId));
    return rows[0]!.n;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ deps: { socketAuthTimeoutMs: 300 } });
    admin = await createUser(ctx.app, { loginId: 'admin', role: 1, name: '管理者' });
    helper = await createUser(ctx.app, { loginId: 'helper', role: 6, name: '補助スタッフ' });
    man = await createUser(ctx.app, { loginId: 'taro', role: 101, name: '山田 太郎' });
    woman = await createUser(ctx.app, { loginId: 'hanako', role: 201, name: '佐藤 花子' });
    outsider = await createUser(ctx.app, { loginId: 'jiro', role: 101, name: '鈴木 次郎' });
    for (const user of [admin, helper, man, woman, outsider]) ssid[user.loginId] = await login(ctx.app, user);
    manDesk = await deskOf(ctx.app, ssid.taro!);
    womanDesk = await deskOf(ctx.app, ssid.hanako!);
    outsiderDesk = await deskOf(ctx.app, ssid.jiro!);
    const talk = await ctx.app.services.conversations.createGroupTalk(await actorOf(ctx.app, ssid.admin!), {
      manId: man.uid,
      womanId: woman.uid,
    });
    groupTalk = talk.id;
    await ctx.app.services.conversations.ensureStaffRoom();
    const rooms = await call(ctx.app, 'conversations', {
      ssid: ssid.admin,
      type: 'staff',
      search: '',
      page: 0,
    });
    staffRoom = (rooms.body as { rows: { id: number }[] }).rows[0]!.id;
    base = await listen(ctx.app);
  });
  afterEach(async () => {
    await closeAll(open.splice(0));
  });
  afterAll(() => ctx.close());

  describe('connecting', () => {
    it('refuses another Origin, and no Origin, before upgrading', async () => {
      await expect(TestSocket.connect(base, 'https://evil.example')).rejects.toThrow(/403/);
      await expect(TestSocket.connect(base, '')).rejects.toThrow(/403/);
    });

    it('closes with 4401 when no session frame arrives in time', async () => {
      const socket = await TestSocket.connect(base);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.unauthenticated);
    });

    it.each([
      ['an unknown session', { type: 'session', session: 'x'.repeat(43) }],
      ['a malformed session frame', { type: 'session', session: 12 }],
      ['a first frame that is not the session', { type: 'open', conversation_id: 1 }],
      ['a first frame that is not JSON', 'hello'],
    ])('closes with 4401 for %s', async (_case, frame) => {
      const socket = await TestSocket.connect(base);
      socket.send(frame);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.unauthenticated);
    });

    it('closes with 1009 for a frame over the payload limit', async () => {
      const socket = await connect(ssid.taro!);
      socket.send(`{"type":"text","message":"${'x'.repeat(SOCKET_MAX_PAYLOAD)}"}`);
      expect((await socket.closed).code).toBe(1009);
    });

    it('says ready with the newest message id the user may see', async () => {
      const staff = await connect(ssid.admin!);
      const echo = await say(staff, outsiderDesk, '準備確認');
      const member = await connect(ssid.taro!);
      const ready = member.received.find((frame) => frame.type === 'ready');
      // The outsider's talk is not the man's: his newest visible id is older.
      expect(ready).toMatchObject({ type: 'ready' });
      expect((ready as { last_id: number }).last_id).toBeLessThan(echo.id);
      const again = await connect(ssid.admin!);
      expect(again.received.find((frame) => frame.type === 'ready')).toEqual({
        type: 'ready',
        last_id: echo.id,
      });
    });
  });

  describe('messages', () => {
    it('go live both ways between a member and staff, after the commit, with `own` for each reader', async () => {
      const staff = await connect(ssid.admin!);
      const member = await connect(ssid.taro!);
      const before = await messageCount(manDesk);

      const fromMember = text(manDesk, 'こんにちは、相談があります');
      member.send(fromMember);
      const echo = await member.take<MessageFrame>(isMessage(fromMember.client_id));
      expect(await messageCount(manDesk)).toBe(before + 1);
      expect(echo).toMatchObject({
        type: 'message',
        conversation_id: manDesk,
        conversation_type: 'staff',
        from: man.uid,
        name: '山田 太郎',
        role: 101,
        message: 'こんにちは、相談があります',
        own: true,
        image: [],
        reply: null,
        announce: false,
        message_type: 0,
      });
      expect(new Date(echo.date).toISOString()).toBe(echo.date);
      const atStaff = await staff.take<MessageFrame>(isMessage(fromMember.client_id));
      expect(atStaff).toMatchObject({ id: echo.id, own: false, conversation_type: 'men', from: man.uid });

      const fromStaff = text(manDesk, 'はい、どうぞ', { reply: echo.id });
      staff.send(fromStaff);
      const atMember = await member.take<MessageFrame>(isMessage(fromStaff.client_id));
      expect(atMember).toMatchObject({
        own: false,
        from: admin.uid,
        role: 1,
        conversation_type: 'staff',
        reply: {
          id: echo.id,
          message: 'こんにちは、相談があります',
          own: true,
          name: '山田 太郎',
          role: 101,
        },
      });
      expect(atMember.id).toBeGreaterThan(echo.id);
      expect((await staff.take<MessageFrame>(isMessage(fromStaff.client_id))).own).toBe(true);
    });

    it('reach both members and staff in a group talk, and a woman sees her desk as type staff', async () => {
      const staff = await connect(ssid.helper!);
      const him = await connect(ssid.taro!);
      const her = await connect(ssid.hanako!);
      const echo = await say(her, groupTalk, 'よろしくお願いします');
      expect(echo.conversation_type).toBe('st');
      expect((await him.take<MessageFrame>(isMessage(echo.client_id!))).own).toBe(false);
      expect((await staff.take<MessageFrame>(isMessage(echo.client_id!))).conversation_type).toBe('st');

      const desk = await say(her, womanDesk, 'スタッフさんへ');
      expect(desk.conversation_type).toBe('staff');
      expect((await staff.take<MessageFrame>(isMessage(desk.client_id!))).conversation_type).toBe('women');
    });

    it('never reach a member outside the conversation, who also cannot post there', async () => {
      const staff = await connect(ssid.admin!);
      const other = await connect(ssid.jiro!);
      await say(staff, manDesk, '太郎さんだけへ');
      await say(staff, staffRoom, 'スタッフだけへ');
      await barrier(other);
      expect(other.received.filter((frame) => frame.type === 'message')).toEqual([]);

      for (const conversationId of [manDesk, groupTalk, staffRoom, 999_999]) {
        const before = await messageCount();
        const frame = text(conversationId, '割り込み');
        other.send(frame);
        expect(await other.take(isError)).toEqual({
          type: 'error',
          error: ja.errors.notFound,
          client_id: frame.client_id,
        });
        expect(await messageCount()).toBe(before);
      }
    });

    it('store one message for a repeated client_id, and every answer carries its id', async () => {
      const member = await connect(ssid.taro!);
      const staff = await connect(ssid.admin!);
      const frame = text(manDesk, '二重送信テスト');
      member.send(frame);
      member.send(frame);
      const first = await member.take<MessageFrame>(isMessage(frame.client_id));
      const second = await member.take<MessageFrame>(isMessage(frame.client_id));
      expect(second.id).toBe(first.id);

      // After a reconnect, the same frame again.
      const later = await connect(ssid.taro!);
      later.send(frame);
      expect((await later.take<MessageFrame>(isMessage(frame.client_id))).id).toBe(first.id);

      const stored = await ctx.database.db
        .select({ n: count() })
        .from(messages)
        .where(eq(messages.clientId, frame.client_id));
      expect(stored[0]!.n).toBe(1);
      // The others heard it once.
      await barrier(staff);
      expect(staff.received.filter(isMessage(frame.client_id))).toHaveLength(1);
    });

    it('refuse an empty comment, bad frames and a reply into another talk, storing nothing', async () => {
      const member = await connect(ssid.taro!);
      const elsewhere = await say(await connect(ssid.admin!), outsiderDesk, '別のトーク');
      const before = await messageCount();
      const cases: [unknown, string][] = [
        [text(manDesk, '   '), ja.talk.emptyComment],
        [text(manDesk, 'x'.repeat(5001)), ja.errors.tooLong],
        [text(manDesk, 'hi', { client_id: 'not-a-uuid' }), ja.errors.badRequest],
        [text(manDesk, 'hi', { extra: 1 }), ja.errors.unknownField],
        [text(manDesk, 'hi', { conversation_id: 'abc' }), ja.errors.badRequest],
        [text(manDesk, 'hi', { reply: elsewhere.id }), ja.errors.badRequest],
        [text(manDesk, 'hi', { image: ['data:text/plain;base64,aGk='] }), ja.errors.badImage],
        [{ type: 'shout', message: 'hi' }, ja.errors.badRequest],
        ['{not json', ja.errors.malformedJson],
        [[1, 2], ja.errors.malformedJson],
      ];
      for (const [frame, error] of cases) {
        member.send(frame);
        expect((await member.take<ErrorFrame>(isError)).error).toBe(error);
      }
      expect(await messageCount()).toBe(before);
    });
  });

  describe('catching up', () => {
    it('sends a reconnecting client exactly the messages it missed, in order, then live ones', async () => {
      const first = await connect(ssid.taro!);
      const staff = await connect(ssid.admin!);
      const seen = await say(first, manDesk, '最後に見たメッセージ');
      await first.close();

      const missed: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        missed.push((await say(staff, i % 3 === 0 ? groupTalk : manDesk, `不在中 ${i}`)).id);
        // Not his: must not be in his catch-up.
        if (i % 4 === 0) await say(staff, outsiderDesk, `他の会員へ ${i}`);
      }

      const again = await connect(ssid.taro!, { last_id: seen.id });
      const beforeReady = again.received.slice(
        0,
        again.received.findIndex((frame) => frame.type === 'ready'),
      );
      expect(beforeReady.filter((frame) => frame.type === 'message').map((frame) => frame.id)).toEqual(
        missed,
      );
      expect(again.received.find((frame) => frame.type === 'ready')).toEqual({
        type: 'ready',
        last_id: missed.at(-1),
      });

      const live = await say(staff, manDesk, '戻ってきましたね');
      expect((await again.take<MessageFrame>(isMessage(live.client_id!))).id).toBe(live.id);
    });

    it('misses nothing and repeats nothing when messages arrive during the catch-up', async () => {
      const staff = await connect(ssid.admin!);
      const seen = await say(staff, manDesk, '起点');
      const sending = (async () => {
        const ids: number[] = [];
        for (let i = 0; i < 20; i += 1) ids.push((await say(staff, manDesk, `同時 ${i}`)).id);
        return ids;
      })();
      const member = await connect(ssid.taro!, { last_id: seen.id });
      const sent = await sending;
      await barrier(member);
      const got = member.received.filter((frame) => frame.type === 'message').map((frame) => frame.id);
      expect(got).toEqual(sent);
    });

    it('catches up from 0 with everything the member may see', async () => {
      const member = await connect(ssid.hanako!, { last_id: 0 });
      const got = member.received.filter((frame) => frame.type === 'message');
      const visible = await ctx.database.db
        .select({ n: count() })
        .from(messages)
        .where(isNull(messages.deletedAt));
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(visible[0]!.n);
      expect(got.every((frame) => [womanDesk, groupTalk].includes(frame.conversation_id))).toBe(true);
    });
  });

  describe('deleting', () => {
    it('refuses a member deleting another’s message, and changes nothing', async () => {
      const staff = await connect(ssid.admin!);
      const member = await connect(ssid.taro!);
      const fromStaff = await say(staff, manDesk, 'スタッフの発言');
      await member.take(isMessage(fromStaff.client_id!));
      member.send({ type: 'delete', delete_message_id: fromStaff.id });
      expect((await member.take<ErrorFrame>(isError)).error).toBe(ja.errors.forbidden);

      // Roles 4 to 6 may delete only their own messages too.
      const helperSocket = await connect(ssid.helper!);
      helperSocket.send({ type: 'delete', delete_message_id: fromStaff.id });
      expect((await helperSocket.take<ErrorFrame>(isError)).error).toBe(ja.errors.forbidden);

      // Outside one's talks it looks like nothing is there.
      const other = await connect(ssid.jiro!);
      other.send({ type: 'delete', delete_message_id: fromStaff.id });
      expect((await other.take<ErrorFrame>(isError)).error).toBe(ja.errors.notFound);

      const page = MessagesReply.parse(
        (await call(ctx.app, 'messages', { ssid: ssid.taro, id: manDesk })).body,
      );
      expect(page.rows.flatMap((group) => group.messages).map((m) => m.id)).toContain(fromStaff.id);
      await barrier(staff);
      expect(staff.received.filter((frame) => frame.type === 'delete')).toEqual([]);
    });

    it('lets a member delete their own message and staff delete any, telling everyone in the talk', async () => {
      const staff = await connect(ssid.admin!);
      const helperSocket = await connect(ssid.helper!);
      const him = await connect(ssid.taro!);
      const her = await connect(ssid.hanako!);
      const other = await connect(ssid.jiro!);

      const own = await say(him, groupTalk, '間違えました');
      him.send({ type: 'delete', delete_message_id: own.id });
      const expected = { type: 'delete', conversation_id: groupTalk, delete_message_id: own.id };
      for (const socket of [him, her, staff, helperSocket]) {
        expect(await socket.take((frame) => frame.type === 'delete')).toEqual(expected);
      }

      const his = await say(him, groupTalk, 'スタッフが消すメッセージ');
      staff.send({ type: 'delete', delete_message_id: his.id });
      for (const socket of [him, her, staff, helperSocket]) {
        expect(await socket.take((frame) => frame.type === 'delete')).toEqual({
          ...expected,
          delete_message_id: his.id,
        });
      }
      await barrier(other);
      expect(other.received.filter((frame) => frame.type === 'delete')).toEqual([]);

      const page = MessagesReply.parse(
        (await call(ctx.app, 'messages', { ssid: ssid.admin, id: groupTalk })).body,
      );
      const ids = page.rows.flatMap((group) => group.messages).map((m) => m.id);
      expect(ids).not.toContain(own.id);
      expect(ids).not.toContain(his.id);

      // Deleting again: it is gone.
      staff.send({ type: 'delete', delete_message_id: his.id });
      expect((await staff.take<ErrorFrame>(isError)).error).toBe(ja.errors.notFound);
    });

    it('pins an announcement and lets staff unpin it for everyone', async () => {
      const staff = await connect(ssid.helper!);
      const member = await connect(ssid.taro!);
      const frame = text(manDesk, '来週の予定をご確認ください', { announce: true });
      member.send(frame);
      const pinned = await member.take<MessageFrame>(isMessage(frame.client_id));
      expect(pinned.announce).toBe(true);
      const page = MessagesReply.parse(
        (await call(ctx.app, 'messages', { ssid: ssid.taro, id: manDesk })).body,
      );
      expect(page.rows[0]).toMatchObject({ date: 'announce', messages: [{ id: pinned.id, announce: true }] });

      const other = await connect(ssid.jiro!);
      other.send({ type: 'delete', delete_announce_id: pinned.id });
      expect((await other.take<ErrorFrame>(isError)).error).toBe(ja.errors.notFound);

      staff.send({ type: 'delete', delete_announce_id: pinned.id });
      const expected = { type: 'delete', conversation_id: manDesk, delete_announce_id: pinned.id };
      expect(await member.take((f) => f.type === 'delete')).toEqual(expected);
      expect(await staff.take((f) => f.type === 'delete')).toEqual(expected);
      const after = MessagesReply.parse(
        (await call(ctx.app, 'messages', { ssid: ssid.taro, id: manDesk })).body,
      );
      expect(after.rows.find((group) => group.date === 'announce')).toBeUndefined();
      expect(after.rows.flatMap((group) => group.messages).map((m) => m.id)).toContain(pinned.id);
    });
  });

  describe('reading', () => {
    it('marks a talk read on open, tells the other side, and pushes fresh counters', async () => {
      const staff = await connect(ssid.admin!);
      const member = await connect(ssid.hanako!);
      const sent = await say(member, womanDesk, '既読テスト');
      const counters = await staff.take<Extract<ServerFrame, { type: 'notifications' }>>(
        (frame) => frame.type === 'notifications' && frame.fromWomen > 0,
      );
      expect(counters.fromWomen).toBeGreaterThan(0);

      staff.send({ type: 'open', conversation_id: womanDesk, conversation_type: 'women' });
      expect(await member.take((frame) => frame.type === 'read')).toEqual({
        type: 'read',
        conversation_id: womanDesk,
        reader: admin.uid,
        last_read_id: sent.id,
      });
      const fresh = await staff.take<Extract<ServerFrame, { type: 'notifications' }>>(
        (frame) => frame.type === 'notifications' && frame.fromWomen < counters.fromWomen,
      );
      const api = UpdateNotificationsReply.parse(
        (await call(ctx.app, 'updateNotifications', { ssid: ssid.admin })).body,
      );
      expect(api.rows[0]).toEqual({ ...fresh, type: undefined });

      const page = MessagesReply.parse(
        (await call(ctx.app, 'messages', { ssid: ssid.hanako, id: womanDesk })).body,
      );
      expect(page.rows.flatMap((group) => group.messages).find((m) => m.id === sent.id)?.read).toBe(true);

      // While the talk stays open, new messages in it are read as they arrive.
      const next = await say(member, womanDesk, '続けて送ります');
      expect(await member.take((frame) => frame.type === 'read')).toMatchObject({ last_read_id: next.id });
    });

    describe('badges', () => {
      type Counters = Extract<ServerFrame, { type: 'notifications' }>;
      const counted = async (session: string) =>
        UpdateNotificationsReply.parse((await call(ctx.app, 'updateNotifications', { ssid: session })).body)
          .rows[0]!;
      /** Waits for a counters frame equal to a fresh count over HTTP. */
      const countersMatch = async (socket: TestSocket, session: string) => {
        const expected = await counted(session);
        return socket.take<Counters>(
          (frame) =>
            frame.type === 'notifications' &&
            JSON.stringify({ ...frame, type: undefined }) === JSON.stringify(expected),
        );
      };

      it('stay equal to a fresh count while messages arrive in other talks', async () => {
        const staff = await connect(ssid.admin!);
        const man = await connect(ssid.taro!);
        await staff.take((frame) => frame.type === 'notifications');
        await man.take((frame) => frame.type === 'notifications');
        const colleague = await connect(ssid.helper!);
        const woman = await connect(ssid.hanako!);
        // Counted for staff: members' words in desk and group talks, a colleague in the staff room. Not
        // counted: a colleague writing in a member's desk talk.
        await say(man, manDesk, '男性から一');
        await say(man, manDesk, '男性から二');
        await say(woman, womanDesk, '女性から');
        await say(woman, groupTalk, 'グループで');
        await say(colleague, manDesk, '同僚から会員へ');
        await say(colleague, staffRoom, '同僚からスタッフルームへ');
        await countersMatch(staff, ssid.admin!);
        await countersMatch(man, ssid.taro!);
      });

      it('drop a talk’s unread messages when the user writes in it', async () => {
        const staff = await connect(ssid.admin!);
        const colleague = await connect(ssid.helper!);
        await say(colleague, staffRoom, '読みましたか');
        const before = await countersMatch(staff, ssid.admin!);
        expect(before.fromStaff).toBeGreaterThan(0);
        await say(staff, staffRoom, '読みました');
        expect((await countersMatch(staff, ssid.admin!)).fromStaff).toBe(0);
      });
    });

    it('answers an error for opening a talk that is not the member’s', async () => {
      const member = await connect(ssid.jiro!);
      member.send({ type: 'open', conversation_id: manDesk });
      expect((await member.take<ErrorFrame>(isError)).error).toBe(ja.errors.notFound);
    });
  });

  describe('sessions ending', () => {
    it('closes the socket with 4403 on logout, and leaves the user’s other sessions open', async () => {
      const phone = await login(ctx.app, man);
      const socket = await connect(phone);
      const otherDevice = await connect(ssid.taro!);
      expect((await call(ctx.app, 'logout', { ssid: phone })).status).toBe(200);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
      await barrier(otherDevice);
    });

    it('closes every socket of a deleted user', async () => {
      const leaver = await createUser(ctx.app, { loginId: 'leaver', role: 201 });
      const socket = await connect(await login(ctx.app, leaver));
      expect(await ctx.app.services.users.delete(leaver.uid)).toBe(true);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    });

    it('reads the session again after SESSION_RECHECK_MS: a row gone without a notice closes it then', async () => {
      let now = Date.now();
      const clocked = await ctx.buildApp({}, () => now);
      const clockedBase = await listen(clocked);
      const phone = await login(clocked, man);
      const socket = await TestSocket.session(clockedBase, phone);
      open.push(socket);
      // As another instance's logout looks before a shared fan-out exists: the row is simply gone.
      await new SessionRepository(ctx.database.db).delete(sha256Hex(phone));
      // Within the window the socket still answers from the session it read...
      const within = text(manDesk, 'まだ届く');
      socket.send(within);
      await socket.take(isMessage(within.client_id));
      // ...and once it has passed, the next frame finds the session gone.
      now += SESSION_RECHECK_MS;
      socket.send(text(manDesk, '送れないはず'));
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
      await clocked.close();
    });

    it('shows a changed name on the next message without reconnecting', async () => {
      const renamed = await createUser(ctx.app, { loginId: 'renamed', role: 101, name: '旧姓 一郎' });
      const session = await login(ctx.app, renamed);
      const socket = await connect(session);
      const desk = await deskOf(ctx.app, session);
      expect((await say(socket, desk, '改名前')).name).toBe('旧姓 一郎');
      const updated = await call(ctx.app, 'updateuser', {
        ssid: ssid.admin,
        uid: renamed.uid,
        id: 'renamed',
        name: '新姓 一郎',
        pass: '',
        rank: 2,
        role: 101,
        introducer: '',
      });
      expect(updated.status).toBe(200);
      expect((await say(socket, desk, '改名後')).name).toBe('新姓 一郎');
    });
  });

  describe('shutting down', () => {
    let other: FastifyInstance;
    beforeAll(async () => {
      other = await ctx.buildApp({}, undefined, { socketAuthTimeoutMs: 300 });
    });

    it('commits what it accepted, then closes sockets with 1001', async () => {
      const otherBase = await listen(other);
      const socket = await TestSocket.session(otherBase, ssid.taro!);
      const frames = Array.from({ length: 5 }, (_, i) => text(manDesk, `終了間際 ${i}`));
      for (const frame of frames) socket.send(frame);
      await socket.take(isMessage(frames[0]!.client_id));
      await other.close();
      expect((await socket.closed).code).toBe(1001);

      const echoed = socket.received.filter(isMessage()).map((frame) => (frame as MessageFrame).client_id);
      for (const clientId of echoed) {
        const rows = await ctx.database.db
          .select({ n: count() })
          .from(messages)
          .where(eq(messages.clientId, clientId!));
        expect(rows[0]!.n).toBe(1);
      }
    });
  });
});
