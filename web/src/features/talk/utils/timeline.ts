import { CALL_RECORD_TYPE, ja, type Message, type MessagesReply } from '@enishi/contract';
import { dayLabel, japanDateKey } from '@/lib/japan-date';
import type { OutboxEntry } from '@/lib/chat/outbox';

/*
 * What a talk shows, put together from its pages in the query cache (read over HTTP, newest first, and
 * changed by the socket: live-pages.ts) and the outbox. Pure, so that the order of arrival never matters: a message that comes both ways is
 * shown once, a deletion wins over any copy, and an entry of the outbox disappears once its message is stored.
 */

/** Every message once, oldest first, and the pinned announcements, newest first. */
export function collectMessages(
  pages: readonly MessagesReply[],
  hiddenAnnouncements: ReadonlySet<number> = new Set(),
): { messages: Message[]; announcements: Message[] } {
  const messages = new Map<number, Message>();
  const pinned = new Map<number, Message>();
  for (const page of pages) {
    for (const group of page.rows) {
      for (const message of group.messages) {
        if (group.date === 'announce') pinned.set(message.id, message);
        else if (!messages.has(message.id)) messages.set(message.id, message);
      }
    }
  }
  return {
    messages: [...messages.values()].sort((a, b) => a.id - b.id),
    announcements: [...pinned.values()]
      .filter((message) => !hiddenAnnouncements.has(message.id))
      .sort((a, b) => b.id - a.id),
  };
}

/** The client ids of stored messages: their outbox entries are done. */
export const storedClientIds = (messages: readonly Message[]): Set<string> =>
  new Set(messages.flatMap((message) => (message.client_id ? [message.client_id] : [])));

/**
 * One row of the timeline. A row that starts a Japan-time day carries the day's heading (`day`), so that
 * every row is keyed by its message: the virtualizer keeps the row being read in place when older pages are
 * put before it.
 */
export type TimelineRow = { key: string; day: string | null } & (
  | { kind: 'message'; message: Message; showSender: boolean; read: string | null; pinned: boolean }
  | { kind: 'call'; message: Message }
  | { kind: 'pending'; entry: OutboxEntry }
  | { kind: 'auto'; text: string }
);

export type ReadMode = 'pair' | 'group' | null;

/** What shows under one's own message: 既読, 既読 N, or nothing. */
function readLabel(message: Message, mode: ReadMode): string | null {
  if (!message.own) return null;
  if (mode === 'pair') return message.read ? ja.talk.read : null;
  if (mode === 'group') return message.read_count ? ja.talk.readCount(message.read_count) : null;
  return null;
}

type RowInput = {
  messages: readonly Message[];
  pending: readonly OutboxEntry[];
  now: Date;
  /**
   * Under one's own messages: `pair`, a one-to-one talk (a member and the desk), shows 既読; `group` shows 既読 N
   * (product.md §12.2); null shows nothing.
   */
  readMode: ReadMode;
  /** The ids of the announcements now pinned: their messages carry a mark. */
  pinned: ReadonlySet<number>;
  autoReply: string | null;
};

/** The rows of the timeline: the messages under a heading for each Japan-time day, the outbox, the auto-reply. */
export function buildRows(input: RowInput): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let currentDay = '';
  let previousSender: number | null = null;

  /** The heading when this row starts a new day, else null. */
  const dayOf = (date: string): string | null => {
    const key = japanDateKey(date);
    if (key === currentDay) return null;
    currentDay = key;
    previousSender = null;
    return dayLabel(key, input.now);
  };

  for (const message of input.messages) {
    const day = dayOf(message.date);
    const key = `m:${message.id}`;
    if (message.message_type === CALL_RECORD_TYPE) {
      rows.push({ kind: 'call', key, day, message });
      previousSender = null;
      continue;
    }
    rows.push({
      kind: 'message',
      key,
      day,
      message,
      showSender: !message.own && previousSender !== message.from,
      read: readLabel(message, input.readMode),
      pinned: input.pinned.has(message.id),
    });
    previousSender = message.own ? null : message.from;
  }
  for (const entry of input.pending) {
    rows.push({ kind: 'pending', key: `p:${entry.client_id}`, day: dayOf(entry.created), entry });
  }
  if (input.autoReply) rows.push({ kind: 'auto', key: 'auto-reply', day: null, text: input.autoReply });
  return rows;
}

/**
 * The connection came back: the newest page, read again, brings what the catch-up may have missed (a first
 * connection has no `last_id`), and tells which shown messages and announcements went away meanwhile.
 */
export function changesFromNewestPage(
  shown: { messages: readonly Message[]; announcements: readonly Message[] },
  page: MessagesReply,
): { added: Message[]; deleted: number[]; unpinned: number[] } {
  const fresh = page.rows.filter((group) => group.date !== 'announce').flatMap((group) => group.messages);
  const pinned = page.rows.find((group) => group.date === 'announce')?.messages ?? [];
  const freshIds = new Set(fresh.map((message) => message.id));
  const pinnedIds = new Set(pinned.map((message) => message.id));
  const oldest = fresh.reduce((min, message) => Math.min(min, message.id), Infinity);
  // Only within the page's range can a missing message be known to be gone; an empty page means none remain.
  const covered = (id: number) => (fresh.length === 0 ? page.isEnd : id >= oldest);
  return {
    added: [...fresh, ...pinned],
    deleted: shown.messages
      .filter((message) => covered(message.id) && !freshIds.has(message.id))
      .map((message) => message.id),
    unpinned: shown.announcements
      .filter((message) => !pinnedIds.has(message.id))
      .map((message) => message.id),
  };
}
