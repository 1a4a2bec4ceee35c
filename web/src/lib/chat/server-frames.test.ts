import { ja } from '@enishi/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentToasts } from '../toast';
import { setChatStatus } from './events';
import { onServerFrame } from './server-frames';
import { setOpenTalk } from './socket';

/* A new message in a talk not on screen raises a toast (product.md §2.4); opening that talk takes it away. */

const hooks = { openTalkId: () => undefined, ready: () => {} };
let nextId = 1;

/** A live message from staff (role 3) in the member's talk with the desk, `conversationId`. */
function fromStaff(conversationId: number): string {
  return JSON.stringify({
    type: 'message',
    id: nextId++,
    conversation_id: conversationId,
    conversation_type: 'staff',
    role: 3,
    name: '鈴木スタッフ',
    message: '土曜日は19時に銀座でお待ちしております',
    own: false,
  });
}

describe('the toast about a new message', () => {
  afterEach(() => {
    setOpenTalk(null);
    vi.runAllTimers();
    vi.useRealTimers();
    setChatStatus('offline');
  });

  it('goes when its talk is opened, not when another one is', () => {
    vi.useFakeTimers();
    setChatStatus('live');
    onServerFrame(fromStaff(41), hooks);
    expect(currentToasts().map((toast) => toast.message)).toEqual([ja.talk.fromStaff]);

    setOpenTalk({ id: 42, type: 'staff' });
    expect(currentToasts().map((toast) => toast.message)).toEqual([ja.talk.fromStaff]);
    setOpenTalk({ id: 41, type: 'staff' });
    expect(currentToasts()).toEqual([]);
  });

  it('is about the newest talk when a second talk’s message says the same', () => {
    vi.useFakeTimers();
    setChatStatus('live');
    onServerFrame(fromStaff(51), hooks);
    onServerFrame(fromStaff(52), hooks);
    setOpenTalk({ id: 52, type: 'staff' });
    expect(currentToasts()).toEqual([]);
  });
});
