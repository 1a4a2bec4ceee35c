import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, entriesToSend, mergeEntries, pendingFor, toTextFrame } from './outbox';
import { testEntry as entry } from '@/testing/chat';

describe('mergeEntries', () => {
  it('keeps each client id once, the in-memory copy winning, oldest first', () => {
    const memory = [entry('b', { created: '2026-11-23T04:00:02.000Z', status: 'sending' })];
    const stored = [
      entry('b', { created: '2026-11-23T04:00:02.000Z', status: 'failed' }),
      entry('a', { created: '2026-11-23T04:00:01.000Z' }),
      entry('c', { created: '2026-11-23T04:00:03.000Z' }),
    ];
    const merged = mergeEntries(memory, stored);
    expect(merged.map((e) => [e.client_id, e.status])).toEqual([
      ['a', 'waiting'],
      ['b', 'sending'],
      ['c', 'waiting'],
    ]);
  });

  it('keeps the order they came in for entries written at the same moment', () => {
    const at = { created: '2026-11-23T04:00:01.000Z' };
    const merged = mergeEntries([entry('b', at), entry('c', at)], [entry('a', at), entry('d', at)]);
    expect(merged.map((e) => e.client_id)).toEqual(['b', 'c', 'a', 'd']);
  });

  it('treats what an earlier visit was sending as waiting to be sent again', () => {
    expect(mergeEntries([], [entry('a', { status: 'sending' })])[0]?.status).toBe('waiting');
  });
});

describe('pendingFor', () => {
  it("shows a talk's entries until their message is stored", () => {
    const entries = [entry('a'), entry('b'), entry('c', { conversation_id: 2 })];
    expect(pendingFor(entries, 1, new Set(['b'])).map((e) => e.client_id)).toEqual(['a']);
  });
});

describe('entriesToSend', () => {
  it('sends everything not failed, and gives up on entries sent too often', () => {
    const entries = [
      entry('a'),
      entry('b', { status: 'sending', attempts: 1 }),
      entry('c', { status: 'failed' }),
      entry('d', { attempts: MAX_ATTEMPTS }),
    ];
    const { send, giveUp } = entriesToSend(entries);
    expect(send.map((e) => e.client_id)).toEqual(['a', 'b']);
    expect(giveUp.map((e) => e.client_id)).toEqual(['d']);
  });
});

describe('toTextFrame', () => {
  it('sends no reply and no talk type when there are none', () => {
    const frame = toTextFrame(entry('a', { conversation_type: null }));
    expect(frame.reply).toBeNull();
    expect('conversation_type' in frame).toBe(false);
  });

  it('sends the reply by id and keeps the client id', () => {
    const reply = { id: 5, message: '元', own: false, name: '山田', role: 101, image: [] };
    expect(toTextFrame(entry('a', { reply, announce: true }))).toEqual({
      type: 'text',
      conversation_id: 1,
      conversation_type: 'staff',
      message: 'こんにちは',
      image: [],
      reply: 5,
      announce: true,
      client_id: 'a',
    });
  });
});
