import { describe, expect, it } from 'vitest';
import type { RealtimeEvent } from './events.js';
import { MessageOrder, type LiveMessage } from './message-order.js';

const message = (id: number): LiveMessage => ({
  id,
  topics: ['staff'],
  event: { event: 'message.created', message: { id } } as unknown as RealtimeEvent,
});

describe('the message order as an instance starts', () => {
  it('drops a copy heard before start() of a message already stored, and hands on the next one', async () => {
    // A restarted instance hears its neighbours' publishes while it still reads where the stored ids stand.
    const handed: number[] = [];
    const errors: unknown[] = [];
    const order = new MessageOrder(
      (each) => handed.push(each.id),
      { newestId: async () => 7, between: async () => [] },
      (error) => errors.push(error),
    );
    order.accept(message(5));
    await order.start();
    order.accept(message(8));
    order.stop();
    expect(handed).toEqual([8]);
    expect(errors).toEqual([]);
  });
});
