import { ROLE, isStaffRole, ja } from '@enishi/contract';
import type { ComponentType } from 'react';
import { NavLink, Outlet, useMatches } from 'react-router';
import { useSession } from '@/lib/session';
import { ChatIcon, ChatsIcon, HomeIcon, MemberIcon, NewsIcon, PersonIcon } from '@/components/ui/icons';
import { cx } from '@/components/ui/class-names';
import { UserIcon } from '@/components/ui/user-icon';
import './app-layout.css';

type FooterItem = { to: string; label: string; Icon: ComponentType<{ size?: number }> };

/** Footer buttons of product.md §2: home, talks, news, member site (role 101 only), mypage. */
function footerItems(role: number): FooterItem[] {
  const items: FooterItem[] = [{ to: '/', label: ja.footer.home, Icon: HomeIcon }];
  items.push(
    isStaffRole(role)
      ? { to: '/talkrooms/setting', label: ja.footer.staffTalks, Icon: ChatsIcon }
      : { to: '/talkrooms/staff', label: ja.footer.talkWithStaff, Icon: ChatIcon },
  );
  items.push({ to: '/news', label: ja.footer.news, Icon: NewsIcon });
  if (role === ROLE.male) items.push({ to: '/member', label: ja.footer.member, Icon: MemberIcon });
  items.push({ to: '/mypage', label: ja.footer.mypage, Icon: PersonIcon });
  return items;
}

/** What a route's `handle` may ask of the layout. */
export type LayoutHandle = {
  /** The screen fills the space under the header and scrolls inside itself (a talk); no footer. */
  fill?: boolean;
};

/** The member area: header with the user, the screen, and the footer navigation. */
export function AppLayout() {
  const session = useSession();
  const role = session?.role ?? 0;
  const fill = useMatches().some((match) => (match.handle as LayoutHandle | undefined)?.fill);

  return (
    <div className={cx('app-shell', fill && 'app-shell--fill')}>
      <header className="app-header">
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
          {footerItems(role).map(({ to, label, Icon }) => (
            <li key={to}>
              <NavLink to={to} end className="app-footer__link">
                <Icon size={24} />
                <span className="app-footer__label">{label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
