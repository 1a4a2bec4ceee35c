import { ConversationsReply, type ServerFrame } from '@enishi/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../lib/passwords.js';
import { UserRepository } from '../repositories/user-repository.js';
import { call, login } from '../test/app.js';
import { useBroadcastClub } from '../test/broadcast-club.js';
import { fetchImage, imageDataUrl } from '../test/content.js';
import { TestSocket } from '../test/socket.js';
import { actorOf, deskOf } from '../test/talk.js';

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;

// What a bulk send stores and delivers (broadcast-routes.test.ts: who may call it, and what it refuses).
describe('bulk send', () => {
  describe('sending', () => {
    // Each test counts what its own send stored: a club of its own, where nothing was sent before.
    const club = useBroadcastClub('each');

    it('puts the message once into each chosen member’s talk with staff, live on their socket with the badge raised', async () => {
      const live = await TestSocket.session(club.base, club.menSsid[0]!);
      const other = await TestSocket.session(club.base, club.menSsid[2]!);
      club.sockets.push(live, other);
      const deskOfFirst = await deskOf(club.ctx.app, club.menSsid[0]!);

      // The original client sends a conversation id too: ignored. Duplicated uids count once.
      const reply = await club.send('staff', {
        id: 12345,
        users: [club.men[0]!.uid, club.men[1]!.uid, club.men[0]!.uid],
      });
      expect(reply).toEqual(expect.objectContaining({ status: 200, body: { status: 'OK', count: 2 } }));

      const frame = await live.take<MessageFrame>((f) => f.type === 'message');
      expect(frame).toMatchObject({
        conversation_id: deskOfFirst,
        conversation_type: 'staff',
        message: '一括のお知らせです',
        from: club.users.staff.uid,
        name: club.users.staff.name,
        own: false,
      });
      const counters = await live.take((f) => f.type === 'notifications' && f.fromStaff > 0);
      expect(counters).toMatchObject({ fromStaff: 1 });

      for (const man of club.menSsid.slice(0, 2)) {
        const talk = await club.talkOf(man);
        expect(talk).toHaveLength(1);
        expect(talk[0]).toMatchObject({
          message: '一括のお知らせです',
          from: club.users.staff.uid,
          own: false,
        });
      }
      expect(await club.talkOf(club.menSsid[2]!)).toEqual([]);
      expect(other.untaken().filter((f) => f.type === 'message')).toEqual([]);
    });

    it('keeps the staff’s record in the sendmen history, and counts who has read it', async () => {
      expect((await club.send('staff', { users: [club.men[0]!.uid, club.men[1]!.uid] })).status).toBe(200);
      const [record] = await club.history(1);
      expect(record).toEqual({
        id: expect.any(Number),
        type: 1,
        message: '一括のお知らせです',
        image: [],
        name: club.users.staff.name,
        date: expect.any(String),
        count: 2,
        read: 0,
        delivered: 2,
        pushed: 0,
      });
      const sendmen = ConversationsReply.parse(
        (
          await call(club.ctx.app, 'conversations', {
            ssid: club.ssid.admin,
            type: 'sendmen',
            search: '',
            page: 0,
          })
        ).body,
      ).rows;
      expect(sendmen).toHaveLength(1);
      expect(JSON.parse(sendmen[0]!.last_content)).toEqual({ content: '一括のお知らせです' });

      // The first man opens his talk: one of two has read it.
      const actor = await actorOf(club.ctx.app, club.menSsid[0]!);
      await club.ctx.app.services.messages.markRead(actor, await deskOf(club.ctx.app, club.menSsid[0]!));
      expect((await club.history(1))[0]).toMatchObject({ count: 2, read: 1 });
      // A send to men never shows in the women's history.
      expect(await club.history(2)).toEqual([]);
    });

    it('counts only the recipients still members: a deleted member leaves the count with their copy', async () => {
      expect((await club.send('staff', { users: [club.men[0]!.uid, club.men[1]!.uid] })).status).toBe(200);
      expect((await club.history(1))[0]).toMatchObject({ count: 2, read: 0 });
      expect(
        (await call(club.ctx.app, 'deluser', { ssid: club.ssid.admin, uid: club.men[1]!.uid })).status,
      ).toBe(200);
      expect((await club.history(1))[0]).toMatchObject({ count: 1, read: 0, delivered: 1 });
    });

    it('sends images: every copy has its own image, which outlives another copy being deleted', async () => {
      const png = await imageDataUrl('png', { width: 400, height: 300 });
      const reply = await club.send('admin', {
        users: club.women.map((woman) => woman.uid),
        message: '',
        image: [png],
        type: 2,
      });
      expect(reply.body).toEqual({ status: 'OK', count: 2 });
      const womenSsid = [club.ssid.woman, await login(club.ctx.app, club.women[1]!)];
      const [first] = await club.talkOf(womenSsid[0]!);
      const [second] = await club.talkOf(womenSsid[1]!);
      expect(first!.image).toHaveLength(1);
      expect(first!.image[0]!.split('?')[0]).not.toBe(second!.image[0]!.split('?')[0]);
      // Sent as PNG, stored as a JPEG photo like any talk picture (product.md §14.1).
      expect((await fetchImage(club.ctx.app, first!.image[0]!)).type).toBe('image/jpeg');

      await club.ctx.app.services.messages.delete(await actorOf(club.ctx.app, club.ssid.admin), first!.id);
      expect((await fetchImage(club.ctx.app, first!.image[0]!)).status).toBe(404);
      expect((await fetchImage(club.ctx.app, second!.image[0]!)).status).toBe(200);
      const [record] = await club.history(2);
      expect(record).toMatchObject({ message: '', count: 2, name: club.users.admin.name });
      expect((await fetchImage(club.ctx.app, record!.image[0]!)).status).toBe(200);
    });

    it('sends to more members than one insert batch holds, each once', async () => {
      const repository = new UserRepository(club.ctx.database.db);
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
      const reply = await club.send('staff', { users: uids, message: '大量送信' });
      expect(reply.body).toEqual({ status: 'OK', count: 1100 });
      expect((await club.history(1))[0]).toMatchObject({ message: '大量送信', count: 1100, read: 0 });

      const counts = await club.ctx.database.db.execute<{ n: number; conversations: number }>(
        sql`select count(*)::int as n, count(distinct conversation_id)::int as conversations from messages where body = '大量送信'`,
      );
      const row = (Array.isArray(counts) ? counts[0] : (counts as { rows: unknown[] }).rows[0]) as {
        n: number;
        conversations: number;
      };
      // 1,100 copies and the history message, each in its own conversation.
      expect(row).toEqual({ n: 1101, conversations: 1101 });
      // 1,100 members made one by one: on two cores shared with the browser tests, over 30 s.
    }, 120_000);
  });
});
