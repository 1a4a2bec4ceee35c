import type { Message, MessagesReply } from '@enishi/contract';
import { testMessage as message, testPage } from '@/testing/chat';
import { describe, expect, it } from 'vitest';
import {
  withMessage,
  withoutAnnouncements,
  withoutMessages,
  withGroupMarks,
  withReadUpTo,
  type TalkPages,
} from './live-pages';
import { collectMessages } from './timeline';

const page = (messages: Message[], announce: Message[] = []) => testPage(messages, announce, false);
const cached = (...pages: MessagesReply[]): TalkPages => ({ pages, pageParams: pages.map(() => undefined) });
const shown = (pages: TalkPages) => collectMessages(pages.pages);
const ids = (messages: Message[]) => messages.map((m) => m.id);

describe('the talk pages in the query cache', () => {
  it('adds a message from the socket once, even when it is already on a page', () => {
    let pages = cached(page([message(3), message(4)]), page([message(1), message(2)]));
    pages = withMessage(pages, message(5));
    pages = withMessage(pages, message(5));
    pages = withMessage(pages, message(4));
    expect(ids(shown(pages).messages)).toEqual([1, 2, 3, 4, 5]);
  });

  it('puts a live announcement in the area, newest first', () => {
    const old = message(2, { announce: true });
    const pages = withMessage(cached(page([old], [old])), message(9, { announce: true }));
    expect(ids(shown(pages).announcements)).toEqual([9, 2]);
  });

  it('drops a deleted message from the timeline and the area, on every page', () => {
    const pinned = message(2, { announce: true });
    const pages = withoutMessages(
      cached(page([message(3)], [pinned]), page([message(1), pinned])),
      new Set([1, 2]),
    );
    expect(ids(shown(pages).messages)).toEqual([3]);
    expect(shown(pages).announcements).toEqual([]);
  });

  it('takes a taken-down announcement from the area only', () => {
    const pinned = message(2, { announce: true });
    const pages = withoutAnnouncements(cached(page([pinned], [pinned])), new Set([2]));
    expect(ids(shown(pages).messages)).toEqual([2]);
    expect(shown(pages).announcements).toEqual([]);
  });

  it('marks own messages read up to the read mark', () => {
    const own = (id: number) => message(id, { own: true });
    const pages = withReadUpTo(cached(page([own(1), own(2), message(3), own(4)])), 3);
    expect(shown(pages).messages.map((m) => m.read)).toEqual([true, true, false, false]);
  });

  it('counts 既読 N again from a group talk’s read marks, the sender’s own side left out', () => {
    const man = (id: number) => message(id, { role: 101, own: true });
    const woman = (id: number) => message(id, { role: 201 });
    const staff = (id: number) => message(id, { role: 3 });
    const pages = withGroupMarks(cached(page([man(1), woman(2), staff(3), man(4)])), {
      men: 4,
      women: 3,
      staff: 1,
    });
    const counts = shown(pages).messages.map((m) => [m.id, m.read_count ?? 0]);
    expect(counts).toEqual([
      [1, 2],
      [2, 1],
      [3, 2],
      [4, 0],
    ]);
  });
});
