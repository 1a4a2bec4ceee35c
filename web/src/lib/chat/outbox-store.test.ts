import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testEntry as entry } from '@/testing/chat';
import type * as OutboxModule from './outbox';

type Outbox = typeof OutboxModule;

/** The outbox as a page loads it: a fresh module (nothing in memory) over the same IndexedDB. */
async function freshVisit(): Promise<Outbox> {
  vi.resetModules();
  return import('./outbox');
}

/** Everything the visit wrote has reached IndexedDB: its requests run in order on one connection. */
async function settled(outbox: Outbox, uid: number): Promise<void> {
  await outbox.loadOutbox(uid);
}

describe('the outbox in IndexedDB (a reload loses nothing)', () => {
  beforeEach(async () => {
    const outbox = await freshVisit();
    outbox.clearOutbox();
    await settled(outbox, 7);
  });

  it('keeps an unsent message for the next visit, to be sent again', async () => {
    const first = await freshVisit();
    first.addEntry(entry('a', { status: 'sending', created: '2026-11-23T04:00:01.000Z' }));
    first.addEntry(entry('b', { created: '2026-11-23T04:00:02.000Z' }));
    await settled(first, 7);

    const next = await freshVisit();
    expect(next.getOutbox()).toEqual([]);
    await next.loadOutbox(7);
    expect(next.getOutbox().map((e) => [e.client_id, e.status])).toEqual([
      ['a', 'waiting'],
      ['b', 'waiting'],
    ]);
  });

  it('keeps what changed, forgets what the server stored, and shows no one else their entries', async () => {
    const first = await freshVisit();
    first.addEntry(entry('a'));
    first.addEntry(entry('b'));
    first.addEntry(entry('other', { uid: 8 }));
    first.updateEntry('a', { status: 'failed', error: '送れませんでした' });
    first.removeEntry('b');
    await settled(first, 7);

    const next = await freshVisit();
    await next.loadOutbox(7);
    expect(next.getOutbox().map((e) => [e.client_id, e.status, e.error])).toEqual([
      ['a', 'failed', '送れませんでした'],
    ]);
  });

  // Another user's unsent messages are theirs alone: the next user's first load deletes them from the device,
  // so that they are neither shown to nor sent by anyone else, nor kept for the owner to find later.
  it("deletes another user's unsent entries from IndexedDB when a user loads the outbox", async () => {
    const first = await freshVisit();
    first.addEntry(entry('mine'));
    first.addEntry(entry('theirs', { uid: 8 }));
    await settled(first, 7);

    const later = await freshVisit();
    await later.loadOutbox(8);
    expect(later.getOutbox()).toEqual([]);
  });

  it('keeps nothing after logout', async () => {
    const first = await freshVisit();
    first.addEntry(entry('a'));
    first.clearOutbox();
    await settled(first, 7);
    const next = await freshVisit();
    await next.loadOutbox(7);
    expect(next.getOutbox()).toEqual([]);
  });
});
