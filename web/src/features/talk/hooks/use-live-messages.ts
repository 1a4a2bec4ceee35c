import { hashKey, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { socketDroppedAt, useChatEvent } from '@/lib/chat/events';
import { getMessages, messagesQueryOptions, newestAskedSince } from '../api/get-messages';
import {
  withMessage,
  withoutAnnouncements,
  withoutMessages,
  withGroupMarks,
  withReadUpTo,
  type TalkPages,
} from '../utils/live-pages';
import { changesFromNewestPage, collectMessages } from '../utils/timeline';

/**
 * What the chat socket brings for the open talk goes into the talk's pages in the query cache: new messages,
 * deletions, taken-down announcements and read marks of the other side (`isOtherSide` tells whose mark
 * shows 既読; in a group talk, the marks of all sides count 既読 N). Back online, the newest page is read
 * again for anything the catch-up could not bring.
 */
export function useLiveMessages(conversationId: number, isOtherSide: (reader: number) => boolean): void {
  const queryClient = useQueryClient();
  const { queryKey } = messagesQueryOptions(conversationId);
  const update = useChangesOverReads(queryClient, conversationId);

  useChatEvent('message', (message) => {
    if (message.conversation_id !== conversationId) return;
    // Before the first page is here, the page being read may have been started before this message was
    // stored: it is read again (the message is committed by now).
    if (!queryClient.getQueryData(queryKey)) void queryClient.refetchQueries({ queryKey, exact: true });
    else update((pages) => withMessage(pages, message));
  });
  useChatEvent('delete', (event) => {
    if (event.conversation_id !== conversationId) return;
    const { delete_message_id: messageId, delete_announce_id: announceId } = event;
    if (messageId !== undefined) update((pages) => withoutMessages(pages, new Set([messageId])));
    else if (announceId !== undefined) update((pages) => withoutAnnouncements(pages, new Set([announceId])));
  });
  useChatEvent('read', (event) => {
    if (event.conversation_id !== conversationId) return;
    const { marks } = event;
    if (marks) update((pages) => withGroupMarks(pages, marks));
    if (!isOtherSide(event.reader)) return;
    update((pages) => withReadUpTo(pages, event.last_read_id));
  });
  // Too far behind for the socket's catch-up: the talk is loaded again from its newest page.
  useChatEvent('reload', () => void queryClient.resetQueries({ queryKey }));
  useChatEvent('live', ({ caughtUp }) => {
    const before = queryClient.getQueryData(queryKey);
    if (!before) return;
    // A page read from the server since the connection last went down (the one the talk opened with, while
    // its socket connected) and a catch-up after the device's last message leave nothing to read: the newest
    // page is read once when a talk opens (product.md §15.6).
    if (caughtUp && newestAskedSince(conversationId, socketDroppedAt())) return;
    // What the page may take away is only what was shown when it was asked for: a message stored while it was
    // on its way (one just sent, say) is not in it, and is not gone.
    const shown = collectMessages(before.pages);
    void getMessages(conversationId, undefined)
      .then((page) =>
        update((pages) => {
          const fresh = changesFromNewestPage(shown, page);
          const added = fresh.added.reduce(withMessage, pages);
          return withoutAnnouncements(
            withoutMessages(added, new Set(fresh.deleted)),
            new Set(fresh.unpinned),
          );
        }),
      )
      .catch(() => undefined);
  });
}

type Change = (pages: TalkPages) => TalkPages;

/**
 * Changes the talk's pages, also when a read of them is on its way: that read was asked for before the change
 * and its pages would put back what the change replaced (the device's copy being read afresh, an older page
 * being added to the pages as they were), so the change is made again on what it brings. A message arriving
 * then would otherwise be gone from the screen until the talk is opened again.
 */
function useChangesOverReads(queryClient: QueryClient, conversationId: number): (change: Change) => void {
  const overRead = useRef<Change[]>([]);
  const { queryKey } = messagesQueryOptions(conversationId);
  useEffect(() => {
    const { queryKey } = messagesQueryOptions(conversationId);
    const hash = hashKey(queryKey);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryHash !== hash) return;
      if (event.action.type === 'error') overRead.current = [];
      if (event.action.type !== 'success' || event.action.manual) return;
      const changes = overRead.current.splice(0);
      if (changes.length > 0)
        queryClient.setQueryData(queryKey, (pages) => pages && changes.reduce((p, c) => c(p), pages));
    });
  }, [queryClient, conversationId]);
  return (change) => {
    queryClient.setQueryData(queryKey, (pages) => (pages ? change(pages) : pages));
    if (queryClient.getQueryState(queryKey)?.fetchStatus === 'fetching') overRead.current.push(change);
  };
}
