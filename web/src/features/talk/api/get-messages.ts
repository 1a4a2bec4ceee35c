import type { MessagesReply } from '@enishi/contract';
import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keptWhenOffline, loadTalk } from '@/lib/chat/history';
import { earlyCallAt } from '@/lib/early-calls';
import { getSession } from '@/lib/session';

/** When each talk's newest page last read from the server was asked for (ms since the epoch). */
const newestAskedAt = new Map<number, number>();

/** POST /api/messages {id, before?} -> the newest page of a talk, or the page before `before`, grouped by date. */
export function getMessages(conversationId: number, before: number | undefined): Promise<MessagesReply> {
  if (before !== undefined) return api('messages', { id: conversationId, before }, {});
  // Asked for when the page asked, if the page's early call answers it (lib/early-calls.ts).
  const ssid = getSession()?.session;
  const asked = (ssid && earlyCallAt('messages', { id: conversationId }, ssid)) || Date.now();
  return api('messages', { id: conversationId }, {}).then((reply) => {
    newestAskedAt.set(conversationId, Math.max(asked, newestAskedAt.get(conversationId) ?? 0));
    return reply;
  });
}

/** Whether the talk's newest page was read from the server, asked for after `time` (ms since the epoch). */
export const newestAskedSince = (conversationId: number, time: number): boolean =>
  (newestAskedAt.get(conversationId) ?? -Infinity) > time;

type TalkPages = InfiniteData<MessagesReply, number | undefined>;

/** Pages that are the copy kept on this device, shown until the server's arrive (they are stale at once). */
const fromDevice = new WeakSet<TalkPages>();

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

/**
 * A newest page asked for before the talk screen's chunk arrived (the route's loader), its reply once here,
 * and the copy kept on the device once read (lib/chat/history.ts).
 */
type EarlyPage = { at: number; page: Promise<MessagesReply>; reply?: MessagesReply; kept?: TalkPages };

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

/**
 * The copy of the talk kept on this device for `uid`, read beside its early page: a warm open draws it at once
 * and the server's page takes its place (product.md §15.6). Resolves to its pages, or undefined when none is
 * kept or the server's page came first.
 */
export async function readKeptPages(uid: number, conversationId: number): Promise<TalkPages | undefined> {
  const asked = early.get(conversationId);
  const talk = await loadTalk(uid, conversationId);
  if (!talk || !asked || asked.reply || early.get(conversationId) !== asked) return undefined;
  const kept: TalkPages = { pages: [talk.page], pageParams: [undefined] };
  fromDevice.add(kept);
  asked.kept = kept;
  return kept;
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
function pagesAlreadyHere(conversationId: number): TalkPages | undefined {
  const asked = earlyPage(conversationId);
  return asked?.reply ? { pages: [asked.reply], pageParams: [undefined] } : asked?.kept;
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
    // The device's copy is read again from the server at once (its early page, when one is on its way).
    staleTime: (query) => (query.state.data && fromDevice.has(query.state.data) ? 0 : Infinity),
    gcTime: 0,
  });
