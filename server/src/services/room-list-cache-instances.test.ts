import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRow, ConversationType } from '@enishi/contract';
import { users } from '../db/schema.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { appsOnRedis, cutSubscriptions, testRedisUrl } from '../test/redis.js';
import { actorOf, deskOf, postMessage, roomList } from '../test/talk.js';
import { ROOM_LIST_CACHE_MS } from './room-list-cache.js';

/*
 * Room lists are cached in memory on each instance (room-list-cache.ts), so every write that changes one
 * must reach every instance at once: two instances share the database and Redis, the list is cached on A,
 * the write happens on B, and A's next read shows it. (room-list-cache.test.ts: the cache on its own.)
 */
const REDIS_URL = testRedisUrl(2);

describe('room lists across two instances', () => {
  let ctx: TestContext;
  let closeShared = async () => {};
  let a: FastifyInstance;
  let b: FastifyInstance;
  let owner: TestUser;
  let staff: TestUser;
  const ssid: Record<string, string> = {};
  let counter = 0;

  beforeAll(async () => {
    ctx = await createTestContext();
    const instances = await appsOnRedis(ctx, REDIS_URL);
    closeShared = instances.close;
    [a, b] = instances.apps as [FastifyInstance, FastifyInstance];
    owner = await createUser(b, { loginId: 'lists-owner', role: 2, name: '代表' });
    staff = await createUser(b, { loginId: 'lists-staff', role: 3, name: '受付' });
    ssid.owner = await login(b, owner);
    ssid.staff = await login(b, staff);
  });
  afterAll(async () => {
    await ctx.close();
    await closeShared();
  });

  /** A new man on B, with his session and his desk talk. */
  const man = async () => {
    const user = await createUser(b, {
      loginId: `lists-man-${(counter += 1)}`,
      role: 101,
      name: '会員 太郎',
    });
    const session = await login(b, user);
    return { user, ssid: session, desk: await deskOf(b, session) };
  };
  const rowOf = (rows: ConversationRow[], id: number) => rows.find((row) => row.conversation_id === id);
  /** A's list holds the row as `expected` says: A read the list once before and holds it in memory. */
  const cachedOnA = async (session: string, type: ConversationType, id: number) => {
    const first = rowOf(await roomList(a, session, type), id);
    expect(rowOf(await roomList(a, session, type), id)).toEqual(first);
    return first;
  };
  /**
   * What A shows once the change has crossed Redis: on a loaded machine A may take the next request before
   * its subscriber has read it, so A is given the pub/sub hop (a second at most), never the cache's 5 s.
   */
  const onA = (session: string, type: ConversationType, id: number) =>
    expect.poll(async () => rowOf(await roomList(a, session, type), id), { timeout: 1000, interval: 10 });

  it('holds a list in memory: a row changed behind its back still shows on A, for a bounded time', async () => {
    // This is what the changes below must undo; without the cache the new name would show at once.
    const him = await man();
    expect((await cachedOnA(ssid.staff!, 'men', him.desk))?.name).toBe('会員 太郎');
    await ctx.database.db.update(users).set({ name: '裏口 太郎' }).where(eq(users.id, him.user.uid));
    expect(rowOf(await roomList(a, ssid.staff!, 'men'), him.desk)?.name).toBe('会員 太郎');
    expect(ROOM_LIST_CACHE_MS).toBeLessThanOrEqual(5_000);
  });

  it('a message sent on B: the last message, the order and the unread count on A, for the member and the staff', async () => {
    const him = await man();
    await cachedOnA(him.ssid, 'staff', him.desk);
    await cachedOnA(ssid.staff!, 'men', him.desk);

    await postMessage(b, ssid.staff!, him.desk, '受付からです');
    await onA(him.ssid, 'staff', him.desk).toMatchObject({
      last_content: JSON.stringify({ content: '受付からです' }),
      unread: 1,
    });
    await onA(ssid.staff!, 'men', him.desk).toMatchObject({
      last_content: JSON.stringify({ content: '受付からです' }),
      unread: 0,
    });

    await postMessage(b, him.ssid, him.desk, '会員からです');
    await onA(ssid.staff!, 'men', him.desk).toMatchObject({
      last_content: JSON.stringify({ content: '会員からです' }),
      unread: 1,
    });
    // Newest activity first: his talk leads the staff's list.
    expect((await roomList(a, ssid.staff!, 'men'))[0]?.conversation_id).toBe(him.desk);
  });

  it('a read mark and a deleted message on B: the unread count and the last message on A', async () => {
    const him = await man();
    await postMessage(b, ssid.staff!, him.desk, '一通目');
    const second = await postMessage(b, ssid.staff!, him.desk, '二通目');
    expect(await cachedOnA(him.ssid, 'staff', him.desk)).toMatchObject({ unread: 2 });

    await b.services.messages.markRead(await actorOf(b, him.ssid), him.desk);
    await onA(him.ssid, 'staff', him.desk).toMatchObject({ unread: 0 });

    await cachedOnA(ssid.staff!, 'men', him.desk);
    await b.services.messages.delete(await actorOf(b, ssid.staff!), second.id);
    await onA(him.ssid, 'staff', him.desk).toMatchObject({
      last_content: JSON.stringify({ content: '一通目' }),
    });
    await onA(ssid.staff!, 'men', him.desk).toMatchObject({
      last_content: JSON.stringify({ content: '一通目' }),
    });
  });

  it('a name and rank changed on B, and the member deleted on B: the staff’s list on A', async () => {
    const him = await man();
    expect(await cachedOnA(ssid.staff!, 'men', him.desk)).toMatchObject({ name: '会員 太郎', rank: 0 });
    const update = await call(b, 'updateuser', {
      ssid: ssid.owner,
      uid: him.user.uid,
      id: him.user.loginId,
      name: '改名 太郎',
      rank: 3,
      role: 101,
      introducer: '',
    });
    expect(update.status).toBe(200);
    await onA(ssid.staff!, 'men', him.desk).toMatchObject({
      name: '改名 太郎',
      username: '改名 太郎',
      rank: 3,
    });

    expect((await call(b, 'deluser', { ssid: ssid.staff, uid: him.user.uid })).status).toBe(200);
    await onA(ssid.staff!, 'men', him.desk).toBeUndefined();
  });

  it('a bulk send on B, which reaches only the member: the staff’s list on A shows it too', async () => {
    const him = await man();
    await cachedOnA(ssid.staff!, 'men', him.desk);
    await cachedOnA(him.ssid, 'staff', him.desk);
    const sent = await call(b, 'messages/send', {
      ssid: ssid.staff,
      users: [him.user.uid],
      message: '一括のお知らせです',
      image: [],
    });
    expect(sent.status).toBe(200);
    const shown = { last_content: JSON.stringify({ content: '一括のお知らせです' }) };
    await onA(ssid.staff!, 'men', him.desk).toMatchObject(shown);
    await onA(him.ssid, 'staff', him.desk).toMatchObject({ ...shown, unread: 1 });
  });

  it('a member registered and a group talk registered on B: the lists on A', async () => {
    const him = await man();
    expect(await roomList(a, him.ssid, 'st')).toEqual([]);
    await roomList(a, ssid.staff!, 'women');
    const woman = await createUser(b, { loginId: `lists-woman-${counter}`, role: 201, name: '会員 花子' });
    const herDesk = await deskOf(b, await login(b, woman));
    await onA(ssid.staff!, 'women', herDesk).toMatchObject({ name: '会員 花子' });

    const registered = await call(b, 'add_conversation', {
      ssid: ssid.staff,
      params: { men: him.user.uid, women: woman.uid, type: 'st', register: 1 },
    });
    expect(registered.status).toBe(200);
    await expect
      .poll(async () => (await roomList(a, him.ssid, 'st')).map((row) => row.name), {
        timeout: 1000,
        interval: 10,
      })
      .toEqual(['太郎×花子']);
  });

  it('drops what it holds when the shared subscription drops, so changes missed meanwhile cannot matter', async () => {
    const him = await man();
    await cachedOnA(ssid.staff!, 'men', him.desk);

    // Both instances' subscriptions cut: whatever is published until they are back never arrives.
    await cutSubscriptions(REDIS_URL);
    // A change whose event was lost: the row changes without any event reaching A.
    await ctx.database.db.update(users).set({ name: '不通 太郎' }).where(eq(users.id, him.user.uid));
    expect(rowOf(await roomList(a, ssid.staff!, 'men'), him.desk)?.name).toBe('不通 太郎');
  });
});
