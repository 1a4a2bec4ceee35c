import { ROLE } from '@enishi/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { ConversationRepository } from '../repositories/conversation-repository.js';
import {
  MessageBatchRepository,
  type NewBulkSend,
  type NewMessage,
} from '../repositories/message-batch-repository.js';
import type { NewImage } from '../repositories/message-repository.js';
import { MessageRepository } from '../repositories/message-repository.js';
import { UserRepository } from '../repositories/user-repository.js';
import { ENGINES, openTestDatabase } from '../test/database.js';
import { findDesk, newMessage } from '../test/talk.js';
import { MessageWriter } from './message-writer.js';

describe.each(ENGINES)('message writer on %s', (engine) => {
  let database: DatabaseHandle;
  let messages: MessageRepository;
  let writer: MessageWriter;
  const desks: { member: number; desk: number }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    messages = new MessageRepository(database.db);
    writer = new MessageWriter(new MessageBatchRepository(database.db, database.ordered));
    const users = new UserRepository(database.db);
    for (let index = 0; index < 5; index += 1) {
      const member = (await users.create({
        loginId: `writer-${index}`,
        name: '会員',
        passwordHash: 'h',
        role: 101,
      }))!;
      desks.push({ member: member.id, desk: (await findDesk(database.db, member.id))!.id });
    }
  });
  afterAll(() => database.close());

  const message = (index: number, extra: Partial<NewMessage> = {}): NewMessage => {
    const { member, desk } = desks[index % desks.length]!;
    return newMessage(desk, member, { body: `#${index}`, ...extra });
  };

  it('answers messages in the order their ids were committed, however many arrive at once', async () => {
    const answered: number[] = [];
    await Promise.all(
      Array.from({ length: 120 }, (_, index) =>
        writer.write(message(index)).then((outcome) => answered.push(outcome.message!.id)),
      ),
    );
    expect(answered).toHaveLength(120);
    expect(answered).toEqual([...answered].sort((a, b) => a - b));
    expect(new Set(answered).size).toBe(120);
  });

  it('fails only the message the database refuses, not the others of its batch', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        // Message 10 names a sender that does not exist: the foreign key refuses it.
        writer.write(
          message(index, {
            body: `batch #${index}`,
            ...(index === 10 ? { senderId: 2_000_000_000, mayWriteAnywhere: true } : {}),
          }),
        ),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(
      Array.from({ length: 30 }, (_, index) => (index === 10 ? 'rejected' : 'fulfilled')),
    );
    const stored = await Promise.all(desks.map(({ desk }) => messages.page(desk, undefined, 100)));
    const bodies = stored.flat().map((row) => row.body);
    expect(bodies.filter((body) => body.startsWith('batch #')).sort()).toEqual(
      Array.from({ length: 30 }, (_, index) => `batch #${index}`)
        .filter((body) => body !== 'batch #10')
        .sort(),
    );
  });

  describe('a bulk send', () => {
    let staff: number;
    let history: number;
    const count = async (query: ReturnType<typeof sql>) =>
      rowsOf<{ n: number }>(await database.db.execute(query))[0]!.n;

    beforeAll(async () => {
      staff = (await new UserRepository(database.db).create({
        loginId: 'writer-staff',
        name: '職員',
        passwordHash: 'h',
        role: ROLE.staff,
      }))!.id;
      await new ConversationRepository(database.db).ensureOne('sendmen', '男性一括送信', new Date());
      history = rowsOf<{ id: number }>(
        await database.db.execute(sql`select id from conversations where kind = 'sendmen'`),
      )[0]!.id;
    });

    /** The history message, then one copy per desk talk, each image given as `images` says. */
    const bulk = (body: string, images: (index: number) => NewImage[] = () => []): NewBulkSend => ({
      type: 1,
      senderId: staff,
      body,
      historyConversationId: history,
      deskIds: desks.map(({ desk }) => desk),
      images: Array.from({ length: desks.length + 1 }, (_, index) => images(index)),
      now: new Date(),
    });

    it('is stored whole, in input order, with its record, beside the talk messages of its moment', async () => {
      const [talk, outcomes] = await Promise.all([
        Promise.all(Array.from({ length: 20 }, (_, index) => writer.write(message(index)))),
        writer.writeBulk(bulk('一括 ok')),
      ]);
      expect(talk.every((outcome) => outcome.created)).toBe(true);
      const ids = outcomes.map((outcome) => outcome.message!.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(
        await count(sql`select count(*)::int as n from broadcasts b
          join broadcast_recipients r on r.broadcast_id = b.id
          where b.history_message_id = ${ids[0]!} and r.message_id = any(${`{${ids.join(',')}}`}::bigint[])`),
      ).toBe(desks.length);
      // Sending does not mark the members' talks read for the sender (decision 005).
      expect(
        await count(sql`select count(*)::int as n from conversation_reads where user_id = ${staff}`),
      ).toBe(0);
    });

    it('is stored not at all when one of its rows is refused, and takes no talk message with it', async () => {
      const before = await count(sql`select count(*)::int as n from broadcasts`);
      // Two copies naming one image id: the second breaks the media key, so the statement fails.
      const image = {
        id: 'same-image',
        path: 'sa/same-image.png',
        mime: 'image/png',
        width: 1,
        height: 1,
        bytes: 1,
      };
      const [talk, sent] = await Promise.allSettled([
        Promise.all(Array.from({ length: 20 }, (_, index) => writer.write(message(index)))),
        writer.writeBulk(bulk('一括 ng', (index) => (index >= 1 && index <= 2 ? [image] : []))),
      ]);
      expect([talk.status, sent.status]).toEqual(['fulfilled', 'rejected']);
      expect(await count(sql`select count(*)::int as n from messages where body = '一括 ng'`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from broadcasts`)).toBe(before);
    });
  });
});
