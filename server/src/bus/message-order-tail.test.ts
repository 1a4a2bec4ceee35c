import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { metrics } from '../lib/metrics.js';
import type { RealtimeEvent } from './events.js';
import { MessageOrder, type LiveMessage, type StoredMessages } from './message-order.js';

const message = (id: number, from = 'publish'): LiveMessage => ({
  id,
  topics: [from],
  event: { event: 'message.created', message: { id } } as unknown as RealtimeEvent,
});

/** A database whose newest committed id the test moves; either half can be made to fail. */
function database() {
  const state = { newest: 0, newestAsked: 0, reads: [] as number[][], away: false, readFails: 0 };
  const stored: StoredMessages = {
    newestId: async () => {
      state.newestAsked += 1;
      if (state.away) throw new Error('database away');
      return state.newest;
    },
    between: async (after, upTo, limit) => {
      state.reads.push([after, upTo, limit]);
      if (state.readFails > 0) {
        state.readFails -= 1;
        throw new Error('read failed');
      }
      const last = Math.min(upTo, after + limit);
      return Array.from({ length: Math.max(0, last - after) }, (_, i) => message(after + 1 + i, 'database'));
    },
  };
  return { state, stored };
}

const TIMING = { tailMs: 100, fillLimit: 2, gapMs: 10 };

/** The gap reads /metrics has counted so far. */
const gapReads = async () =>
  Number(/^enishi_message_order_gaps_total\{outcome="read"\} (\d+)/m.exec(await metrics.text())?.[1] ?? 0);

function order(stored: StoredMessages | null, handOn?: (each: LiveMessage) => void) {
  const handed: string[] = [];
  const errors: string[] = [];
  const instance = new MessageOrder(
    (each) => {
      handOn?.(each);
      handed.push(`${each.id} ${each.topics[0]}`);
    },
    stored,
    (error) => errors.push((error as Error).message),
    TIMING,
  );
  return { instance, handed, errors };
}

/** An order started on a database of its own. */
async function started(handOn?: (each: LiveMessage) => void) {
  const { state, stored } = database();
  const made = order(stored, handOn);
  await made.instance.start();
  return { state, ...made };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('the message order’s tail: messages whose publish never came (decision 019)', () => {
  it('reads them one tail after it saw them committed, in batches of fillLimit', async () => {
    const { state, instance, handed } = await started();
    state.newest = 5;
    await vi.advanceTimersByTimeAsync(TIMING.tailMs);
    expect(handed).toEqual([]);
    expect(state.reads).toEqual([]);
    await vi.advanceTimersByTimeAsync(TIMING.tailMs);
    expect(state.reads).toEqual([
      [0, 5, 2],
      [2, 5, 2],
      [4, 5, 2],
    ]);
    expect(handed).toEqual(['1 database', '2 database', '3 database', '4 database', '5 database']);
    await vi.advanceTimersByTimeAsync(3 * TIMING.tailMs);
    expect(state.reads).toHaveLength(3);
    instance.stop();
  });

  it('reads nothing when the publishes came before the next tail', async () => {
    const { state, instance, handed } = await started();
    const before = await gapReads();
    state.newest = 2;
    await vi.advanceTimersByTimeAsync(TIMING.tailMs);
    instance.accept(message(1));
    instance.accept(message(2));
    await vi.advanceTimersByTimeAsync(2 * TIMING.tailMs);
    expect(state.reads).toEqual([]);
    expect(await gapReads()).toBe(before);
    expect(handed).toEqual(['1 publish', '2 publish']);
    instance.stop();
  });

  it('tells of a database that does not answer, and goes on once it does', async () => {
    const { state, instance, handed, errors } = await started();
    state.away = true;
    state.newest = 1;
    await vi.advanceTimersByTimeAsync(TIMING.tailMs);
    expect(errors).toEqual(['database away']);
    state.away = false;
    await vi.advanceTimersByTimeAsync(2 * TIMING.tailMs);
    expect(handed).toEqual(['1 database']);
    instance.stop();
  });

  it('stops asking once stopped', async () => {
    const { state, instance } = await started();
    const asked = state.newestAsked;
    instance.stop();
    await vi.advanceTimersByTimeAsync(5 * TIMING.tailMs);
    expect(state.newestAsked).toBe(asked);
  });
});

describe('the message order’s gap read, when it fails or is stopped', () => {
  it('waits a tail before reading a gap again after a failed read', async () => {
    const { state, instance, handed, errors } = await started();
    state.readFails = 1;
    instance.accept(message(3));
    await vi.advanceTimersByTimeAsync(TIMING.gapMs);
    expect(errors).toEqual(['read failed']);
    expect(state.reads).toEqual([[0, 2, 2]]);
    await vi.advanceTimersByTimeAsync(TIMING.tailMs - 1);
    expect(state.reads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.reads).toEqual([
      [0, 2, 2],
      [0, 2, 2],
    ]);
    expect(handed).toEqual(['1 database', '2 database', '3 publish']);
    instance.stop();
  });

  it('passes over ids the database no longer holds (deleted messages)', async () => {
    const { state, stored } = database();
    const holds = stored.between;
    // The read's limit counts only the messages it finds: 3 and 4 are gone.
    stored.between = async (after, upTo, limit) =>
      (await holds(after, upTo, upTo)).filter((each) => each.id < 3).slice(0, limit);
    const { instance, handed, errors } = order(stored);
    await instance.start();
    instance.accept(message(5));
    await vi.advanceTimersByTimeAsync(TIMING.gapMs);
    expect(handed).toEqual(['1 database', '2 database', '5 publish']);
    expect(errors).toEqual([]);
    expect(state.reads).toEqual([
      [0, 4, 4],
      [2, 4, 4],
    ]);
    instance.stop();
  });

  it('reads no gap from 0 for what it hears before start() has read where the database stands', async () => {
    const { state, stored } = database();
    state.newest = 4;
    const { instance, handed } = order({
      ...stored,
      newestId: () => new Promise((resolve) => setTimeout(() => resolve(4), 50)),
    });
    instance.accept(message(6));
    const starting = instance.start();
    await vi.advanceTimersByTimeAsync(50);
    await starting;
    expect(state.reads).toEqual([]);
    await vi.advanceTimersByTimeAsync(TIMING.gapMs);
    expect(state.reads).toEqual([[4, 5, 2]]);
    expect(handed).toEqual(['5 database', '6 publish']);
    instance.stop();
  });

  it('reads no gap once stopped', async () => {
    const { state, instance, handed } = await started();
    instance.accept(message(3));
    instance.stop();
    await vi.advanceTimersByTimeAsync(5 * TIMING.tailMs);
    expect(state.reads).toEqual([]);
    expect(handed).toEqual([]);
  });

  it('tells of a socket that fails to take a message, and hands on the next', async () => {
    const { instance, handed, errors } = await started((each) => {
      if (each.id === 1) throw new Error('socket failed');
    });
    instance.accept(message(1));
    instance.accept(message(2));
    instance.accept(message(1));
    expect(errors).toEqual(['socket failed']);
    expect(handed).toEqual(['2 publish']);
    instance.stop();
  });
});

describe('the message order with one instance', () => {
  it('hands on every message as it comes, and reads nothing', async () => {
    const { instance, handed } = order(null);
    await instance.start();
    instance.accept(message(2));
    instance.accept(message(1));
    instance.accept(message(1));
    expect(handed).toEqual(['2 publish', '1 publish', '1 publish']);
    instance.stop();
  });

  it('reads where the database stands once, however often started', async () => {
    const { state, stored } = database();
    state.newest = 4;
    const { instance, handed } = order(stored);
    await instance.start();
    await instance.start();
    expect(state.newestAsked).toBe(1);
    instance.accept(message(4));
    instance.accept(message(5));
    expect(handed).toEqual(['5 publish']);
    instance.stop();
  });
});
