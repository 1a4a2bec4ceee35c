import { ja, can } from '@enishi/contract';
import type { ComponentType } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useRouteMatches } from '@/lib/route-matches';
import { useCounters, type Counters } from '@/lib/notifications';
import { useSession } from '@/lib/session';
import { CountBadge } from '@/components/ui/count-badge';
import { useMediaQuery } from '@/lib/use-media-query';
import { ChatIcon, ChatsIcon, HomeIcon, MemberIcon, NewsIcon, PersonIcon } from '@/components/ui/icons';
import { cx } from '@/components/ui/class-names';
import { UserIcon } from '@/components/ui/user-icon';
import './app-layout.css';

type FooterItem = {
  to: string;
  label: string;
  Icon: ComponentType<{ size?: number }>;
  /** The unread count on the button: the same counter as the home tile it stands for. */
  count?: keyof Counters;
};

/**
 * Footer buttons of product.md §2: home, talks, news, member site (role 101 only), mypage. Talks and news carry
 * their unread counts; a member's group talks are reached from home, so home carries theirs.
 */
function footerItems(role: number): FooterItem[] {
  const staff = can({ role }, 'desk.use');
  const items: FooterItem[] = [
    { to: '/', label: ja.footer.home, Icon: HomeIcon, ...(!staff && { count: 'setting' as const }) },
  ];
  items.push(
    staff
      ? { to: '/talkrooms/setting', label: ja.footer.staffTalks, Icon: ChatsIcon, count: 'setting' }
      : { to: '/talkrooms/staff', label: ja.footer.talkWithStaff, Icon: ChatIcon, count: 'fromStaff' },
  );
  items.push({ to: '/news', label: ja.footer.news, Icon: NewsIcon, count: 'news' });
  if (can({ role }, 'member_site.open'))
    items.push({ to: '/member', label: ja.footer.member, Icon: MemberIcon });
  items.push({ to: '/mypage', label: ja.footer.mypage, Icon: PersonIcon });
  return items;
}

/** What a route's `handle` may ask of the layout. */
export type LayoutHandle = {
  /** The screen fills the window and scrolls inside itself (a talk): it brings its own header; no footer. */
  fill?: boolean;
  /** The screen is part of the staff desk: it fills the screen too where the desk is shown. */
  desk?: boolean;
  /** In the staff back office, the screen takes the whole width beside the navigation (boards, tables). */
  wide?: boolean;
};

/** Whether the staff desk is shown (product.md §2.6): staff, on a screen 1024 px wide or more. */
export function useDeskLayout(): boolean {
  const session = useSession();
  const wide = useMediaQuery('(min-width: 1024px)');
  return wide && can(session, 'desk.use');
}

/** The member area: header with the user, the screen, and the footer navigation. */
export function AppLayout() {
  const session = useSession();
  const role = session?.role ?? 0;
  const desk = useDeskLayout();
  const fill = useRouteMatches().some((match) => {
    const handle = match.handle as LayoutHandle | undefined;
    return handle?.fill || (desk && handle?.desk);
  });
  const counters = useCounters();

  return (
    <div className={cx('app-shell', fill && 'app-shell--fill')}>
      <header className="app-header" hidden={fill}>
        <div className="app-header__inner">
          <p className="app-header__brand">
            <span className="app-header__mark" aria-hidden="true">
              {ja.app.shortName}
            </span>
            <span className="app-header__latin">{ja.app.latinName}</span>
          </p>
          {session ? (
            <p className="app-header__user">
              <span className="visually-hidden">{ja.header.user}</span>
              <UserIcon name={session.name} role={session.role} image={session.image} />
              <span className="app-header__name">{session.name}</span>
            </p>
          ) : null}
        </div>
      </header>

      <main id="main" className="app-main">
        <Outlet />
      </main>

      <nav className="app-footer" aria-label={ja.footer.label} hidden={fill}>
        <ul className="app-footer__list">
          {footerItems(role).map(({ to, label, Icon, count }) => {
            const unread = count && session ? counters[count] : 0;
            return (
              <li key={to}>
                {/* Named by its visible label, then the count in words (the badge itself is hidden from
                    assistive tech): a name that begins with what is seen (axe label-content-name-mismatch). */}
                <NavLink to={to} end className="app-footer__link">
                  <span className="app-footer__icon">
                    <Icon size={24} />
                    <span className="app-footer__badge">
                      <CountBadge count={unread} />
                    </span>
                  </span>
                  <span className="app-footer__label">{label}</span>
                  {unread > 0 ? <span className="visually-hidden">{ja.footer.unread(unread)}</span> : null}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}
