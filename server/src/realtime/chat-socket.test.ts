import { ja, SOCKET_CLOSE, SOCKET_MAX_PAYLOAD } from '@enishi/contract';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '../db/schema.js';
import { TestSocket } from '../test/socket.js';
import {
  admin,
  barrier,
  base,
  connect,
  ctx,
  groupTalk,
  isError,
  isMessage,
  man,
  manDesk,
  messageCount,
  outsiderDesk,
  say,
  ssid,
  staffRoom,
  text,
  useChatClub,
  womanDesk,
  type ErrorFrame,
  type MessageFrame,
} from '../test/chat-club.js';

describe('chat socket /ws/chat', () => {
  useChatClub();

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
});
