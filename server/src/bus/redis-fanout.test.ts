import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MessageFact } from '../presenters/message-fact.js';
import { Delivery, MESSAGES_PER_PUBLISH, STAFF_TOPIC, userTopic, type NewMessageEvent } from './delivery.js';
import { realtimeChannel, RedisFanout } from './redis-fanout.js';
import { testRedisUrl } from '../test/redis.js';

/** Pub/sub channels name the database, so other test files on this Redis are not heard. */
const REDIS_URL = testRedisUrl(11);

/** Resolves with the next `count` payloads a handler receives. */
function next(fanout: RedisFanout, topic: string, count = 1): Promise<unknown[]> {
  const seen: unknown[] = [];
  return new Promise((resolve) => {
    const unsubscribe = fanout.subscribe(topic, (payload) => {
      seen.push(payload);
      if (seen.length === count) {
        unsubscribe();
        resolve(seen);
      }
    });
  });
}

describe('RedisFanout (two instances on one Redis)', () => {
  const errors: unknown[] = [];
  let a: RedisFanout;
  let b: RedisFanout;
  let spy: Redis;
  const raw: string[] = [];
  const spyWaiters = new Set<() => void>();
  let sentinels = 0;

  /**
   * Resolves once the spy and both instances have heard everything published so far (Redis keeps one
   * publisher's order to each subscriber). Before each test: an instance may still be reading the last test's
   * messages after the spy has them (a bulk send's lists are some 200 KB each), and a Delivery made on it now
   * would take them for its own (with ids past the ones this test sends).
   */
  async function caughtUp(): Promise<void> {
    const sentinel = `sentinel-${(sentinels += 1)}`;
    const bySpy = new Promise<void>((resolve) => {
      const check = () => {
        if (!raw.some((message) => message.includes(sentinel))) return;
        spyWaiters.delete(check);
        resolve();
      };
      spyWaiters.add(check);
    });
    const by = (fanout: RedisFanout) =>
      new Promise<void>((resolve) => {
        const unsubscribe = fanout.subscribe(userTopic(99), (payload) => {
          if (payload !== sentinel) return;
          unsubscribe();
          resolve();
        });
      });
    const heard = Promise.all([bySpy, by(a), by(b)]);
    await a.publish(userTopic(99), sentinel);
    await heard;
  }

  beforeAll(async () => {
    a = await RedisFanout.connect(REDIS_URL, (error) => errors.push(error));
    b = await RedisFanout.connect(REDIS_URL, (error) => errors.push(error));
    spy = new Redis(REDIS_URL);
    spy.on('message', (_channel: string, message: string) => {
      raw.push(message);
      for (const waiter of spyWaiters) waiter();
    });
    await spy.subscribe(realtimeChannel(11));
  });

  beforeEach(caughtUp);

  afterAll(async () => {
    await Promise.all([a.close(), b.close(), spy.quit()]);
    expect(errors).toEqual([]);
  });

  it('delivers an event published on one instance to subscribers on the other, in order', async () => {
    const received = next(b, userTopic(1), 3);
    for (const id of [1, 2, 3]) await a.publish(userTopic(1), { event: 'message.created', id });
    expect(await received).toEqual([1, 2, 3].map((id) => ({ event: 'message.created', id })));
  });

  it('sends one Redis message for all topics of one event, and every local subscriber shares one frozen copy', async () => {
    await caughtUp();
    raw.length = 0;
    const [member, staffOne, staffTwo] = [next(b, userTopic(7)), next(b, STAFF_TOPIC), next(b, STAFF_TOPIC)];
    await new Delivery(a).toAudience({ memberIds: [7], staff: true }, 'message.deleted', {
      conversationId: 3,
      messageId: 9,
    });
    const [[fromMember], [fromStaff], [fromOtherStaff]] = await Promise.all([member, staffOne, staffTwo]);
    expect(fromMember).toEqual({ event: 'message.deleted', conversationId: 3, messageId: 9 });
    expect(fromStaff).toBe(fromMember);
    expect(fromOtherStaff).toBe(fromMember);
    expect(Object.isFrozen(fromMember)).toBe(true);
    await caughtUp();
    const sent = raw.filter((message) => !message.includes('sentinel-'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.split('\n')[0]).toBe('user-7 staff');
  });

  it("sends a bulk send's messages a few hundred to a Redis message; the other instance hands each on once, in order", async () => {
    // Nothing is stored: whatever instance b hands on came through Redis, not from the database.
    const stored = { newestId: async () => 0, between: async () => [] };
    const [writer, reader] = [new Delivery(a, null, { stored }), new Delivery(b, null, { stored })];
    await Promise.all([writer.start(), reader.start()]);
    const count = 2 * MESSAGES_PER_PUBLISH + 1;
    const heard: number[] = [];
    const all = new Promise<void>((resolve) => {
      reader.subscribe([userTopic(5)], (event) => {
        if (event.event === 'message.created') heard.push(event.message.id);
        if (heard.length === count) resolve();
      });
    });
    await caughtUp();
    raw.length = 0;
    const messages = Array.from({ length: count }, (_, index): NewMessageEvent => ({
      audience: { memberIds: [5], staff: false },
      event: { event: 'message.created', message: { id: index + 1 } as MessageFact, broadcast: true },
    }));
    await writer.deliverMessages(messages);
    await all;
    expect(heard).toEqual(messages.map(({ event }) => event.message.id));
    await caughtUp();
    // On a topic of their own, which an instance of an earlier release does not hear (it reads them instead).
    expect(raw.filter((message) => message.startsWith('message-lists\n'))).toHaveLength(3);
    expect(raw.filter((message) => message.startsWith('messages\n'))).toHaveLength(0);
    writer.stop();
    reader.stop();
  });

  it("writes a commit's new messages to Redis in one write before this instance's own sockets get them", async () => {
    // Several instances: the other instances' sockets, and their own next messages, wait for this copy.
    const delivery = new Delivery(a, null, {
      stored: { newestId: async () => 0, between: async () => [] },
    });
    await delivery.start();
    await caughtUp();
    raw.length = 0;
    const seen: string[] = [];
    const unsubscribe = delivery.subscribe([userTopic(5), STAFF_TOPIC], (event) => {
      if (event.event === 'message.created') seen.push(`socket ${event.message.id}`);
    });
    const stream = (a as unknown as { publisher: Redis }).publisher.stream;
    const write = stream.write.bind(stream);
    stream.write = ((...args: Parameters<typeof write>) => {
      seen.push('written');
      return write(...args);
    }) as typeof stream.write;
    try {
      // As MessagePosting publishes the messages of one batch: all in the same tick.
      await Promise.all(
        [1, 2, 3].map((id) =>
          delivery.toAudience({ memberIds: [], staff: true }, 'message.created', {
            message: { id } as MessageFact,
          }),
        ),
      );
    } finally {
      stream.write = write as typeof stream.write;
      unsubscribe();
      delivery.stop();
    }
    expect(seen).toEqual(['written', 'socket 1', 'socket 2', 'socket 3']);
    await caughtUp();
    const sent = raw.filter((message) => !message.includes('sentinel-'));
    expect(sent.map((message) => (JSON.parse(message.split('\n')[1]!) as { id: number }).id)).toEqual([
      1, 2, 3,
    ]);
  });

  it('stops delivering after unsubscribe', async () => {
    const late: unknown[] = [];
    const unsubscribe = b.subscribe(userTopic(2), (payload) => late.push(payload));
    const still = next(b, userTopic(2));
    await a.publish(userTopic(2), 'first');
    await still;
    unsubscribe();
    const marker = next(b, userTopic(3));
    await a.publish(userTopic(2), 'second');
    await a.publish(userTopic(3), 'marker');
    await marker;
    expect(late).toEqual(['first']);
  });
});
