import { describe, expect, it } from 'vitest';
import { testEntry as entry, testMessage as message, testPage as page } from '@/testing/chat';
import {
  buildRows,
  changesFromNewestPage,
  collectMessages,
  storedClientIds,
  type ReadMode,
} from './timeline';

const now = new Date('2026-11-23T05:00:00.000Z'); // 14:00 in Japan

describe('collectMessages', () => {
  it('merges pages once each, oldest first', () => {
    const newest = page([message(3), message(4)]);
    const older = page([message(1), message(2), message(3)]);
    const { messages } = collectMessages([newest, older]);
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('leaves announcements hidden on this device out of the area, newest first', () => {
    const pinned = [
      message(2, { announce: true }),
      message(3, { announce: true }),
      message(4, { announce: true }),
    ];
    const { announcements } = collectMessages([page(pinned, pinned)], new Set([3]));
    expect(announcements.map((m) => m.id)).toEqual([4, 2]);
  });

  it('lists the client ids of stored messages', () => {
    expect(storedClientIds([message(1, { client_id: 'a' }), message(2)])).toEqual(new Set(['a']));
  });
});

describe('buildRows', () => {
  const base = {
    now,
    readMode: null,
    autoReply: null,
    pending: [],
    pinned: new Set<number>(),
  };

  it('puts a heading before each Japan-time day: 今日 for today', () => {
    const rows = buildRows({
      ...base,
      messages: [
        message(1, { date: '2026-11-21T16:00:00.000Z' }), // 22 Nov 01:00 in Japan
        message(2, { date: '2026-11-22T14:00:00.000Z' }), // 22 Nov 23:00
        message(3, { date: '2026-11-22T15:30:00.000Z' }), // 23 Nov 00:30
      ],
    });
    expect(rows.map((row) => [row.key, row.day])).toEqual([
      ['m:1', '11月22日(日)'],
      ['m:2', null],
      ['m:3', '今日'],
    ]);
  });

  it('names the sender once per run of their messages', () => {
    const rows = buildRows({
      ...base,
      messages: [
        message(1),
        message(2),
        message(3, { own: true, from: 1 }),
        message(4),
        message(5, { from: 8, name: '佐藤' }),
      ],
    });
    const shown = rows.flatMap((row) => (row.kind === 'message' ? [row.showSender] : []));
    expect(shown).toEqual([true, false, false, true, true]);
  });

  it('shows 既読 under own messages read by the other side, in one-to-one talks only', () => {
    const messages = [
      message(1, { own: true, read: true }),
      message(2, { own: true, read: true }),
      message(3, { own: true }),
      message(4),
    ];
    const read = (readMode: ReadMode) =>
      buildRows({ ...base, messages, readMode }).flatMap((row) => (row.kind === 'message' ? [row.read] : []));
    expect(read('pair')).toEqual(['既読', '既読', null, null]);
    expect(read(null)).toEqual([null, null, null, null]);
  });

  it('shows 既読 N under own messages in group talks, from the count the server gives', () => {
    const messages = [
      message(1, { own: true, read_count: 2 }),
      message(2, { own: true, read_count: 1 }),
      message(3, { own: true, read_count: 0 }),
      message(4, { read_count: 2 }),
    ];
    const rows = buildRows({ ...base, messages, readMode: 'group' });
    expect(rows.flatMap((row) => (row.kind === 'message' ? [row.read] : []))).toEqual([
      '既読 2',
      '既読 1',
      null,
      null,
    ]);
  });

  it('marks the messages pinned as announcements', () => {
    const rows = buildRows({ ...base, messages: [message(1), message(2)], pinned: new Set([2]) });
    expect(rows.flatMap((row) => (row.kind === 'message' ? [row.pinned] : []))).toEqual([false, true]);
  });

  it('shows call records as their own rows, and the outbox and the auto-reply last', () => {
    const rows = buildRows({
      ...base,
      messages: [message(1, { message_type: 1 })],
      pending: [entry('x')],
      autoReply: '自動応答',
    });
    expect(rows.map((row) => row.kind)).toEqual(['call', 'pending', 'auto']);
  });

  it('names the sender again after a call record or a new day', () => {
    const rows = buildRows({
      ...base,
      messages: [
        message(1, { date: '2026-11-22T01:00:00.000Z' }),
        message(2),
        message(3, { message_type: 1 }),
        message(4),
      ],
    });
    expect(rows.flatMap((row) => (row.kind === 'message' ? [row.showSender] : []))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('gives pending messages a heading of their own day', () => {
    const rows = buildRows({
      ...base,
      messages: [message(1, { date: '2026-11-20T01:00:00.000Z' })],
      pending: [entry('x')],
    });
    expect(rows.map((row) => [row.kind, row.day])).toEqual([
      ['message', '11月20日(金)'],
      ['pending', '今日'],
    ]);
  });
});

describe('changesFromNewestPage', () => {
  it('adds what is new and drops what went away within the page', () => {
    const shown = {
      messages: [message(1), message(2), message(3), message(4)],
      announcements: [message(2, { announce: true }), message(3, { announce: true })],
    };
    const page = {
      rows: [
        { date: 'announce', messages: [message(3, { announce: true })] },
        { date: '2026-11-23', messages: [message(2), message(4), message(5)] },
      ],
      isEnd: false,
    };
    const changes = changesFromNewestPage(shown, page);
    expect(changes.added.map((m) => m.id)).toEqual([2, 4, 5, 3]);
    // 1 is older than the page: unknown, kept. 3 is within it and gone.
    expect(changes.deleted).toEqual([3]);
    expect(changes.unpinned).toEqual([2]);
  });

  it('takes an empty last page to mean that nothing remains', () => {
    const shown = { messages: [message(1)], announcements: [] };
    expect(changesFromNewestPage(shown, { rows: [], isEnd: true }).deleted).toEqual([1]);
    expect(changesFromNewestPage(shown, { rows: [], isEnd: false }).deleted).toEqual([]);
  });
});
