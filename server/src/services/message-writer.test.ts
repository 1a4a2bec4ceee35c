import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { MessageBatchRepository, type NewMessage } from '../repositories/message-batch-repository.js';
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
});
