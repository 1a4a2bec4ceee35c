import type { Message, MessagesReply } from '@enishi/contract';
import type { OutboxEntry } from '@/lib/chat/outbox';

/* Messages, pages and outbox entries for tests: plausible values, and what a test cares about in `patch`. */

/** A message of talk 1 from member 7, sent 2026-11-23 10:00 Japan time. */
export function testMessage(id: number, patch: Partial<Message> = {}): Message {
  return {
    id,
    client_id: null,
    from: 7,
    name: '山田太郎',
    role: 101,
    conversation_id: 1,
    conversation_type: 'staff',
    message: `m${id}`,
    image: [],
    reply: null,
    announce: false,
    message_type: 0,
    date: '2026-11-23T01:00:00.000Z',
    own: false,
    user_image: null,
    read: false,
    ...patch,
  };
}

/** A page of `messages` under one day, with the pinned `announce` first when there are any. */
export const testPage = (messages: Message[], announce: Message[] = [], isEnd = true): MessagesReply => ({
  rows: [
    ...(announce.length ? [{ date: 'announce', messages: announce }] : []),
    { date: '2026-11-23', messages },
  ],
  isEnd,
});

/** An outbox entry of user 7 for talk 1, waiting to be sent. */
export function testEntry(clientId: string, patch: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    client_id: clientId,
    uid: 7,
    conversation_id: 1,
    conversation_type: 'staff',
    message: 'こんにちは',
    image: [],
    reply: null,
    announce: false,
    created: '2026-11-23T04:00:00.000Z',
    status: 'waiting',
    error: null,
    attempts: 0,
    ...patch,
  };
}
