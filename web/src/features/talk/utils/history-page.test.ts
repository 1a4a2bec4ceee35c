import { describe, expect, it } from 'vitest';
import { testMessage as message, testPage } from '@/testing/chat';
import { historyPage } from './history-page';

describe('what is kept of a talk for reading offline', () => {
  it('keeps the newest 50 messages by Japan date, the pinned announcements first', () => {
    const all = Array.from({ length: 60 }, (_, i) =>
      message(i + 1, { date: i < 55 ? '2026-11-22T01:00:00.000Z' : '2026-11-23T01:00:00.000Z' }),
    );
    const pinned = [message(58, { announce: true }), message(3, { announce: true })];
    const kept = historyPage([testPage(all.slice(30), pinned, false), testPage(all.slice(0, 30), [], true)]);
    expect(kept.rows.map((group) => [group.date, group.messages.length])).toEqual([
      ['announce', 2],
      ['2026-11-22', 45],
      ['2026-11-23', 5],
    ]);
    expect(kept.rows[1]!.messages[0]!.id).toBe(11);
    expect(kept.isEnd).toBe(false);
  });

  it('says there is nothing older only when the whole talk is kept', () => {
    expect(historyPage([testPage([message(1), message(2)], [], true)]).isEnd).toBe(true);
    expect(historyPage([testPage([message(1), message(2)], [], false)]).isEnd).toBe(false);
  });
});
