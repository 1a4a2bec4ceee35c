import { GetUserReply, ja, UpdateNotificationsReply } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import { postMessage } from '../test/talk.js';
import { useTalkClub } from '../test/talk-club.js';

const DAY = 24 * 60 * 60 * 1000;

describe('messages and unread counters over HTTP', () => {
  let now = Date.now();
  const club = useTalkClub(() => now);

  describe('/api/messages', () => {
    it('groups by Japan date, newest group last, with messages in the contract shape', async () => {
      // 23:59:59 and 00:00:00 in Japan, on two consecutive Japan dates.
      const midnight = Math.floor((Date.now() - 3 * DAY) / DAY) * DAY + 15 * 60 * 60 * 1000;
      now = midnight - 1000;
      const late = await postMessage(club.clocked, club.ssid.yuki!, club.desk.yuki!, '夜遅くにすみません');
      now = midnight;
      const reply = await postMessage(club.clocked, club.ssid.admin!, club.desk.yuki!, 'お返事です', {
        reply: late.id,
      });

      const page = await club.messagesOf('yuki', club.desk.yuki!);
      const dayBefore = new Date(midnight - 1000 + 9 * 60 * 60 * 1000).toISOString().slice(0, 10);
      const dayAfter = new Date(midnight + 9 * 60 * 60 * 1000).toISOString().slice(0, 10);
      expect(page.isEnd).toBe(true);
      expect(page.rows.map((group) => group.date)).toEqual([dayBefore, dayAfter]);
      expect(page.rows[0]!.messages[0]).toEqual({
        id: late.id,
        client_id: late.client_id,
        from: club.otherWoman.uid,
        name: '高橋 由紀',
        role: 201,
        conversation_id: club.desk.yuki,
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
      const forStaff = await club.messagesOf('admin', club.desk.yuki!);
      expect(forStaff.rows[1]!.messages[0]).toMatchObject({ own: true, conversation_type: 'women' });
    });

    it('pages 50 at a time, older ones with `before`', async () => {
      now = Date.now();
      const ids: number[] = [];
      for (let i = 0; i < 55; i += 1)
        ids.push((await postMessage(club.clocked, club.ssid.ichiro!, club.desk.ichiro!, `m${i}`)).id);
      const first = await club.messagesOf('ichiro', club.desk.ichiro!);
      const firstIds = first.rows.flatMap((group) => group.messages.map((message) => message.id));
      expect(firstIds).toEqual(ids.slice(-50));
      expect(first.isEnd).toBe(false);
      const older = await club.messagesOf('ichiro', club.desk.ichiro!, firstIds[0]);
      const olderIds = older.rows.flatMap((group) => group.messages.map((message) => message.id));
      expect(olderIds.slice(-5)).toEqual(ids.slice(0, 5));
      expect(older.isEnd).toBe(true);
    });

    it('signs image URLs and answers 404 to anyone outside the talk', async () => {
      now = Date.now();
      await postMessage(club.clocked, club.ssid.admin!, club.desk.taro!, '', { image: [club.png] });
      const page = await club.messagesOf('taro', club.desk.taro!);
      const withImage = page.rows.flatMap((group) => group.messages).find((message) => message.image.length);
      expect(withImage?.image[0]).toMatch(/^\/media\/[A-Za-z0-9_-]{22}\?e=\d+&s=[A-Za-z0-9_-]{43}$/);

      for (const id of [club.desk.taro, club.groupTalk, club.staffRoom, club.broadcast, 999_999]) {
        expect(await call(club.ctx.app, 'messages', { ssid: club.ssid.yuki, id })).toMatchObject({
          status: 404,
          body: { error: ja.errors.notFound },
        });
      }
    });
  });

  describe('/api/updateNotifications and unreads', () => {
    it('derives each member’s counters from their unread messages', async () => {
      now = Date.now();
      const before = await club.counters('hanako');
      await postMessage(club.clocked, club.ssid.admin!, club.desk.hanako!, '花子さんへ');
      await postMessage(club.clocked, club.ssid.taro!, club.groupTalk, 'グループへ');
      await postMessage(club.clocked, club.ssid.admin!, club.otherGroupTalk, '他のグループへ');
      // Sent counters are accepted (the original client sends them) and do not change the answer.
      const reply = await call(club.ctx.app, 'updateNotifications', {
        ssid: club.ssid.hanako,
        uid: club.woman.uid,
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
      now = Date.now();
      const before = await club.counters('staff-3');
      await postMessage(club.clocked, club.ssid.taro!, club.desk.taro!, '男性から');
      await postMessage(club.clocked, club.ssid.hanako!, club.desk.hanako!, '女性から');
      await postMessage(club.clocked, club.ssid.hanako!, club.groupTalk, 'グループから');
      await postMessage(club.clocked, club.ssid.admin!, club.staffRoom, 'スタッフルームへ');
      expect(await club.counters('staff-3')).toEqual({
        news: 0,
        fromMen: before.fromMen + 1,
        fromWomen: before.fromWomen + 1,
        setting: before.setting + 1,
        fromStaff: before.fromStaff + 1,
      });
    });

    it('lists unread message ids in getuser’s unreads', async () => {
      now = Date.now();
      // Unread for staff in the women's and staff lists too, whatever ran before.
      await postMessage(club.clocked, club.ssid.hanako!, club.desk.hanako!, '女性の未読');
      await postMessage(club.clocked, club.ssid.admin!, club.staffRoom, 'スタッフの未読');
      const latest = await postMessage(club.clocked, club.ssid.admin!, club.desk.taro!, '未読リスト');
      const reply = await call(club.ctx.app, 'getuser', { ssid: club.ssid.taro, uid: club.man.uid });
      const unreads = JSON.parse(GetUserReply.parse(reply.body).rows[0]!.unreads) as Record<
        string,
        Record<string, number[]>
      >;
      expect(Object.keys(unreads).sort()).toEqual(['men', 'staff', 'women']);
      expect(unreads.staff![String(club.desk.taro)]).toContain(latest.id);
      expect(unreads.men).toEqual({});

      const fromMember = await postMessage(club.clocked, club.ssid.taro!, club.desk.taro!, 'スタッフさんへ');
      const forStaff = await call(club.ctx.app, 'getuser', {
        ssid: club.ssid['staff-3'],
        uid: club.staff.uid,
      });
      const staffUnreads = JSON.parse(GetUserReply.parse(forStaff.body).rows[0]!.unreads) as Record<
        string,
        Record<string, number[]>
      >;
      const ids = staffUnreads.men![String(club.desk.taro)]!;
      expect(ids).toContain(fromMember.id);
      expect(ids).not.toContain(latest.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(Object.keys(staffUnreads.women!)).toContain(String(club.desk.hanako));
      expect(Object.keys(staffUnreads.staff!)).toEqual([String(club.staffRoom)]);
    });
  });
});
