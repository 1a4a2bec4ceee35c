import { describe, expect, it } from 'vitest';
import { metrics } from '../lib/metrics.js';
import type { RealtimeEvent } from './events.js';
import { MessageOrder, type LiveMessage, type StoredMessages } from './message-order.js';

const message = (id: number, from = 'publish'): LiveMessage => ({
  id,
  topics: [from],
  event: { event: 'message.created', message: { id } } as unknown as RealtimeEvent,
});

/** A database where every id from 1 up is committed; `reads` counts the gap reads, `answer` can hold them. */
function database(answer?: Promise<void>) {
  const reads: [number, number][] = [];
  const stored: StoredMessages = {
    newestId: async () => 0,
    between: async (after, upTo) => {
      reads.push([after, upTo]);
      await answer;
      return Array.from({ length: upTo - after }, (_, i) => message(after + 1 + i, 'database'));
    },
  };
  return { reads, stored };
}

/** The gaps /metrics has counted so far (`enishi_message_order_gaps_total`), by outcome. */
async function gapsCounted(): Promise<{ waited: number; read: number }> {
  const text = await metrics.text();
  const count = (outcome: string) =>
    Number(
      new RegExp(`^enishi_message_order_gaps_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1],
    );
  return { waited: count('waited'), read: count('read') };
}

/** An order whose handing on can be awaited: `until(n)` resolves once n messages were handed on. */
function order(stored: StoredMessages, gapMs: number) {
  const handed: string[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  const instance = new MessageOrder(
    (each) => {
      handed.push(`${each.id} ${each.topics[0]}`);
      if (waiter && handed.length >= waiter.count) waiter.resolve();
    },
    stored,
    (error) => {
      throw error;
    },
    { tailMs: 60_000, fillLimit: 500, gapMs },
  );
  const until = (count: number) =>
    new Promise<void>((resolve) => {
      if (handed.length >= count) resolve();
      else waiter = { count, resolve };
    });
  return { instance, handed, until };
}

/*
 * Two instances writing in turn: an instance's own message usually follows one the other committed just
 * before, whose publish is on its way (decision 025).
 */
describe('a gap in the message order (decisions 019, 025)', () => {
  it('reads nothing from the database when the publish closes the gap within its wait', async () => {
    const { reads, stored } = database();
    const { instance, handed } = order(stored, 60_000);
    await instance.start();
    const before = await gapsCounted();
    instance.accept(message(2));
    expect(handed).toEqual([]);
    instance.accept(message(1));
    instance.stop();
    expect(handed).toEqual(['1 publish', '2 publish']);
    expect(reads).toEqual([]);
    expect(await gapsCounted()).toEqual({ waited: before.waited + 1, read: before.read });
  });

  it('reads the gap from the database once it has waited for a publish that never comes', async () => {
    const { reads, stored } = database();
    const { instance, handed, until } = order(stored, 20);
    await instance.start();
    const before = await gapsCounted();
    instance.accept(message(3));
    await until(3);
    instance.stop();
    expect(handed).toEqual(['1 database', '2 database', '3 publish']);
    expect(reads).toEqual([[0, 2]]);
    expect(await gapsCounted()).toEqual({ waited: before.waited + 1, read: before.read + 1 });
  });

  it('hands on at once a publish that closes the gap while the read is out', async () => {
    let answer = () => {};
    const { reads, stored } = database(new Promise<void>((resolve) => (answer = resolve)));
    const { instance, handed, until } = order(stored, 0);
    await instance.start();
    instance.accept(message(3));
    expect(reads).toEqual([[0, 2]]);
    instance.accept(message(1));
    instance.accept(message(2));
    // The read has not answered: the publishes alone closed the gap.
    expect(handed).toEqual(['1 publish', '2 publish', '3 publish']);
    answer();
    // The read's answer is taken in microtasks: every one of them has run before the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    instance.accept(message(4));
    await until(4);
    instance.stop();
    // What the read brought back was already handed on: dropped.
    expect(handed).toEqual(['1 publish', '2 publish', '3 publish', '4 publish']);
  });
});
