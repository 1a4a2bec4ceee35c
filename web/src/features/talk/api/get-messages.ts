import type { MessagesReply } from '@enishi/contract';
import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';
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

/** A newest page asked for before the talk screen's chunk arrived (the route's loader), and its reply once here. */
type EarlyPage = { at: number; page: Promise<MessagesReply>; reply?: MessagesReply };

/** Newest pages asked for early, until the talk's screen is up. */
const early = new Map<number, EarlyPage>();

/**
 * Starts reading a talk's newest page while its screen loads, so the two do not wait on each other. Resolves
 * once the page is here (or could not be read); nobody need wait for it.
 */
export function prefetchNewestPage(conversationId: number): Promise<void> {
  const asked: EarlyPage = { at: Date.now(), page: newestPageOrKept(conversationId) };
  early.set(conversationId, asked);
  return asked.page.then(
    (reply) => {
      asked.reply = reply;
    },
    () => undefined, // the screen's own query reports a failure
  );
}

/** The early page when the screen opens within a few seconds of asking; otherwise a fresh read. */
function earlyPage(conversationId: number): EarlyPage | undefined {
  const asked = early.get(conversationId);
  return asked && Date.now() - asked.at < 5_000 ? asked : undefined;
}

/** Once the talk's screen is up, its early page is not used again: opening the talk again reads afresh. */
export function forgetEarlyPage(conversationId: number): void {
  early.delete(conversationId);
}

/**
 * A talk's pages at its query's start: the early page when it is already here, so that the screen's first
 * drawing shows the messages (not a spinner and, a render later, the messages). Kept until the screen is up:
 * a first drawing that React starts again (it is drawn as a transition) builds the query again.
 */
function pagesAlreadyHere(
  conversationId: number,
): InfiniteData<MessagesReply, number | undefined> | undefined {
  const reply = earlyPage(conversationId)?.reply;
  return reply ? { pages: [reply], pageParams: [undefined] } : undefined;
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
        ? (earlyPage(conversationId)?.page ?? newestPageOrKept(conversationId))
        : getMessages(conversationId, pageParam),
    initialPageParam: undefined as number | undefined,
    initialData: () => pagesAlreadyHere(conversationId),
    getNextPageParam: (last) => (last.isEnd ? undefined : oldestId(last)),
    staleTime: Infinity,
    gcTime: 0,
  });
