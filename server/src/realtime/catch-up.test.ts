import { Socket } from 'node:net';
import { count, isNull, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '../db/schema.js';
import { MessageService } from '../services/message-service.js';
import { CATCH_UP_MAX } from './catch-up.js';
import {
  admin,
  barrier,
  connect,
  ctx,
  groupTalk,
  isMessage,
  manDesk,
  outsiderDesk,
  say,
  ssid,
  useChatClub,
  womanDesk,
  type MessageFrame,
} from '../test/chat-club.js';

describe('chat socket: catching up after last_id', () => {
  useChatClub();

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

    // The race above, made certain: a message committed after the socket subscribed and before the catch-up
    // reads is both read by the catch-up and held as a live event. It must reach the client once.
    it('sends once a message that both the catch-up and a held live event carry', async () => {
      const staff = await connect(ssid.admin!);
      const seen = await say(staff, manDesk, '起点');
      const newestVisibleId = MessageService.prototype.newestVisibleId;
      let during: number | undefined;
      const reading = vi
        .spyOn(MessageService.prototype, 'newestVisibleId')
        .mockImplementationOnce(async function (this: MessageService, ...args) {
          during = (await say(staff, manDesk, '追いつきの最中')).id;
          return newestVisibleId.apply(this, args);
        });
      try {
        const member = await connect(ssid.taro!, { last_id: seen.id });
        await barrier(member);
        expect(reading).toHaveBeenCalled();
        const got = member.received.filter((frame) => frame.type === 'message').map((frame) => frame.id);
        expect(got).toEqual([during]);
      } finally {
        reading.mockRestore();
      }
    });

    it('catches up from 0 with everything the member may see', async () => {
      const staff = await connect(ssid.admin!);
      const hers = [
        (await say(staff, womanDesk, '花子さんへ')).id,
        (await say(staff, groupTalk, 'お二人へ')).id,
      ];
      const notHers = (await say(staff, manDesk, '太郎さんへ')).id;
      const member = await connect(ssid.hanako!, { last_id: 0 });
      const got = member.received.filter((frame) => frame.type === 'message');
      expect(got.map((frame) => frame.id)).toEqual(expect.arrayContaining(hers));
      expect(got.map((frame) => frame.id)).not.toContain(notHers);
      const visible = await ctx.database.db
        .select({ n: count() })
        .from(messages)
        .where(isNull(messages.deletedAt));
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(visible[0]!.n);
      expect(got.every((frame) => [womanDesk, groupTalk].includes(frame.conversation_id))).toBe(true);
    });

    it('treats a last_id beyond the newest as the newest: live messages still arrive', async () => {
      const staff = await connect(ssid.admin!);
      const newest = await say(staff, manDesk, '最新');
      const member = await connect(ssid.taro!, { last_id: newest.id + 1000 });
      expect(member.received.find((frame) => frame.type === 'ready')).toEqual({
        type: 'ready',
        last_id: newest.id,
      });
      const live = await say(staff, manDesk, 'その後');
      expect((await member.take<MessageFrame>(isMessage(live.client_id!))).id).toBe(live.id);
    });

    // It leaves the man's desk with more messages than a catch-up sends; the other tests catch up from a
    // message they sent themselves, so that leftover does not reach them.
    it(`tells a client more than ${CATCH_UP_MAX} messages behind to reload, and sends none of them`, async () => {
      const staff = await connect(ssid.admin!);
      const seen = await say(staff, manDesk, '遅れる前');
      await ctx.database.db.execute(
        sql`insert into messages (conversation_id, sender_id, body)
            select ${manDesk}, ${admin.uid}, 'まとめて ' || n from generate_series(1, ${CATCH_UP_MAX + 1}) as n`,
      );
      const member = await connect(ssid.taro!, { last_id: seen.id });
      const beforeReady = member.received.slice(
        0,
        member.received.findIndex((frame) => frame.type === 'ready'),
      );
      expect(beforeReady.filter((frame) => frame.type !== 'notifications')).toEqual([{ type: 'reload' }]);
      const live = await say(staff, manDesk, '再読み込みの後');
      expect((await member.take<MessageFrame>(isMessage(live.client_id!))).id).toBe(live.id);
    });

    // Each write to a proxy in front wakes it (HAProxy's CPU per message, docs/capacity.md): the frames of one
    // turn leave the server together.
    it('writes a catch-up to the connection together, not a write a frame', async () => {
      const staff = await connect(ssid.admin!);
      const seen = await say(staff, manDesk, '起点');
      for (let i = 0; i < 6; i += 1) await say(staff, manDesk, `まとめて ${i}`);
      // Spied on, not replaced: the real writes happen. The server's side of a connection is a socket its
      // listening server accepted (`server`); the test's own client sockets have none.
      const prototype = Socket.prototype as unknown as Record<
        '_write' | '_writev',
        (...args: never[]) => void
      >;
      const single = vi.spyOn(prototype, '_write');
      const many = vi.spyOn(prototype, '_writev');
      try {
        const member = await connect(ssid.taro!, { last_id: seen.id });
        const frames = member.received.findIndex((frame) => frame.type === 'ready') + 1;
        expect(frames).toBeGreaterThanOrEqual(7);
        const serverWrites = [...single.mock.contexts, ...many.mock.contexts].filter(
          (socket) => (socket as Socket & { server?: unknown }).server,
        );
        // The upgrade's answer, then the catch-up with its ready (a badge count may come on its own).
        expect(serverWrites.length).toBeLessThanOrEqual(3);
      } finally {
        single.mockRestore();
        many.mockRestore();
      }
    });
  });
});
