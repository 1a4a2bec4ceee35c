import { ja, type ConversationRow, type ReplyRef, roleGroup } from '@enishi/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { useChatStatus } from '@/lib/chat/events';
import { retryMessage } from '@/lib/chat/socket';
import { useSession, type Session } from '@/lib/session';
import { useScreenHeading } from '@/components/layouts/page';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useConversation } from '../api/get-conversation';
import { useMessages } from '../api/use-messages';
import { useKeepHistory } from '../hooks/use-keep-history';
import { useLiveMessages } from '../hooks/use-live-messages';
import { useOpenTalk } from '../hooks/use-open-talk';
import { useShowOriginal } from '../hooks/use-show-original';
import { menuPreview, useTalkActions } from '../hooks/use-talk-actions';
import { useTalkRows } from '../hooks/use-talk-rows';
import { AnnouncementArea } from './announcement-area';
import type { Outgoing } from './composer';
import { ImageViewer } from './image-viewer';
import { MessageMenu } from './message-menu';
import { TalkComposer } from './talk-composer';
import { TalkHeader } from './talk-header';
import { Timeline, type TimelineHandle } from './timeline';
import type { MenuTarget, RowActions } from './timeline-row';
import './talk-screen.css';
import { Phrases } from '@/components/ui/phrases';

/** Where the back button goes when the talk was opened directly (a notification, a reload). */
function listPath(row: ConversationRow | undefined, role: number): string {
  if (roleGroup(role) !== 'staff') return row?.type === 'st' ? '/strooms' : '/';
  switch (row?.type) {
    case 'men':
      return '/talkrooms/men';
    case 'women':
      return '/talkrooms/women';
    case 'staff':
      return '/talkrooms/staff';
    default:
      return '/talkrooms/setting';
  }
}

/** A message to scroll to and highlight once the talk is shown (a search hit). */
export type TalkOptions = { focusMessageId?: number | null };

/** The phone button of a talk, given by the app (voice calls are their own feature): undefined for no button. */
export type PhoneFor = (row: ConversationRow, viewerRole: number) => (() => void) | undefined;

export function TalkScreen({
  conversationId,
  phoneFor,
  ...options
}: { conversationId: number; phoneFor?: PhoneFor } & TalkOptions) {
  const session = useSession();
  if (!session) return null;
  return <Talk conversationId={conversationId} session={session} phoneFor={phoneFor} options={options} />;
}

type TalkProps = { conversationId: number; session: Session; phoneFor?: PhoneFor; options: TalkOptions };

/**
 * A talk (product.md §2): header, pinned announcements, the timeline and the comment box. Messages come from the
 * newest page over HTTP, older pages on scrolling up, and the chat socket while open, all kept in the query
 * cache; what the user writes shows at once from the outbox and is sent as soon as the socket is up.
 */
function Talk({ conversationId, session, phoneFor, options }: TalkProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const conversation = useConversation(conversationId);
  const history = useMessages(conversationId);
  const status = useChatStatus();
  const [replyTo, setReplyTo] = useState<ReplyRef | null>(null);
  const [menu, setMenu] = useState<MenuTarget | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const timeline = useRef<TimelineHandle>(null);

  const row = conversation.data;
  const rowType = row?.type ?? null;
  const staff = roleGroup(session.role) === 'staff';
  const heading = useScreenHeading(row?.name ?? ja.screens.talk);
  const missing = useOpenTalk({
    conversationId,
    row,
    conversationError: conversation.error,
    messagesError: history.error,
  });
  // 既読 means the other side: for staff, the member; for a member, any staff.
  const memberUid = row?.uid ?? null;
  useLiveMessages(conversationId, (reader) => (staff ? reader === memberUid : reader !== session.uid));
  const pair = staff ? rowType === 'men' || rowType === 'women' : rowType === 'staff';
  useKeepHistory(session.uid, conversationId, row, history.data?.pages);
  const { rows, announcements, now } = useTalkRows(conversationId, history.data?.pages, {
    readMode: pair ? 'pair' : rowType === 'st' ? 'group' : null,
    // The desk's auto-reply is a note to the member, in their talk with the staff (product.md §4.9).
    withAutoReply: !staff && rowType === 'staff',
  });
  const talkActions = useTalkActions({
    conversationId,
    conversationType: rowType,
    role: session.role,
    staff,
    onReply: setReplyTo,
  });

  const { fetchNextPage, hasNextPage, isFetchingNextPage } = history;
  const showOriginal = useShowOriginal(timeline, hasNextPage, fetchNextPage);
  useFocusMessage(options.focusMessageId, history.isSuccess, showOriginal);
  const callMember = useMemo(
    () => (row && phoneFor ? phoneFor(row, session.role) : undefined),
    [row, phoneFor, session.role],
  );
  const actions = useRowActions({
    openMenu: setMenu,
    openImage: setViewing,
    showOriginal,
    callBack: callMember,
  });
  const loadOlder = useLoadOlder(fetchNextPage, hasNextPage, isFetchingNextPage);

  const onSend = (outgoing: Outgoing) => {
    talkActions.send(outgoing);
    setReplyTo(null);
    requestAnimationFrame(() => timeline.current?.scrollToEnd());
  };

  function onBack() {
    // Back through history when the user came from inside the app; otherwise to the talk's list.
    if (location.key !== 'default') void navigate(-1);
    else void navigate(listPath(row, session.role));
  }

  return (
    <div className="talk">
      <TalkHeader
        conversation={row}
        viewerRole={session.role}
        reconnecting={status !== 'live'}
        onBack={onBack}
        onCall={callMember}
        headingRef={heading}
      />
      <AnnouncementArea announcements={announcements} now={now} onHide={talkActions.hideAnnouncement} />
      {history.isError && !missing ? (
        <div className="talk__error" role="alert">
          <Phrases text={errorMessage(history.error)} />
          <Button variant="quiet" onClick={() => void history.refetch()}>
            {ja.app.reload}
          </Button>
        </div>
      ) : null}
      {history.isPending && !history.isError ? (
        <div className="talk__loading">
          <Spinner label={ja.app.loading} />
        </div>
      ) : (
        <Timeline
          ref={timeline}
          rows={rows}
          actions={actions}
          hasOlder={hasNextPage}
          loadingOlder={isFetchingNextPage}
          onLoadOlder={loadOlder}
        />
      )}
      <TalkComposer
        conversationId={conversationId}
        row={row}
        session={session}
        staff={staff}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
        onSend={onSend}
      />
      {menu ? (
        <MessageMenu
          preview={menuPreview(menu)}
          items={talkActions.menuItems(menu)}
          onClose={() => setMenu(null)}
        />
      ) : null}
      {viewing ? <ImageViewer src={viewing} onClose={() => setViewing(null)} /> : null}
    </div>
  );
}

/** What a message row can do: its menu, its picture, retry, the original of a reply, a call back. */
function useRowActions(parts: Omit<RowActions, 'retry'>): RowActions {
  const { openMenu, openImage, showOriginal, callBack } = parts;
  return useMemo(
    () => ({ openMenu, openImage, retry: retryMessage, showOriginal, callBack }),
    [openMenu, openImage, showOriginal, callBack],
  );
}

/** Loads the next older page unless one is on its way or there is none. */
function useLoadOlder(fetchNextPage: () => unknown, hasNextPage: boolean, isFetchingNextPage: boolean) {
  return useMemo(
    () => () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    [fetchNextPage, hasNextPage, isFetchingNextPage],
  );
}

/** Once the talk has loaded, shows the message asked for (loading older pages as needed) and highlights it. */
function useFocusMessage(
  messageId: number | null | undefined,
  loaded: boolean,
  showOriginal: (messageId: number) => void,
) {
  const shown = useRef<number | null>(null);
  useEffect(() => {
    if (!loaded || !messageId || shown.current === messageId) return;
    shown.current = messageId;
    showOriginal(messageId);
  }, [loaded, messageId, showOriginal]);
}
