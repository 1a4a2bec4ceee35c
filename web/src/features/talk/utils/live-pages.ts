import {
  groupReadCount,
  type GroupReadMarks,
  type Message,
  type MessageGroup,
  type MessagesReply,
} from '@enishi/contract';
import type { InfiniteData } from '@tanstack/react-query';
import { japanDateKey } from '@/lib/japan-date';

/*
 * The talk's pages as the query cache holds them, changed by what the socket brings while the talk is open.
 * The cache is the one record of the timeline: a message that comes both ways is kept once (by id), and a
 * deletion removes every copy.
 */

export type TalkPages = InfiniteData<MessagesReply, unknown>;

const ANNOUNCE = 'announce';

function mapGroups(pages: TalkPages, map: (group: MessageGroup) => MessageGroup): TalkPages {
  return { ...pages, pages: pages.pages.map((page) => ({ ...page, rows: page.rows.map(map) })) };
}

const hasMessage = (pages: TalkPages, id: number, announce: boolean) =>
  pages.pages.some((page) =>
    page.rows.some(
      (group) =>
        (group.date === ANNOUNCE) === announce && group.messages.some((message) => message.id === id),
    ),
  );

/**
 * A message taken back (送信取消) in its new words wherever the talk shows it: in the timeline (its read marks
 * kept), out of the announcements, and in the quotes of the replies to it.
 */
function withUnsent(pages: TalkPages, unsent: Message): TalkPages {
  const unpinned = withoutAnnouncements(pages, new Set([unsent.id]));
  return mapGroups(unpinned, (group) => ({
    ...group,
    messages: group.messages.map((message) => {
      if (message.id === unsent.id) return { ...unsent, read: message.read, read_count: message.read_count };
      if (message.reply?.id !== unsent.id) return message;
      return { ...message, reply: { ...message.reply, message: unsent.message, image: [] } };
    }),
  }));
}

/**
 * A message the socket brought goes into the newest page (and among the announcements when pinned), once;
 * one taken back replaces what was shown of it.
 */
export function withMessage(pages: TalkPages, message: Message): TalkPages {
  if (message.unsent && hasMessage(pages, message.id, false)) return withUnsent(pages, message);
  const [newest, ...older] = pages.pages;
  if (!newest) return pages;
  const rows = [...newest.rows];
  if (!hasMessage(pages, message.id, false))
    rows.push({ date: japanDateKey(message.date), messages: [message] });
  if (message.announce && !hasMessage(pages, message.id, true)) {
    const at = rows.findIndex((group) => group.date === ANNOUNCE);
    if (at < 0) rows.unshift({ date: ANNOUNCE, messages: [message] });
    else rows[at] = { date: ANNOUNCE, messages: [...(rows[at]?.messages ?? []), message] };
  }
  return rows.length === newest.rows.length && rows.every((group, index) => group === newest.rows[index])
    ? pages
    : { ...pages, pages: [{ ...newest, rows }, ...older] };
}

/** Deleted messages leave the timeline and the announcements. */
export function withoutMessages(pages: TalkPages, ids: ReadonlySet<number>): TalkPages {
  if (ids.size === 0) return pages;
  return mapGroups(pages, (group) => ({
    ...group,
    messages: group.messages.filter((message) => !ids.has(message.id)),
  }));
}

/** Taken-down announcements leave the announcement area; their messages stay in the timeline. */
export function withoutAnnouncements(pages: TalkPages, ids: ReadonlySet<number>): TalkPages {
  if (ids.size === 0) return pages;
  return mapGroups(pages, (group) =>
    group.date === ANNOUNCE
      ? { ...group, messages: group.messages.filter((message) => !ids.has(message.id)) }
      : group,
  );
}

/** The other side has read up to `lastReadId`: one's own messages up to it show 既読. */
export function withReadUpTo(pages: TalkPages, lastReadId: number): TalkPages {
  return mapGroups(pages, (group) =>
    group.messages.some((message) => message.own && !message.read && message.id <= lastReadId)
      ? {
          ...group,
          messages: group.messages.map((message) =>
            message.own && !message.read && message.id <= lastReadId ? { ...message, read: true } : message,
          ),
        }
      : group,
  );
}

/** A group talk's read marks moved (the `read` frame): every message's 既読 N is counted again. */
export function withGroupMarks(pages: TalkPages, marks: GroupReadMarks): TalkPages {
  const counted = (message: Message) => groupReadCount(marks, message.role, message.id);
  return mapGroups(pages, (group) =>
    group.messages.some((message) => (message.read_count ?? 0) !== counted(message))
      ? {
          ...group,
          messages: group.messages.map((message) =>
            (message.read_count ?? 0) === counted(message)
              ? message
              : { ...message, read_count: counted(message) },
          ),
        }
      : group,
  );
}
