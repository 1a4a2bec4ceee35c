import {
  autoReplyFor,
  isStaffRole,
  ja,
  type ConversationRow,
  type Message,
  type ReplyRef,
} from '@enishi/contract';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, errorMessage } from '@/lib/api-client';
import {
  discardMessage,
  markOpenTalkSeen,
  retryMessage,
  sendFrame,
  setOpenTalk,
  submitMessage,
  useChatEvent,
  useChatStatus,
} from '@/lib/chat-socket';
import { newClientId } from '@/lib/client-id';
import { updateLocalState, useLocalState } from '@/lib/local-state';
import { pendingFor, useOutbox } from '@/lib/outbox';
import { useSession, type Session } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useNow } from '@/lib/use-now';
import { useScreenHeading } from '@/components/layouts/page';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { useConversation } from '../api/get-conversation';
import { getMessages, useMessages } from '../api/get-messages';
import { resetSettingBadge } from '../api/update-notifications';
import { copyText } from '../utils/clipboard';
import {
  buildRows,
  changesFromNewestPage,
  collectMessages,
  noChanges,
  storedClientIds,
  type LiveChanges,
} from '../utils/timeline';
import { AnnouncementArea } from './announcement-area';
import { Composer, type Outgoing } from './composer';
import { ImageViewer } from './image-viewer';
import { MessageMenu, menuIcons, type MenuItem } from './message-menu';
import { TalkHeader } from './talk-header';
import { Timeline, type TimelineHandle } from './timeline';
import type { MenuTarget, RowActions } from './timeline-row';
import './talk-screen.css';

/** Only roles 1 to 3 delete other people's messages (SPEC §6). */
const deletesAnyMessage = (role: number) => role >= 1 && role <= 3;

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** Where the back button goes when the talk was opened directly (a notification, a reload). */
function listPath(row: ConversationRow | undefined, role: number): string {
  if (!isStaffRole(role)) return row?.type === 'st' ? '/strooms' : '/';
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

const toReplyRef = (message: Message): ReplyRef => ({
  id: message.id,
  message: message.message,
  own: message.own,
  name: message.name,
  role: message.role,
  image: message.image,
});

/** Older pages loaded at most to find the message a reply quotes (50 messages each). */
const SEEK_PAGES_MAX = 20;

export function TalkScreen({ conversationId }: { conversationId: number }) {
  const session = useSession();
  if (!session) return null;
  return <Talk conversationId={conversationId} session={session} />;
}

/**
 * A talk (SPEC §2): header, pinned announcements, the timeline and the comment box. Messages come from the
 * newest page over HTTP, older pages on scrolling up, and the chat socket while open; what the user writes
 * shows at once from the outbox and is sent as soon as the socket is up.
 */
function Talk({ conversationId, session }: { conversationId: number; session: Session }) {
  const navigate = useNavigate();
  const location = useLocation();
  const confirm = useConfirm();
  const conversation = useConversation(conversationId);
  const history = useMessages(conversationId);
  const outbox = useOutbox();
  const hiddenIds = useLocalState((state) => state.hiddenAnnouncements);
  const status = useChatStatus();
  const now = useNow();
  const [changes, setChanges] = useState<LiveChanges>(noChanges);
  const [replyTo, setReplyTo] = useState<ReplyRef | null>(null);
  const [menu, setMenu] = useState<MenuTarget | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const timeline = useRef<TimelineHandle>(null);

  const row = conversation.data;
  const staff = isStaffRole(session.role);
  const heading = useScreenHeading(row?.name ?? ja.screens.talk);

  // A talk that does not exist, or is not the user's, sends them home (SPEC §8).
  const missing = isNotFound(conversation.error) || isNotFound(history.error);
  useEffect(() => {
    if (!missing) return;
    toast(ja.talk.notFound);
    void navigate('/', { replace: true });
  }, [missing, navigate]);

  // The talk on screen is marked read, and stays so while open; leaving tells the server so.
  // Once the talk is known to exist (or cannot be checked, offline), so a missing one is not "opened".
  const rowType = row?.type ?? null;
  const canOpen = row !== undefined || (conversation.isError && !missing);
  useEffect(() => {
    if (canOpen) setOpenTalk({ id: conversationId, type: rowType });
  }, [canOpen, conversationId, rowType]);
  useEffect(() => () => setOpenTalk(null), []);
  useEffect(() => {
    if (rowType === 'st') return resetSettingBadge(session.uid);
  }, [rowType, session.uid]);

  // What the socket brings for this talk while it is open.
  const memberUid = row?.uid ?? null;
  useChatEvent('message', (message) => {
    if (message.conversation_id !== conversationId) return;
    setChanges((current) => ({ ...current, added: [...current.added, message] }));
    if (!message.own) markOpenTalkSeen();
  });
  useChatEvent('delete', (event) => {
    if (event.conversation_id !== conversationId) return;
    setChanges((current) => {
      if (event.delete_message_id !== undefined) {
        return { ...current, deleted: new Set(current.deleted).add(event.delete_message_id) };
      }
      if (event.delete_announce_id !== undefined) {
        return { ...current, unpinned: new Set(current.unpinned).add(event.delete_announce_id) };
      }
      return current;
    });
  });
  useChatEvent('read', (event) => {
    if (event.conversation_id !== conversationId) return;
    // 既読 means the other side: for staff, the member; for a member, any staff.
    const otherSide = staff ? event.reader === memberUid : event.reader !== session.uid;
    if (!otherSide) return;
    setChanges((current) =>
      event.last_read_id > current.readUpTo ? { ...current, readUpTo: event.last_read_id } : current,
    );
  });

  const pages = history.data?.pages;
  const hidden = useMemo(() => new Set(hiddenIds), [hiddenIds]);
  const { messages, announcements } = useMemo(
    () => collectMessages(pages ?? [], changes, hidden),
    [pages, changes, hidden],
  );
  // Back online: read the newest page again for anything the catch-up could not bring.
  useChatEvent('live', () => {
    if (!history.data) return;
    const shown = { messages, announcements };
    void getMessages(conversationId, undefined)
      .then((page) => {
        const fresh = changesFromNewestPage(shown, page);
        setChanges((current) => ({
          ...current,
          added: [...current.added, ...fresh.added],
          deleted: new Set([...current.deleted, ...fresh.deleted]),
          unpinned: new Set([...current.unpinned, ...fresh.unpinned]),
        }));
      })
      .catch(() => undefined);
  });

  const pending = useMemo(
    () => pendingFor(outbox, conversationId, storedClientIds(messages)),
    [outbox, conversationId, messages],
  );
  const last = messages.at(-1);
  const autoReply = useMemo(() => (last ? autoReplyFor(now, last) : null), [now, last]);
  const showRead = staff ? rowType === 'men' || rowType === 'women' : rowType === 'staff';
  const pinned = useMemo(() => new Set(announcements.map((message) => message.id)), [announcements]);
  const rows = useMemo(
    () =>
      buildRows({
        messages,
        pending,
        now,
        showRead,
        readUpTo: changes.readUpTo,
        pinned,
        autoReply,
      }),
    [messages, pending, now, showRead, changes.readUpTo, pinned, autoReply],
  );

  const actions = useMemo<RowActions>(
    () => ({
      openMenu: (target) => setMenu(target),
      openImage: (src) => setViewing(src),
      retry: retryMessage,
      showOriginal: (messageId) => void showOriginalLatest.current(messageId),
    }),
    [],
  );

  function send(outgoing: Outgoing & { announce?: boolean }): void {
    submitMessage({
      client_id: newClientId(),
      conversation_id: conversationId,
      conversation_type: rowType,
      message: outgoing.message,
      image: outgoing.image,
      reply: outgoing.reply,
      announce: outgoing.announce ?? false,
      created: new Date().toISOString(),
    });
  }

  function onSend(outgoing: Outgoing) {
    send(outgoing);
    setReplyTo(null);
    requestAnimationFrame(() => timeline.current?.scrollToEnd());
  }

  async function copy(text: string) {
    toast((await copyText(text)) ? ja.talk.copied : ja.talk.copyFailed);
  }

  async function remove(message: Message) {
    if (!(await confirm({ message: ja.talk.deleteConfirm }))) return;
    if (!sendFrame({ type: 'delete', delete_message_id: message.id })) {
      toast(ja.talk.notConnected);
      return;
    }
    setChanges((current) => ({ ...current, deleted: new Set(current.deleted).add(message.id) }));
    toast(ja.talk.deleted);
  }

  function hideAnnouncement(message: Message) {
    updateLocalState((state) => ({
      ...state,
      hiddenAnnouncements: [...state.hiddenAnnouncements.filter((id) => id !== message.id), message.id].slice(
        -500,
      ),
    }));
    // Staff, and whoever pinned it, take it down for everyone; anyone else just stops seeing it.
    if (staff || message.own) sendFrame({ type: 'delete', delete_announce_id: message.id });
  }

  function menuItems(target: MenuTarget): MenuItem[] {
    const items: MenuItem[] = [];
    if (target.kind === 'pending') {
      const { entry } = target;
      if (entry.message.trim()) {
        items.push({
          key: 'copy',
          label: ja.talk.copy,
          icon: menuIcons.copy,
          run: () => void copy(entry.message),
        });
      }
      if (entry.status === 'failed') {
        items.push({
          key: 'retry',
          label: ja.talk.retry,
          icon: menuIcons.retry,
          run: () => retryMessage(entry.client_id),
        });
      }
      items.push({
        key: 'discard',
        label: ja.talk.discard,
        icon: menuIcons.discard,
        danger: true,
        run: () => discardMessage(entry.client_id),
      });
      return items;
    }
    const { message } = target;
    const text = message.message.trim() ? message.message : '';
    items.push({
      key: 'reply',
      label: ja.talk.reply,
      icon: menuIcons.reply,
      run: () => setReplyTo(toReplyRef(message)),
    });
    if (text && message.message_type === 0) {
      // Pinning re-posts the text as an announcement: the contract pins a message when it is sent.
      items.push({
        key: 'announce',
        label: ja.talk.announce,
        icon: menuIcons.announce,
        run: () => {
          send({ message: text, image: [], reply: null, announce: true });
          toast(ja.talk.announced);
        },
      });
    }
    if (text)
      items.push({ key: 'copy', label: ja.talk.copy, icon: menuIcons.copy, run: () => void copy(text) });
    if (message.own || deletesAnyMessage(session.role)) {
      items.push({
        key: 'delete',
        label: ja.talk.delete,
        icon: menuIcons.delete,
        danger: true,
        run: () => void remove(message),
      });
    }
    return items;
  }

  function menuPreview(target: MenuTarget): string {
    const text = target.kind === 'message' ? target.message.message : target.entry.message;
    const images = target.kind === 'message' ? target.message.image : target.entry.image;
    return text.trim() || (images.length > 0 ? ja.talk.image : '');
  }

  function onBack() {
    // Back through history when the user came from inside the app; otherwise to the talk's list.
    if (location.key !== 'default') void navigate(-1);
    else void navigate(listPath(row, session.role));
  }

  const { fetchNextPage, hasNextPage, isFetchingNextPage } = history;
  const loadOlder = useMemo(
    () => () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    [fetchNextPage, hasNextPage, isFetchingNextPage],
  );

  // A tapped quote shows its original: from what is loaded, else from older pages (a bounded number).
  async function showOriginal(messageId: number) {
    let more = hasNextPage;
    for (let pages = 0; ; pages += 1) {
      // Rows from a page just fetched are drawn within a frame or two.
      for (let frame = 0; frame < 3; frame += 1) {
        if (timeline.current?.showMessage(messageId)) return;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      if (!more || pages >= SEEK_PAGES_MAX) break;
      more = (await fetchNextPage()).hasNextPage;
    }
    toast(ja.talk.originalMissing);
  }
  const showOriginalLatest = useRef(showOriginal);
  useLayoutEffect(() => {
    showOriginalLatest.current = showOriginal;
  });

  return (
    <div className="talk">
      <TalkHeader
        conversation={row}
        viewerRole={session.role}
        reconnecting={status !== 'live'}
        onBack={onBack}
        headingRef={heading}
      />
      <AnnouncementArea announcements={announcements} now={now} onHide={hideAnnouncement} />

      {history.isError && !missing ? (
        <div className="talk__error" role="alert">
          <p>{errorMessage(history.error)}</p>
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

      <Composer
        conversationId={conversationId}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
        onSend={onSend}
      />

      {menu ? (
        <MessageMenu preview={menuPreview(menu)} items={menuItems(menu)} onClose={() => setMenu(null)} />
      ) : null}
      {viewing ? <ImageViewer src={viewing} onClose={() => setViewing(null)} /> : null}
    </div>
  );
}
