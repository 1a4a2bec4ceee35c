import { can, ja, jaMember } from '@enishi/contract';
import type { ComponentType } from 'react';
import { Link, Outlet } from 'react-router';
import { useRouteMatches } from '@/lib/route-matches';
import { useNewApplicationCount } from '@/features/home/api/get-new-application-count';
import { useCounters } from '@/lib/notifications';
import { useSession } from '@/lib/session';
import { LogoutButton } from '@/components/logout-button';
import type { LayoutHandle } from '@/components/layouts/app-layout';
import { cx } from '@/components/ui/class-names';
import { CountBadge } from '@/components/ui/count-badge';
import {
  CalendarIcon,
  ChartIcon,
  ChatsIcon,
  HistoryIcon,
  HomeIcon,
  ListIcon,
  MegaphoneIcon,
  StampIcon,
  NewsIcon,
  PersonAddIcon,
  SendIcon,
  StaffIcon,
  UserEditIcon,
  CheckCircleIcon,
} from '@/components/ui/icons';
import { UserIcon } from '@/components/ui/user-icon';
import { useSettings } from '@/features/setting/api/settings';
import { useDeskCounts } from '@/features/desk/api/desk-talk';
import { useDeskEvents } from '@/features/desk/hooks/use-desk-events';
import './staff-shell.css';

type NavItem = {
  to: string;
  label: string;
  Icon: ComponentType<{ size?: number }>;
  count?: number;
  /** Other paths that belong to this entry (its sub-screens). */
  also?: string[];
  end?: boolean;
  /** A filtered view of the entry above it: never the current entry, drawn indented. */
  sub?: boolean;
};

/** The setting requests waiting for staff (the first page's `requested`, product.md §18.2). */
function useWaitingSettings(): number {
  return useSettings('requested').data?.pages[0]?.requested ?? 0;
}

/** The entries of the side navigation (product.md §2.8), the owner's two last. */
function useNavItems(role: number): NavItem[] {
  const counters = useCounters();
  const waiting = useWaitingSettings();
  const applications = useNewApplicationCount(true);
  const desk = useDeskCounts(can({ role }, 'desk.status')).data;
  const s = jaMember.shell;
  const d = jaMember.deskTalk;
  const items: NavItem[] = [
    { to: '/', label: s.home, Icon: HomeIcon, end: true },
    {
      to: '/talkrooms',
      label: s.talks,
      Icon: ChatsIcon,
      count: counters.fromMen + counters.fromWomen + counters.setting,
      also: ['/talk/', '/strooms', '/search'],
    },
    // The desk's own counts (product.md §2.6): open talks, and one's own not yet 対応済み.
    ...(desk
      ? [
          { to: '/talkrooms?status=open', label: d.navOpen, Icon: ChatsIcon, count: desk.open, sub: true },
          { to: '/talkrooms?assignee=me', label: d.navMine, Icon: StaffIcon, count: desk.mine, sub: true },
        ]
      : []),
    { to: '/menlist', label: s.men, Icon: UserEditIcon, also: ['/men/'] },
    { to: '/womenlist', label: s.women, Icon: UserEditIcon, also: ['/women/', '/managewomen'] },
    {
      to: '/setting/requests',
      label: s.settings,
      Icon: CheckCircleIcon,
      count: waiting,
      also: ['/setting/'],
    },
    { to: '/applications', label: s.applications, Icon: PersonAddIcon, count: applications },
    { to: '/news/menu', label: s.news, Icon: NewsIcon, also: ['/news/'] },
    { to: '/managead', label: s.banners, Icon: MegaphoneIcon },
    { to: '/stamps', label: s.stamps, Icon: StampIcon },
    { to: '/men/send', label: s.send, Icon: SendIcon, also: ['/women/send'] },
    { to: '/replies', label: s.replies, Icon: ListIcon },
  ];
  if (can({ role }, 'calendar.manage'))
    items.push({ to: '/calendar', label: s.calendar, Icon: CalendarIcon });
  if (can({ role }, 'report.view')) items.push({ to: '/reports', label: s.reports, Icon: ChartIcon });
  if (can({ role }, 'staff.manage')) {
    items.push(
      {
        to: '/staff/list',
        label: s.staff,
        Icon: StaffIcon,
        also: ['/staff/menu', '/staff/add', '/staff/edit'],
      },
      { to: '/staff/audit', label: s.audit, Icon: HistoryIcon },
    );
  }
  return items;
}

/**
 * How closely an entry stands for the current path: the length of its route or sub-screen prefix that
 * the path starts with, 0 for none. /men/send is 一括送信's, not 男性会員's (/men/): the closest wins.
 */
function closeness(item: NavItem, path: string): number {
  if (item.sub) return 0;
  if (item.end) return path === item.to ? item.to.length : 0;
  const prefixes = [item.to, ...(item.also ?? [])];
  return Math.max(
    0,
    ...prefixes
      .filter((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))
      .map((p) => p.length),
  );
}

/** The one entry that stands for the current path (none for a path of no entry). */
function currentEntry(items: NavItem[], path: string): NavItem | undefined {
  let best: NavItem | undefined;
  let bestLength = 0;
  for (const item of items) {
    const length = closeness(item, path);
    if (length > bestLength) [best, bestLength] = [item, length];
  }
  return best;
}

/**
 * The staff back office from 1024 px (product.md §2.8): a side navigation with the counts of unread talks,
 * waiting setting requests and new applications, and the screen beside it. No bottom tab bar; phones keep
 * the member layout (components/layouts/app-layout.tsx).
 */
export function StaffShell() {
  const session = useSession();
  const role = session?.role ?? 0;
  const items = useNavItems(role);
  useDeskEvents();
  const matches = useRouteMatches();
  const path = matches.at(-1)?.pathname ?? '/';
  const current = currentEntry(items, path);
  const fill = matches.some((match) => {
    const handle = match.handle as LayoutHandle | undefined;
    return handle?.fill || handle?.desk;
  });
  const wide = matches.some((match) => (match.handle as LayoutHandle | undefined)?.wide);

  return (
    <div className="staff-shell">
      <nav className="staff-shell__nav" aria-label={jaMember.shell.nav}>
        <p className="staff-shell__brand">
          <span className="staff-shell__mark" aria-hidden="true">
            {ja.app.shortName}
          </span>
          <span className="staff-shell__latin">{ja.app.latinName}</span>
        </p>
        <ul className="staff-shell__list">
          {items.map((item) => (
            <NavEntry key={item.to} item={item} current={item === current} />
          ))}
        </ul>
        {session ? (
          <div className="staff-shell__user">
            <p className="staff-shell__who">
              <span className="visually-hidden">{jaMember.shell.signedIn}</span>
              <UserIcon name={session.name} role={session.role} image={session.image} />
              <span className="staff-shell__name">{session.name}</span>
            </p>
            <LogoutButton className="staff-shell__logout" block={false} />
          </div>
        ) : null}
      </nav>
      <main
        id="main"
        className={cx(
          'staff-shell__main',
          fill && 'staff-shell__main--fill',
          wide && 'staff-shell__main--wide',
        )}
      >
        <Outlet />
      </main>
    </div>
  );
}

/** A plain link: the shell, not the router's own matching, says which entry is current (currentEntry). */
function NavEntry({ item, current }: { item: NavItem; current: boolean }) {
  const { to, label, Icon, count = 0 } = item;
  return (
    <li>
      <Link
        to={to}
        className={cx(
          'staff-shell__link',
          current && 'staff-shell__link--current',
          item.sub && 'staff-shell__link--sub',
        )}
        aria-current={current ? 'page' : undefined}
      >
        <Icon size={20} />
        <span className="staff-shell__label">
          {label}
          {count > 0 ? <span className="visually-hidden">{jaMember.shell.count(count)}</span> : null}
        </span>
        <CountBadge count={count} />
      </Link>
    </li>
  );
}
