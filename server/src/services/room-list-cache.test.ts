import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { createTestContext, createUser, login } from '../test/app.js';
import { actorOf, roomList } from '../test/talk.js';
import type { ConversationListItem } from '../repositories/conversation-repository.js';
import {
  ROOM_LIST_CACHE_MS,
  RoomListCache,
  readMarkMoved,
  talksChanged,
  type RoomListPage,
} from './room-list-cache.js';

/*
 * The room list cache (room-list-cache.ts) on one instance: how long it believes a list, what it stores and
 * drops, and its weight. (room-list-cache-instances.test.ts: writes on one instance reaching another's.)
 */

describe('room lists on one instance', () => {
  it('believes a cached list for ROOM_LIST_CACHE_MS at most', async () => {
    const ctx = await createTestContext();
    let now = Date.now();
    try {
      const app = await ctx.buildApp({}, () => now);
      const user = await createUser(app, { loginId: 'lists-clock', role: 101, name: '時計 太郎' });
      const session = await login(app, user);
      // The actor as the session gave it, once: the session cache has a clock of its own.
      const actor = await actorOf(app, session);
      const query = { type: 'staff' as const, search: '', page: 0 };
      const read = async () => (await app.services.conversations.list(actor, query)).rows;
      expect(await read()).toHaveLength(1);
      await ctx.database.db.delete(users).where(eq(users.id, user.uid));
      now += ROOM_LIST_CACHE_MS - 1;
      expect(await read()).toHaveLength(1);
      now += 1;
      expect(await read()).toHaveLength(0);
    } finally {
      await ctx.close();
    }
  });

  it('reads every list from the database with ROOM_LIST_CACHE_MS=0', async () => {
    const off = await createTestContext({ env: { ROOM_LIST_CACHE_MS: '0' } });
    try {
      const user = await createUser(off.app, { loginId: 'lists-off', role: 101, name: '毎回 太郎' });
      const session = await login(off.app, user);
      expect(await roomList(off.app, session)).toHaveLength(1);
      await off.database.db.delete(users).where(eq(users.id, user.uid));
      expect(await roomList(off.app, session)).toHaveLength(0);
    } finally {
      await off.close();
    }
  });
});

describe('RoomListCache', () => {
  const item = (id: number, lastBody = 'こんにちは'): ConversationListItem => ({
    id,
    kind: 'desk',
    memberId: id,
    memberRole: 101,
    manId: null,
    womanId: null,
    name: '',
    memberName: '会員',
    memberRank: 0,
    memberImage: null,
    lastBody,
    lastImageCount: 0,
    lastIsStamp: false,
    lastAt: null,
    unread: 0,
    deskStatus: 'open',
    assigneeId: null,
    assigneeName: null,
  });
  const page = (id: number, lastBody?: string): RoomListPage => ({ rows: [item(id, lastBody)], isEnd: true });
  const man = { uid: 7, isStaff: false };
  const woman = { uid: 8, isStaff: false };
  const desk = { uid: 1, isStaff: true };
  const key = 'staff\n0\n';

  const filled = () => {
    const cache = new RoomListCache();
    for (const reader of [man, woman, desk]) cache.put(reader, key, page(reader.uid), 0, cache.mark());
    return cache;
  };
  const held = (cache: RoomListCache) =>
    [man, woman, desk].filter((reader) => cache.get(reader, key, 0) !== null).map((reader) => reader.uid);

  it('does not store a read that began before any invalidation, nor anything while untrusted', () => {
    const cache = new RoomListCache();
    const mark = cache.mark();
    // A write elsewhere committed while the read was under way: the read may predate it.
    cache.hear(readMarkMoved(woman.uid));
    cache.put(man, key, page(7), 0, mark);
    expect(cache.get(man, key, 0)).toBeNull();

    cache.setTrusted(false);
    cache.put(man, key, page(7), 0, cache.mark());
    expect(cache.get(man, key, 0)).toBeNull();
    cache.setTrusted(true);
    cache.put(man, key, page(7), 0, cache.mark());
    expect(cache.get(man, key, 0)?.rows[0]?.id).toBe(7);
    cache.setTrusted(false);
    expect(cache.get(man, key, 0)).toBeNull();
  });

  it('drops the lists a change names: its members and, for a talk, every staff member', () => {
    const talk = { memberId: man.uid, manId: null, womanId: null };
    expect(talksChanged([talk, talk])).toEqual({ uids: [man.uid], staff: true });

    let cache = filled();
    cache.hear(talksChanged([talk]));
    expect(held(cache)).toEqual([woman.uid]);

    cache = filled();
    cache.hear(readMarkMoved(man.uid));
    expect(held(cache)).toEqual([woman.uid, desk.uid]);

    cache = filled();
    cache.hear(readMarkMoved(desk.uid));
    expect(held(cache)).toEqual([man.uid, woman.uid]);

    cache = filled();
    cache.hear({ all: true });
    expect(held(cache)).toEqual([]);
  });

  it('believes a list for its time at most, and not for a reader whose role changed', () => {
    const cache = new RoomListCache(100);
    cache.put(man, key, page(7), 0, cache.mark());
    expect(cache.get({ uid: man.uid, isStaff: true }, key, 0)).toBeNull();
    cache.put(man, key, page(7), 0, cache.mark());
    expect(cache.get(man, key, 99)).not.toBeNull();
    expect(cache.get(man, key, 100)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('keeps its weight bounded, the least recently read readers going first', () => {
    const long = 'あ'.repeat(1_000);
    const cache = new RoomListCache(5_000, 3_500);
    cache.put(man, key, page(7, long), 0, cache.mark());
    cache.put(woman, key, page(8, long), 0, cache.mark());
    cache.get(man, key, 0);
    cache.put(desk, key, page(1, long), 0, cache.mark());
    expect(held(cache)).toEqual([man.uid, desk.uid]);
  });
});
