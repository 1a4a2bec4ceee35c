import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RealtimeEvent } from './events.js';
import { MessageOrder, type LiveMessage } from './message-order.js';

const message = (id: number, from = 'publish'): LiveMessage => ({
  id,
  topics: [from],
  event: { event: 'message.created', message: { id } } as unknown as RealtimeEvent,
});

/** A database where every id from 1 up is committed. */
const everyId = {
  newestId: async () => 0,
  between: async (after: number, upTo: number, limit: number) =>
    Array.from({ length: Math.max(0, Math.min(upTo - after, limit)) }, (_, i) =>
      message(after + 1 + i, 'database'),
    ),
};

/** Resolves once the order has handed on `count` messages (fills read the database asynchronously). */
async function handedOn(handed: LiveMessage[], count: number): Promise<void> {
  for (let round = 0; handed.length < count && round < 1000; round += 1) await Promise.resolve();
}

describe('the message order with many messages waiting (decision 019)', () => {
  it('hands on every committed message once, in id order, whatever order and copies the publishes come in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }).chain((count) =>
          fc.record({
            count: fc.constant(count),
            arrivals: fc.shuffledSubarray(
              Array.from({ length: count }, (_, i) => i + 1),
              { minLength: 0, maxLength: count },
            ),
            copies: fc.array(fc.integer({ min: 1, max: count }), { maxLength: 20 }),
            fillLimit: fc.integer({ min: 1, max: 50 }),
          }),
        ),
        async ({ count, arrivals, copies, fillLimit }) => {
          // Publishes that never came are read from the database; the newest one always comes.
          const handed: LiveMessage[] = [];
          const errors: unknown[] = [];
          const order = new MessageOrder(
            (each) => handed.push(each),
            everyId,
            (error) => errors.push(error),
            { tailMs: 60_000, fillLimit, gapMs: 0 },
          );
          await order.start();
          for (const id of [...arrivals, ...copies, count]) order.accept(message(id));
          await handedOn(handed, count);
          order.stop();
          expect(handed.map((each) => each.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
          expect(errors).toEqual([]);
        },
      ),
    );
  });

  it('prefers the copy published by the writer over the one read back from the database', async () => {
    const handed: LiveMessage[] = [];
    const order = new MessageOrder(
      (each) => handed.push(each),
      everyId,
      () => {},
      { tailMs: 60_000, fillLimit: 500, gapMs: 0 },
    );
    await order.start();
    for (const id of [3, 2]) order.accept(message(id));
    await handedOn(handed, 3);
    order.stop();
    expect(handed.map((each) => `${each.id} ${each.topics[0]}`)).toEqual([
      '1 database',
      '2 publish',
      '3 publish',
    ]);
  });
});
