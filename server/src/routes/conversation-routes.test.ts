import { GetConversationReply, ja } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { UserRepository } from '../repositories/user-repository.js';
import { call } from '../test/app.js';
import { actorOf, postMessage } from '../test/talk.js';
import { rowOf, useTalkClub } from '../test/talk-club.js';

describe('conversation lists over HTTP', () => {
  let now = Date.now();
  const club = useTalkClub(() => now);

  describe('/api/conversations', () => {
    it('gives every member their one talk with staff from the start, as type staff', async () => {
      const reply = await club.list('yuki', 'staff');
      expect(reply).toEqual({
        rows: [
          {
            id: club.desk.yuki,
            conversation_id: club.desk.yuki,
            type: 'staff',
            name: ja.talk.staffDesk,
            uid: club.otherWoman.uid,
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
      await postMessage(club.clocked, club.ssid.ichiro!, club.desk.ichiro!, '一郎です');
      const men = await club.list('staff-3', 'men');
      expect(men.rows[0]).toMatchObject({
        id: club.desk.ichiro,
        type: 'men',
        name: '田中 一郎',
        username: '田中 一郎',
        uid: club.otherMan.uid,
        role: 101,
        last_content: '{"content":"一郎です"}',
        unread: 1,
      });
      expect(men.rows.every((row) => row.type === 'men')).toBe(true);

      const women = await club.list('admin', 'women');
      expect(women.rows.map((row) => row.id).sort()).toEqual([club.desk.hanako, club.desk.yuki].sort());
      expect(women.rows.every((row) => row.type === 'women')).toBe(true);

      // By name: found wherever a quiet talk would fall among other tests' men.
      const taro = (await club.list('admin', 'men', { search: '太郎' })).rows;
      expect(taro.map((row) => row.id)).toEqual([club.desk.taro]);
      expect(taro[0]).toMatchObject({ type: 'men', rank: 2, role: 101 });
      expect((await club.list('admin', 'men', { search: 'ICHIRO' })).rows.map((row) => row.id)).toEqual([
        club.desk.ichiro,
      ]);
      expect((await club.list('admin', 'men', { search: '%' })).rows).toEqual([]);
      expect((await club.list('admin', 'women', { search: '太郎' })).rows).toEqual([]);
    });

    it('shows members only their own group talks and staff all of them; other types are empty', async () => {
      const mine = await club.list('taro', 'st');
      expect(mine.rows).toHaveLength(1);
      expect(mine.rows[0]).toMatchObject({ id: club.groupTalk, type: 'st', name: '太郎×花子', uid: null });
      expect((await club.list('admin', 'st')).rows.map((row) => row.id).sort()).toEqual(
        [club.groupTalk, club.otherGroupTalk].sort(),
      );
      for (const type of ['men', 'women', 'sendmen', 'sendwomen']) {
        expect(await club.list('taro', type)).toEqual({ rows: [], isEnd: true });
      }
      expect((await club.list('admin', 'staff')).rows).toEqual([
        expect.objectContaining({ id: club.staffRoom, type: 'staff', name: ja.talk.staffRoom }),
      ]);
      expect((await club.list('admin', 'sendmen')).rows).toEqual([
        expect.objectContaining({ id: club.broadcast, type: 'sendmen', name: '一括送信 男性' }),
      ]);
      expect(await club.list('admin', 'sendwomen')).toEqual({ rows: [], isEnd: true });
    });

    it('counts unread messages per caller and shows 画像 for an image-only last message', async () => {
      now = Date.now();
      await postMessage(club.clocked, club.ssid.admin!, club.desk.taro!, 'ご入会ありがとうございます');
      await postMessage(club.clocked, club.ssid.admin!, club.desk.taro!, '', { image: [club.png] });

      const forMember = rowOf((await club.list('taro', 'staff')).rows, club.desk.taro!)!;
      expect(forMember).toMatchObject({
        unread: 2,
        last_content: JSON.stringify({ content: ja.talk.image }),
      });
      expect(new Date(forMember.last_date!).getTime()).toBe(now);
      // The writer has nothing unread, and neither has a colleague: what the desk wrote is not news to it.
      expect(rowOf((await club.list('admin', 'men')).rows, club.desk.taro!)?.unread).toBe(0);
      expect(rowOf((await club.list('staff-3', 'men')).rows, club.desk.taro!)?.unread).toBe(0);
      // The member's own words are unread for every staff member.
      await postMessage(club.clocked, club.ssid.taro!, club.desk.taro!, 'よろしくお願いします');
      expect(rowOf((await club.list('staff-3', 'men')).rows, club.desk.taro!)?.unread).toBe(1);
      expect(rowOf((await club.list('admin', 'men')).rows, club.desk.taro!)?.unread).toBe(1);

      await club.ctx.app.services.messages.markRead(
        await actorOf(club.ctx.app, club.ssid.taro!),
        club.desk.taro!,
      );
      expect(rowOf((await club.list('taro', 'staff')).rows, club.desk.taro!)?.unread).toBe(0);
    });

    it('pages 20 at a time with isEnd', async () => {
      const users = new UserRepository(club.ctx.database.db);
      for (let i = 0; i < 25; i += 1) {
        await users.create({ loginId: `page-man-${i}`, name: `頁 男${i}`, passwordHash: 'h', role: 101 });
      }
      const first = await club.list('admin', 'men', { search: '頁' });
      expect(first.rows).toHaveLength(20);
      expect(first.isEnd).toBe(false);
      const second = await club.list('admin', 'men', { search: '頁', page: '1' });
      expect(second.rows).toHaveLength(5);
      expect(second.isEnd).toBe(true);
      const ids = [...first.rows, ...second.rows].map((row) => row.id);
      expect(new Set(ids).size).toBe(25);
      expect(await club.list('admin', 'men', { search: '頁', page: 2 })).toEqual({ rows: [], isEnd: true });
    });
  });

  describe('/api/get_conversation and /api/get_send_conversation', () => {
    it('gives a member their own talk and answers 404 for another’s exactly as for none', async () => {
      const own = await call(club.ctx.app, 'get_conversation', {
        ssid: club.ssid.hanako,
        user_id: club.woman.uid,
        conversation_id: club.groupTalk,
      });
      expect(GetConversationReply.parse(own.body).rows).toEqual([
        expect.objectContaining({ id: club.groupTalk, type: 'st', name: '太郎×花子' }),
      ]);
      const others = await call(club.ctx.app, 'get_conversation', {
        ssid: club.ssid.hanako,
        conversation_id: club.desk.taro,
      });
      const none = await call(club.ctx.app, 'get_conversation', {
        ssid: club.ssid.hanako,
        conversation_id: 999_999,
      });
      expect(others).toMatchObject({ status: 404, body: { error: ja.errors.notFound } });
      expect({ status: none.status, body: none.body }).toEqual({ status: others.status, body: others.body });
      for (const id of [club.otherGroupTalk, club.staffRoom, club.broadcast]) {
        expect(
          (await call(club.ctx.app, 'get_conversation', { ssid: club.ssid.hanako, conversation_id: id }))
            .status,
        ).toBe(404);
      }
    });

    it('gives staff any talk, each with the type they see', async () => {
      for (const [id, type] of [
        [club.desk.taro, 'men'],
        [club.desk.hanako, 'women'],
        [club.groupTalk, 'st'],
        [club.staffRoom, 'staff'],
      ] as const) {
        const reply = await call(club.ctx.app, 'get_conversation', {
          ssid: club.ssid['staff-3'],
          conversation_id: id,
        });
        expect(GetConversationReply.parse(reply.body).rows[0]).toMatchObject({
          id,
          conversation_id: id,
          type,
        });
      }
    });

    it('gives bulk-send histories to staff only', async () => {
      const reply = await call(club.ctx.app, 'get_send_conversation', {
        ssid: club.ssid.admin,
        conversation_id: club.broadcast,
      });
      expect(GetConversationReply.parse(reply.body).rows[0]).toMatchObject({
        id: club.broadcast,
        type: 'sendmen',
      });
      expect(
        (
          await call(club.ctx.app, 'get_send_conversation', {
            ssid: club.ssid.admin,
            conversation_id: club.desk.taro,
          })
        ).status,
      ).toBe(404);
      expect(
        await call(club.ctx.app, 'get_send_conversation', {
          ssid: club.ssid.taro,
          conversation_id: club.broadcast,
        }),
      ).toMatchObject({ status: 403, body: { error: ja.errors.forbidden } });
    });
  });
});
