import type { MessagesReply } from '@enishi/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keptWhenOffline } from '@/lib/chat/history';

/** POST /api/messages {id, before?} -> the newest page of a talk, or the page before `before`, grouped by date. */
export function getMessages(conversationId: number, before: number | undefined): Promise<MessagesReply> {
  return api('messages', before === undefined ? { id: conversationId } : { id: conversationId, before }, {});
}

/**
 * The newest page; offline (or with the server out of reach), the copy kept on this device when the talk was
 * last open (lib/chat/history.ts), so that its newest messages can still be read.
 */
async function newestPageOrKept(conversationId: number): Promise<MessagesReply> {
  try {
    return await getMessages(conversationId, undefined);
  } catch (error) {
    const kept = await keptWhenOffline(error, conversationId);
    if (kept) return kept.page;
    throw error;
  }
}

/** Newest pages asked for before the talk screen's chunk arrived (the route's loader), each taken once. */
const early = new Map<number, { at: number; page: Promise<MessagesReply> }>();

/** Starts reading a talk's newest page while its screen loads, so the two do not wait on each other. */
export function prefetchNewestPage(conversationId: number): void {
  const page = newestPageOrKept(conversationId);
  page.catch(() => undefined); // the screen's own query reports a failure
  early.set(conversationId, { at: Date.now(), page });
}

/** The early page when the screen opens within a few seconds of asking; otherwise a fresh read. */
function takeEarlyPage(conversationId: number): Promise<MessagesReply> | undefined {
  const asked = early.get(conversationId);
  early.delete(conversationId);
  return asked && Date.now() - asked.at < 5_000 ? asked.page : undefined;
}

/** The oldest message of a page (announcements aside): the next, older page comes before it. */
function oldestId(page: MessagesReply): number | undefined {
  let oldest: number | undefined;
  for (const group of page.rows) {
    if (group.date === 'announce') continue;
    for (const message of group.messages)
      if (oldest === undefined || message.id < oldest) oldest = message.id;
  }
  return oldest;
}

/**
 * Pages of a talk, newest first: the first opens the talk fast, older ones come as the user scrolls up.
 * Not kept in memory after leaving the talk: image URLs are signed for a limited time, and a fresh open is
 * cheap (the newest page is kept on the device for reading offline: hooks/use-keep-history.ts).
 */
export const messagesQueryOptions = (conversationId: number) =>
  infiniteQueryOptions({
    queryKey: ['messages', conversationId],
    queryFn: ({ pageParam }) =>
      pageParam === undefined
        ? (takeEarlyPage(conversationId) ?? newestPageOrKept(conversationId))
        : getMessages(conversationId, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.isEnd ? undefined : oldestId(last)),
    staleTime: Infinity,
    gcTime: 0,
  });
