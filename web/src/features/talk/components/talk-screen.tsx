import { can, ja, type ConversationRow, type ReplyRef } from '@enishi/contract';
import {
  lazy,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type RefObject,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { useChatStatus } from '@/lib/chat/events';
import { retryMessage } from '@/lib/chat/sending';
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
import { TalkComposer } from './talk-composer';
import { TalkHeader } from './talk-header';
import { Timeline, type TimelineHandle } from './timeline';
import type { MenuTarget, RowActions } from './timeline-row';
import './talk-screen.css';
import { Phrases } from '@/components/ui/phrases';

// A message's menu and the picture viewer load when first opened, not with the talk.
const MessageMenu = lazy(async () => ({ default: (await import('./message-menu')).MessageMenu }));
const ImageViewer = lazy(async () => ({ default: (await import('./image-viewer')).ImageViewer }));

/** Where the back button goes when the talk was opened directly (a notification, a reload). */
function listPath(row: ConversationRow | undefined, role: number): string {
  if (!can({ role }, 'desk.use')) return row?.type === 'st' ? '/strooms' : '/';
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
 * The talk's record and messages, kept current by the chat socket and kept for offline reading, as rows of the
 * timeline and pinned announcements; `missing` when the talk is gone or not the user's.
 */
function useTalkData(conversationId: number, session: Session) {
  const conversation = useConversation(conversationId);
  const history = useMessages(conversationId);
  const row = conversation.data;
  const rowType = row?.type ?? null;
  const staff = can(session, 'desk.use');
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
  return { row, rowType, staff, history, missing, rows, announcements, now };
}

/** The back button: back through history when the user came from inside the app; otherwise to the talk's list. */
function useBack(row: ConversationRow | undefined, role: number) {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key !== 'default') void navigate(-1);
    else void navigate(listPath(row, role));
  };
}

/** The messages: why they could not be loaded (with 再読み込み), a spinner until they are, then the timeline. */
function TalkMessages({
  history,
  missing,
  timeline,
  rows,
  actions,
  loadOlder,
}: {
  history: ReturnType<typeof useMessages>;
  missing: boolean;
  timeline: RefObject<TimelineHandle | null>;
  rows: ComponentProps<typeof Timeline>['rows'];
  actions: RowActions;
  loadOlder: () => void;
}) {
  return (
    <>
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
          hasOlder={history.hasNextPage}
          loadingOlder={history.isFetchingNextPage}
          onLoadOlder={loadOlder}
        />
      )}
    </>
  );
}

/**
 * A talk (product.md §2): header, pinned announcements, the timeline and the comment box. Messages come from the
 * newest page over HTTP, older pages on scrolling up, and the chat socket while open, all kept in the query
 * cache; what the user writes shows at once from the outbox and is sent as soon as the socket is up.
 */
function Talk({ conversationId, session, phoneFor, options }: TalkProps) {
  const { row, rowType, staff, history, missing, rows, announcements, now } = useTalkData(
    conversationId,
    session,
  );
  const status = useChatStatus();
  const [replyTo, setReplyTo] = useState<ReplyRef | null>(null);
  const [menu, setMenu] = useState<MenuTarget | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const heading = useScreenHeading(row?.name ?? ja.screens.talk);
  const onBack = useBack(row, session.role);
  const talkActions = useTalkActions({
    conversationId,
    conversationType: rowType,
    uid: session.uid,
    role: session.role,
    staff,
    onReply: setReplyTo,
  });

  const callMember = useMemo(
    () => (row && phoneFor ? phoneFor(row, session.role) : undefined),
    [row, phoneFor, session.role],
  );
  const { timeline, actions, loadOlder } = useTimeline(history, options.focusMessageId, {
    openMenu: setMenu,
    openImage: setViewing,
    callBack: callMember,
  });

  const onSend = (outgoing: Outgoing) => {
    talkActions.send(outgoing);
    setReplyTo(null);
    requestAnimationFrame(() => timeline.current?.scrollToEnd());
  };

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
      <TalkMessages
        history={history}
        missing={missing}
        timeline={timeline}
        rows={rows}
        actions={actions}
        loadOlder={loadOlder}
      />
      <TalkComposer
        conversationId={conversationId}
        row={row}
        session={session}
        staff={staff}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
        onSend={onSend}
      />
      <Suspense fallback={null}>
        {menu ? (
          <MessageMenu
            preview={menuPreview(menu)}
            items={talkActions.menuItems(menu)}
            onClose={() => setMenu(null)}
          />
        ) : null}
        {viewing ? <ImageViewer src={viewing} onClose={() => setViewing(null)} /> : null}
      </Suspense>
    </div>
  );
}

/**
 * The timeline's element and what its rows can do; older pages load on scrolling up, and the message asked for
 * (a search hit) is shown once the talk has loaded.
 */
function useTimeline(
  history: ReturnType<typeof useMessages>,
  focusMessageId: number | null | undefined,
  parts: Omit<RowActions, 'retry' | 'showOriginal'>,
) {
  const timeline = useRef<TimelineHandle>(null);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = history;
  const showOriginal = useShowOriginal(timeline, hasNextPage, fetchNextPage);
  useFocusMessage(focusMessageId, history.isSuccess, showOriginal);
  const actions = useRowActions({ ...parts, showOriginal });
  const loadOlder = useLoadOlder(fetchNextPage, hasNextPage, isFetchingNextPage);
  return { timeline, actions, loadOlder };
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
