import type { MessagesReply } from '@enishi/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/messages {id, before?} -> the newest page of a talk, or the page before `before`, grouped by date. */
export function getMessages(conversationId: number, before: number | undefined): Promise<MessagesReply> {
  return api('messages', before === undefined ? { id: conversationId } : { id: conversationId, before }, {});
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
 * Not kept after leaving the talk: image URLs are signed for a limited time, and a fresh open is cheap.
 */
export const messagesQueryOptions = (conversationId: number) =>
  infiniteQueryOptions({
    queryKey: ['messages', conversationId],
    queryFn: ({ pageParam }) => getMessages(conversationId, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.isEnd ? undefined : oldestId(last)),
    staleTime: Infinity,
    gcTime: 0,
  });

export function useMessages(conversationId: number) {
  return useInfiniteQuery(messagesQueryOptions(conversationId));
}
