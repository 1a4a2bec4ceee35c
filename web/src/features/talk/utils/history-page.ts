import { MESSAGES_PAGE_SIZE, type MessageGroup, type MessagesReply } from '@enishi/contract';
import { japanDateKey } from '@/lib/japan-date';
import { collectMessages } from './timeline';

/**
 * What is kept of a talk for reading offline (lib/chat/history.ts): its newest 50 messages as one page, in the
 * server's shape (pinned announcements first, then a group per Japan date, oldest first). `isEnd` only when
 * nothing older exists at all.
 */
export function historyPage(pages: readonly MessagesReply[]): MessagesReply {
  const { messages, announcements } = collectMessages(pages);
  const kept = messages.slice(-MESSAGES_PAGE_SIZE);
  const rows: MessageGroup[] = [];
  if (announcements.length > 0) rows.push({ date: 'announce', messages: [...announcements].reverse() });
  for (const message of kept) {
    const date = japanDateKey(message.date);
    const last = rows.at(-1);
    if (last && last.date === date) last.messages.push(message);
    else rows.push({ date, messages: [message] });
  }
  const allLoaded = pages.at(-1)?.isEnd ?? false;
  return { rows, isEnd: allLoaded && kept.length === messages.length };
}
