import { ja, type ConversationType } from '@enishi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { useChatEvent } from '@/lib/chat/events';
import { useLoadMore } from '@/lib/use-load-more';
import { Button } from '@/components/ui/button';
import { SearchForm } from '@/components/ui/search-form';
import { Spinner } from '@/components/ui/spinner';
import { conversationsQueryKey, useConversations, type RoomFilters } from '../api/get-conversations';
import { RoomRow } from './room-row';
import './room-list.css';
import { Phrases } from '@/components/ui/phrases';

/** After a burst of socket events, the list is read again once. */
const REFRESH_DELAY_MS = 400;

/**
 * New messages, deletions and reconnecting change last messages and unread counts: the list is read again (once
 * after a burst), and the time the rows' dates are told against moves on. Returns that time.
 */
function useRefreshedRooms(type: ConversationType): Date {
  const queryClient = useQueryClient();
  const [now, setNow] = useState(() => new Date());
  const refreshTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refresh = () => {
    clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(() => {
      setNow(new Date());
      void queryClient.invalidateQueries({ queryKey: conversationsQueryKey(type) });
    }, REFRESH_DELAY_MS);
  };
  useEffect(() => () => clearTimeout(refreshTimer.current), []);
  useChatEvent('message', refresh);
  useChatEvent('delete', refresh);
  useChatEvent('live', refresh);
  useChatEvent('reload', refresh);
  useChatEvent('desk', refresh);
  return now;
}

/**
 * A room list (product.md §2): a keyword search, the rooms newest first, more pages as the user scrolls to the
 * end, and unread counts kept current by the chat socket. The keyword lives in the address (`?q=`), so
 * coming back from a talk finds the same search.
 */
export function RoomList({
  type,
  filters = {},
  noHits,
}: {
  type: ConversationType;
  /** The desk's filters (staff, product.md §2.6), and what the list says when they leave no talk. */
  filters?: RoomFilters;
  noHits?: string;
}) {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const [keyword, setKeyword] = useState(search);
  const rooms = useConversations(type, search, filters);
  const now = useRefreshedRooms(type);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = rooms;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const end = useLoadMore(hasNextPage, isFetchingNextPage, loadMore, '320px');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = keyword.trim();
    // The desk's filters stay in the address beside the keyword.
    setParams(
      (current) => {
        const kept = new URLSearchParams(current);
        if (next) kept.set('q', next);
        else kept.delete('q');
        return kept;
      },
      { replace: true },
    );
  }

  const rows = rooms.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <div className="room-list">
      <SearchForm
        id={`room-search-${type}`}
        label={ja.talk.searchLabel}
        placeholder={ja.talk.searchPlaceholder}
        buttonLabel={ja.talk.search}
        value={keyword}
        onChange={setKeyword}
        onSubmit={onSubmit}
      />

      {rooms.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : rooms.isError && rows.length === 0 ? (
        <div className="notice-box room-list__message" role="alert">
          <p>
            <Phrases text={errorMessage(rooms.error)} />
          </p>
          <Button variant="quiet" onClick={() => void rooms.refetch()}>
            {ja.app.reload}
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <p className="notice-box room-list__message">
          <Phrases text={search ? ja.talk.noSearchHits : (noHits ?? ja.talk.noRooms)} />
        </p>
      ) : (
        <ul className="card-list" aria-label={ja.talk.roomList}>
          {rows.map((row) => (
            <RoomRow key={row.id} row={row} now={now} />
          ))}
        </ul>
      )}
      <div ref={end} className="room-list__end">
        {isFetchingNextPage ? <Spinner label={ja.app.loading} /> : null}
      </div>
    </div>
  );
}
