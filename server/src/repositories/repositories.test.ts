import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { ENGINES, openTestDatabase } from '../test/database.js';
import { newMessage, findDesk } from '../test/talk.js';
import { ApplicationRepository } from './application-repository.js';
import { ConversationRepository } from './conversation-repository.js';
import { MessageBatchRepository, type NewMessage } from './message-batch-repository.js';
import { MessageRepository } from './message-repository.js';
import { SecretRepository } from './secret-repository.js';
import { SessionRepository } from './session-repository.js';
import { UserRepository } from './user-repository.js';

const HOUR = 3_600_000;

describe.each(ENGINES)('repositories on %s', (engine) => {
  let database: DatabaseHandle;
  let users: UserRepository;
  let sessions: SessionRepository;
  let applications: ApplicationRepository;
  let conversations: ConversationRepository;
  let messages: MessageRepository;
  let batches: MessageBatchRepository;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    users = new UserRepository(database.db);
    sessions = new SessionRepository(database.db);
    applications = new ApplicationRepository(database.db);
    conversations = new ConversationRepository(database.db);
    messages = new MessageRepository(database.db);
    batches = new MessageBatchRepository(database.db, database.ordered);
  });
  afterAll(() => database.close());

  const insertOne = async (input: NewMessage) => (await batches.insertBatch([input]))[0]!;

  const newUser = (loginId: string, role = 101) => ({
    loginId,
    name: `${loginId}の名前`,
    passwordHash: 'h',
    role,
  });

  describe('users', () => {
    it('creates a user with defaults and finds it by id and login ID', async () => {
      const user = await users.create(newUser('taro-1'));
      expect(user).toMatchObject({
        loginId: 'taro-1',
        name: 'taro-1の名前',
        role: 101,
        rank: 0,
        introducer: '',
      });
      expect(user?.image).toBeNull();
      expect(user?.createdAt).toBeInstanceOf(Date);
      expect(await users.findById(user!.id)).toEqual(user);
      expect(await users.findByLoginId('taro-1')).toEqual(user);
      expect(await users.findByLoginId('nobody')).toBeNull();
      expect(await users.findById(999_999)).toBeNull();
    });

    it('refuses a taken login ID without throwing', async () => {
      await users.create(newUser('dup'));
      expect(await users.create(newUser('dup'))).toBeNull();
    });

    it('enforces the login ID format in the database too', async () => {
      await expect(users.create(newUser('bad id!'))).rejects.toThrow();
    });

    it('tells whether a role exists', async () => {
      expect(await users.existsWithRole(2)).toBe(false);
      await users.create(newUser('the-owner', 2));
      expect(await users.existsWithRole(2)).toBe(true);
    });

    it('deletes a user together with their sessions', async () => {
      const user = (await users.create(newUser('leaver')))!;
      const now = new Date();
      await sessions.create({ id: 'a'.repeat(64), userId: user.id, userAgent: '', now, expiresAt: now });
      expect(await users.delete(user.id)).toBe(true);
      expect(await sessions.findWithUser('a'.repeat(64))).toBeNull();
      expect(await users.delete(user.id)).toBe(false);
    });
  });

  describe('sessions', () => {
    it('stores, finds with its user, touches, keeps a push subscription and deletes', async () => {
      const user = (await users.create(newUser('sess-user', 3)))!;
      const now = new Date('2026-01-01T00:00:00Z');
      const id = 'b'.repeat(64);
      await sessions.create({
        id,
        userId: user.id,
        userAgent: 'UA',
        now,
        expiresAt: new Date(now.getTime() + HOUR),
      });

      const found = await sessions.findWithUser(id);
      expect(found?.user.id).toBe(user.id);
      expect(found?.session).toMatchObject({ id, userId: user.id, userAgent: 'UA' });
      expect(found?.session.lastSeenAt.toISOString()).toBe(now.toISOString());

      const later = new Date(now.getTime() + 120_000);
      await sessions.touch(id, later);
      const again = await sessions.findWithUser(id);
      expect(again?.session.lastSeenAt.toISOString()).toBe(later.toISOString());

      expect(await sessions.delete(id)).toBe(true);
      expect(await sessions.findWithUser(id)).toBeNull();
    });

    it('removes expired and idle sessions only', async () => {
      const user = (await users.create(newUser('purge-user')))!;
      const now = new Date('2026-06-01T00:00:00Z');
      const at = (ms: number) => new Date(now.getTime() + ms);
      await sessions.create({ id: 'c'.repeat(64), userId: user.id, userAgent: '', now, expiresAt: at(-1) });
      await sessions.create({
        id: 'd'.repeat(64),
        userId: user.id,
        userAgent: '',
        now: at(-10 * HOUR),
        expiresAt: at(HOUR),
      });
      await sessions.create({ id: 'e'.repeat(64), userId: user.id, userAgent: '', now, expiresAt: at(HOUR) });

      expect(await sessions.deleteExpired(now, at(-5 * HOUR))).toBe(2);
      expect(await sessions.findWithUser('e'.repeat(64))).not.toBeNull();
    });
  });

  describe('applications', () => {
    it('stores applications and lists them newest first, page by page', async () => {
      for (let i = 1; i <= 5; i += 1) {
        await applications.create(
          {
            type: i % 2 ? 'male' : 'female',
            name: `応募${i}`,
            age: 20 + i,
            email: `a${i}@example.jp`,
            tel: '090-0000-0000',
          },
          new Date(Date.UTC(2026, 0, i)),
        );
      }
      const first = await applications.list(0, 2);
      expect(first.map((row) => row.name)).toEqual(['応募5', '応募4']);
      expect(first[0]).toMatchObject({ type: 'male', age: 25, email: 'a5@example.jp' });
      expect(first[0]?.createdAt.toISOString()).toBe('2026-01-05T00:00:00.000Z');
      expect((await applications.list(4, 2)).map((row) => row.name)).toEqual(['応募1']);
    });
  });
  describe('conversations and messages', () => {
    const message = newMessage;

    it('gives a member, and only a member, a desk conversation in the same transaction', async () => {
      const member = (await users.create(newUser('desk-member', 201)))!;
      const staffUser = (await users.create(newUser('desk-staff', 3)))!;
      const deskConversation = await findDesk(database.db, member.id);
      expect(deskConversation).toMatchObject({ kind: 'desk', memberId: member.id });
      expect(await findDesk(database.db, staffUser.id)).toBeNull();
      // A taken login ID rolls back: no second user and no stray conversation.
      expect(await users.create(newUser('desk-member', 101))).toBeNull();
      // Deleting the member takes the conversation with them.
      await users.delete(member.id);
      expect(await conversations.findAccess(deskConversation!.id)).toBeNull();
    });

    it('creates the staff room once, however often it is asked', async () => {
      const now = new Date();
      const results = await Promise.all([1, 2, 3].map(() => conversations.ensureOne('staffroom', 'S', now)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await conversations.ensureOne('staffroom', 'S', now)).toBe(false);
    });

    it('stores a client id once per sender', async () => {
      const member = (await users.create(newUser('dedupe-member')))!.id;
      const deskId = (await findDesk(database.db, member))!.id;
      const clientId = '6f1c1d8e-7d0e-4a40-9a53-0f1f6d6f0a11';
      const [first, second] = await Promise.all([
        insertOne(message(deskId, member, { clientId })),
        insertOne(message(deskId, member, { clientId, body: '二回目' })),
      ]);
      expect([first!.created, second!.created].sort()).toEqual([false, true]);
      expect(first!.message!.id).toBe(second!.message!.id);
      // Whichever reached the database first is the one stored, and both answers are that one.
      const winner = first!.created ? first! : second!;
      expect((await messages.findBySenderAndClientId(member, clientId))?.body).toBe(winner.message!.body);
      expect(second!.message!.body).toBe(winner.message!.body);
    });

    it('writes a batch in input order: repeats answer the stored row, read marks and activity move', async () => {
      const man = (await users.create(newUser('batch-man')))!.id;
      const woman = (await users.create(newUser('batch-woman', 201)))!.id;
      const manDesk = (await findDesk(database.db, man))!.id;
      const womanDesk = (await findDesk(database.db, woman))!.id;
      const earlier = await insertOne(
        message(manDesk, man, { clientId: '00000000-0000-4000-8000-000000000001', body: '先' }),
      );
      const outcomes = await batches.insertBatch([
        message(manDesk, man, { clientId: '00000000-0000-4000-8000-000000000002', body: '一' }),
        message(womanDesk, woman, { clientId: '00000000-0000-4000-8000-000000000002', body: '二' }),
        message(manDesk, man, { clientId: '00000000-0000-4000-8000-000000000001', body: '再送' }),
        message(manDesk, man, { body: '三' }),
        message(manDesk, man, { clientId: '00000000-0000-4000-8000-000000000002', body: '重複' }),
      ]);
      expect(outcomes.map((outcome) => [outcome.message!.body, outcome.created])).toEqual([
        ['一', true],
        ['二', true],
        ['先', false],
        ['三', true],
        ['一', false],
      ]);
      expect(outcomes[2]!.message!.id).toBe(earlier.message!.id);
      expect(outcomes[4]!.message!.id).toBe(outcomes[0]!.message!.id);
      const ids = [0, 1, 3].map((index) => outcomes[index]!.message!.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      // Each writer has read up to their newest message: opening the talk moves nothing.
      expect(await conversations.markRead(manDesk, man)).toEqual({ lastReadId: ids[2], moved: false });
      expect(await conversations.markRead(womanDesk, woman)).toEqual({ lastReadId: ids[1], moved: false });
    });

    it('stores any text exactly as written (quotes, backslashes, dollar quotes)', async () => {
      const writer = (await users.create(newUser('text-writer')))!.id;
      const deskId = (await findDesk(database.db, writer))!.id;
      const bodies = [
        "it's 'quoted' ''twice''",
        String.raw`back\slash \' \\ \n`,
        "$$ $tag$ '); drop table messages; --",
        '改行\nと\tタブ 😀',
      ];
      await batches.insertBatch(bodies.map((body) => message(deskId, writer, { body })));
      const stored = await messages.page(deskId, undefined, 10);
      expect(stored.map((row) => row.body).reverse()).toEqual(bodies);
    });

    it('stores nothing in a talk the sender may not write in, nor in one that does not exist', async () => {
      const mine = (await users.create(newUser('write-mine')))!.id;
      const theirs = (await users.create(newUser('write-theirs')))!.id;
      const theirDesk = (await findDesk(database.db, theirs))!.id;
      const outcomes = await batches.insertBatch([
        message(theirDesk, mine, { body: '他人の部屋へ' }),
        message(2_000_000_000, mine, { body: '存在しない部屋へ', mayWriteAnywhere: true }),
        message((await findDesk(database.db, mine))!.id, mine, { body: '自分の部屋へ' }),
      ]);
      expect(outcomes.map((outcome) => [outcome.created, outcome.message?.body ?? null])).toEqual([
        [false, null],
        [false, null],
        [true, '自分の部屋へ'],
      ]);
      expect(await messages.page(theirDesk, undefined, 10)).toEqual([]);
    });

    it('commits messages in id order, so catching up after an id never misses one', async () => {
      const writer = (await users.create(newUser('order-writer', 3)))!.id;
      const member = (await users.create(newUser('order-member')))!.id;
      const deskId = (await findDesk(database.db, member))!.id;
      const start = await messages.newestVisibleId({ uid: writer, isStaff: true });

      let done = false;
      const writing = Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          insertOne(message(deskId, writer, { body: `#${i}`, mayWriteAnywhere: true })),
        ),
      ).finally(() => {
        done = true;
      });
      // A reader that keeps asking for "after the newest id I have seen", as a reconnecting client does.
      const seen: number[] = [];
      let after = start;
      for (let round = 0; round < 10_000 && !done; round += 1) {
        const rows = await messages.after({ uid: writer, isStaff: true }, after, 100);
        for (const row of rows) seen.push(row.id);
        after = rows.at(-1)?.id ?? after;
      }
      const written = (await writing).map((result) => result.message!.id).sort((a, b) => a - b);
      for (const row of await messages.after({ uid: writer, isStaff: true }, after, 100)) seen.push(row.id);
      expect(seen).toEqual(written);
    });

    it('lets a member see only their own talks when catching up', async () => {
      const mine = (await users.create(newUser('vis-mine')))!.id;
      const theirs = (await users.create(newUser('vis-theirs')))!.id;
      const start = await messages.newestVisibleId({ uid: mine, isStaff: true });
      const own = await insertOne(message((await findDesk(database.db, mine))!.id, mine));
      await insertOne(message((await findDesk(database.db, theirs))!.id, theirs));
      const rows = await messages.after({ uid: mine, isStaff: false }, start, 100);
      expect(rows.map((row) => row.id)).toEqual([own.message!.id]);
    });
  });

  describe('secrets', () => {
    it('keeps the first value stored under a name', async () => {
      const secrets = new SecretRepository(database.db);
      expect(await secrets.getOrCreate('test-secret', 'first')).toBe('first');
      expect(await secrets.getOrCreate('test-secret', 'second')).toBe('first');
    });
  });
});
