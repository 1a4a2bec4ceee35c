import { ja, MessagesReply } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import {
  barrier,
  connect,
  ctx,
  groupTalk,
  isError,
  isMessage,
  manDesk,
  say,
  ssid,
  text,
  useChatClub,
  type ErrorFrame,
  type MessageFrame,
} from '../test/chat-club.js';

describe('chat socket frames: deleting and unpinning', () => {
  useChatClub();

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
});
