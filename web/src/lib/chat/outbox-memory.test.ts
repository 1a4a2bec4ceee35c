import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testEntry as entry } from '@/testing/chat';
import type * as OutboxModule from './outbox';

// No IndexedDB here (the node environment): the outbox lives in memory, as in a private mode without it.
let outbox: typeof OutboxModule;
beforeEach(async () => {
  vi.resetModules();
  outbox = await import('./outbox');
});
afterEach(() => void vi.useRealTimers());

const shown = () => outbox.getOutbox().map((e) => [e.client_id, e.status]);

describe('the outbox in memory', () => {
  it('adds, updates and removes entries; an unknown client id changes nothing', () => {
    outbox.addEntry(entry('a'));
    outbox.addEntry(entry('b'));
    outbox.updateEntry('a', { status: 'failed', error: '送れませんでした' });
    expect(outbox.getOutbox()[0]).toEqual(entry('a', { status: 'failed', error: '送れませんでした' }));
    const before = outbox.getOutbox();
    outbox.updateEntry('x', { status: 'failed' });
    outbox.removeEntry('x');
    expect(outbox.getOutbox()).toBe(before);
    outbox.removeEntry('a');
    expect(shown()).toEqual([['b', 'waiting']]);
    outbox.clearOutbox();
    expect(outbox.getOutbox()).toEqual([]);
  });

  it('marks what was on the wire as waiting when the connection drops, and nothing else', () => {
    outbox.addEntry(entry('a', { status: 'sending' }));
    outbox.addEntry(entry('b', { status: 'failed' }));
    outbox.addEntry(entry('c'));
    outbox.markSendingAsWaiting();
    expect(shown()).toEqual([
      ['a', 'waiting'],
      ['b', 'failed'],
      ['c', 'waiting'],
    ]);
    const before = outbox.getOutbox();
    outbox.markSendingAsWaiting();
    expect(outbox.getOutbox()).toBe(before);
  });

  it('sends an entry the server could not store again later, with the same user’s other waiting ones', () => {
    vi.useFakeTimers();
    outbox.addEntry(entry('d', { uid: 8 }));
    outbox.addEntry(entry('a', { status: 'sending', attempts: 2, error: '一時的' }));
    outbox.addEntry(entry('b'));
    outbox.addEntry(entry('c', { status: 'failed' }));
    const send = vi.fn();
    outbox.resendLater('a', send);
    expect(outbox.getOutbox()[1]).toMatchObject({ status: 'waiting', attempts: 0, error: null });
    // A second answer meanwhile goes with the first resend.
    outbox.resendLater('b', send);
    vi.advanceTimersByTime(outbox.RESEND_MS - 1);
    expect(send).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(send.mock.calls.map(([sent]) => sent.client_id)).toEqual(['a', 'b']);
    // The timer is over: the next answer waits again.
    outbox.resendLater('a', send);
    vi.advanceTimersByTime(outbox.RESEND_MS);
    expect(send).toHaveBeenCalledTimes(4);
  });

  it('gives up on an entry sent as often as MAX_ATTEMPTS, not before', () => {
    const { send, giveUp } = outbox.entriesToSend([
      entry('a', { attempts: outbox.MAX_ATTEMPTS - 1 }),
      entry('b', { attempts: outbox.MAX_ATTEMPTS }),
    ]);
    expect(send.map((e) => e.client_id)).toEqual(['a']);
    expect(giveUp.map((e) => e.client_id)).toEqual(['b']);
    expect(outbox.MAX_ATTEMPTS).toBe(3);
  });

  it('loads nothing without IndexedDB, and an empty outbox stays as it is', async () => {
    const empty = outbox.getOutbox();
    outbox.clearOutbox();
    await outbox.loadOutbox(7);
    expect(outbox.getOutbox()).toBe(empty);
    outbox.addEntry(entry('a'));
    const before = outbox.getOutbox();
    await outbox.loadOutbox(7);
    expect(outbox.getOutbox()).toBe(before);
  });
});
