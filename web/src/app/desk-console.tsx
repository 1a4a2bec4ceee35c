import { type ConversationType, ja, jaMember } from '@enishi/contract';
import {
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type RefObject,
} from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useMediaQuery } from '@/lib/use-media-query';
import { phoneFor } from '@/features/call/controller';
import { MemberPane } from '@/features/desk/components/member-pane';
import { DeskFilters, useDeskFilters } from '@/features/desk/components/desk-filters';
import { DeskTalkBar } from '@/features/desk/components/desk-talk-bar';
import { RoomList } from '@/features/rooms/components/room-list';
import { conversationQueryOptions } from '@/features/talk/api/get-conversation';
import { TalkScreen } from '@/features/talk/components/talk-screen';
import { useScreenHeading } from '@/components/layouts/page';
import { cx } from '@/components/ui/class-names';
import { Spinner } from '@/components/ui/spinner';
import './desk-console.css';
import { Phrases } from '@/components/ui/phrases';

/** The message search loads when it is first opened: the desk opens on its room list (product.md §2.6). */
const MessageSearch = lazy(async () => ({
  default: (await import('@/features/desk/components/message-search')).MessageSearch,
}));

/** The lists the desk switches between, and the list a talk of each type belongs to. */
const LISTS: { type: ConversationType; label: string }[] = [
  { type: 'men', label: jaMember.desk.listMen },
  { type: 'women', label: jaMember.desk.listWomen },
  { type: 'st', label: jaMember.desk.listGroups },
  { type: 'staff', label: jaMember.desk.listStaff },
];
const listOf = (type: ConversationType | undefined): ConversationType =>
  type === 'men' || type === 'women' || type === 'staff' ? type : 'st';

/** The rooms of the list pane, as links in order. */
const roomLinks = (list: HTMLElement | null) =>
  Array.from(list?.querySelectorAll<HTMLAnchorElement>('a.room-row') ?? []);

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * j / k open the next or previous room, r goes to the comment box (when not typing); ↑ / ↓ move between the
 * rooms of the list.
 */
function useDeskKeys(list: RefObject<HTMLElement | null>) {
  const navigate = useNavigate();
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
      const composer = document.querySelector<HTMLTextAreaElement>('.desk-console__talk .composer__input');
      if (event.key === 'r' && composer) {
        event.preventDefault();
        composer.focus();
        return;
      }
      if (event.key !== 'j' && event.key !== 'k') return;
      const links = roomLinks(list.current);
      if (links.length === 0) return;
      const at = links.findIndex((link) => link.getAttribute('aria-current') === 'page');
      const next = links[Math.max(0, Math.min(links.length - 1, at + (event.key === 'j' ? 1 : -1)))];
      if (!next || next === links[at]) return;
      event.preventDefault();
      next.scrollIntoView({ block: 'nearest' });
      void navigate(next.pathname);
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [list, navigate]);
}

/** The talk pane before a talk is chosen: the screen's heading (for screen readers) and a hint. */
function NoTalk({ title }: { title: string }) {
  const heading = useScreenHeading(title);
  return (
    <div className="desk-console__empty">
      <h1 ref={heading} tabIndex={-1} className="visually-hidden">
        {title}
      </h1>
      <p className="notice-box">
        <Phrases text={jaMember.desk.noTalk} />
      </p>
    </div>
  );
}

function onListArrows(event: ReactKeyboardEvent<HTMLElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const links = roomLinks(event.currentTarget);
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (at < 0) return;
  event.preventDefault();
  links[Math.max(0, Math.min(links.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))]?.focus();
}

/** The buttons that switch the room list between the men's, the women's, the groups' and the staff's talks. */
function ListTabs({
  type,
  onChoose,
}: {
  type: ConversationType;
  onChoose: (type: ConversationType) => void;
}) {
  return (
    <div className="desk-console__tabs" role="group" aria-label={jaMember.desk.lists}>
      {LISTS.map((each) => (
        <button
          key={each.type}
          type="button"
          className="desk-console__tab"
          aria-pressed={type === each.type}
          onClick={() => onChoose(each.type)}
        >
          {each.label}
        </button>
      ))}
    </div>
  );
}

/** The room list, with status, 担当 and unread only for the members' lists (product.md §2.6). */
function FilteredRooms({ type }: { type: ConversationType }) {
  const [filters, setFilters] = useDeskFilters();
  if (type !== 'men' && type !== 'women') return <RoomList key={type} type={type} />;
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <DeskFilters filters={filters} onChange={setFilters} />
      <RoomList
        key={type}
        type={type}
        filters={filters}
        noHits={filtered ? jaMember.deskTalk.noFilterHits : undefined}
      />
    </>
  );
}

/**
 * The staff desk from 1024 px (product.md §2.6): the room list (with its search and unread counts, or the
 * message search) beside the open talk, and from 1440 px the member's summary and notes. The address still
 * names the talk, so back and forward move between talks.
 */
export function DeskConsole({
  conversationId,
  focusMessageId = null,
  list: startList,
  title,
}: {
  /** The screen's title when no talk is open (the room list's). */
  title?: string;
  /** The open talk; null: a room list route, no talk chosen yet. */
  conversationId: number | null;
  focusMessageId?: number | null;
  list?: ConversationType;
}) {
  const row = useQuery({
    ...conversationQueryOptions(conversationId ?? 0),
    enabled: conversationId !== null,
  }).data;
  const [chosen, setChosen] = useState<ConversationType | null>(null);
  const [searching, setSearching] = useState(focusMessageId !== null);
  const third = useMediaQuery('(min-width: 1440px)');
  const list = useRef<HTMLElement>(null);
  useDeskKeys(list);
  const type = chosen ?? (startList ? listOf(startList) : listOf(row?.type));

  return (
    <div className={cx('desk-console', third && 'desk-console--three')}>
      <nav
        ref={list}
        className="desk-console__list"
        aria-label={jaMember.desk.rooms}
        onKeyDown={onListArrows}
      >
        {/* ホーム and 定型文 are in the side navigation beside the desk (product.md §2.8), not here again. */}
        <div className="desk-console__bar">
          <button
            type="button"
            className="desk-console__toggle"
            aria-pressed={searching}
            onClick={() => setSearching((value) => !value)}
          >
            {jaMember.desk.search}
          </button>
        </div>
        {searching ? (
          <Suspense fallback={<Spinner label={ja.app.loading} />}>
            <MessageSearch conversationId={conversationId} />
          </Suspense>
        ) : (
          <>
            <ListTabs type={type} onChoose={setChosen} />
            <FilteredRooms type={type} />
          </>
        )}
        <p className="desk-console__keys">
          <Phrases text={jaMember.desk.shortcuts} />
        </p>
      </nav>
      <div className="desk-console__talk">
        {conversationId === null ? (
          <NoTalk title={title ?? jaMember.desk.console} />
        ) : (
          <>
            {row?.desk_status ? <DeskTalkBar row={row} /> : null}
            <TalkScreen
              key={conversationId}
              conversationId={conversationId}
              focusMessageId={focusMessageId}
              phoneFor={phoneFor}
            />
          </>
        )}
      </div>
      {third ? <MemberPane uid={row?.type === 'men' || row?.type === 'women' ? row.uid : null} /> : null}
    </div>
  );
}
