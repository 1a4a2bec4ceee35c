import { ja, MessagesReply, UpdateNotificationsReply, type ServerFrame } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import type { TestSocket } from '../test/socket.js';
import {
  admin,
  connect,
  ctx,
  groupTalk,
  isError,
  manDesk,
  say,
  ssid,
  staffRoom,
  useChatClub,
  womanDesk,
  type ErrorFrame,
} from '../test/chat-club.js';

describe('chat socket: reading and badges', () => {
  useChatClub();

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
});
