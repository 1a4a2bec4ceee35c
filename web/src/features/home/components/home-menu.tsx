import { ja, can } from '@enishi/contract';
import { useCounters } from '@/lib/notifications';
import type { Session } from '@/lib/session';
import { LogoutButton } from '@/components/logout-button';
import { lazy, Suspense, type ReactNode } from 'react';
import { ChatIcon, ChatsIcon, MemberIcon, NewsIcon, PersonIcon } from '@/components/ui/icons';
import { MenuTile } from './menu-tile';
import './home-menu.css';

/** The staff's menu: a chunk of its own (staff-menu.tsx), which no member's home loads. */
const StaffMenu = lazy(() => import('./staff-menu'));

/**
 * The home menu of product.md §2, by role. A staff home shows its menu whole once the staff's chunk is in
 * (the home's loader has asked for it already), never an empty menu first.
 */
export function HomeMenu({ session }: { session: Session }) {
  if (!can(session, 'desk.use')) {
    return (
      <MenuNav>
        <MemberMenu role={session.role} />
      </MenuNav>
    );
  }
  return (
    <Suspense fallback={null}>
      <MenuNav>
        <StaffMenu role={session.role} />
      </MenuNav>
    </Suspense>
  );
}

function MenuNav({ children }: { children: ReactNode }) {
  return (
    <nav className="home-menu" aria-label={ja.home.menuLabel}>
      {children}
      <LogoutButton className="home-menu__logout" block={false} />
    </nav>
  );
}

function MemberMenu({ role }: { role: number }) {
  const counters = useCounters();
  return (
    <ul className="menu-grid" role="list">
      <MenuTile to="/strooms" label={ja.menu.groupTalkList} icon={<ChatsIcon />} count={counters.setting} />
      <MenuTile
        to="/talkrooms/staff"
        label={ja.menu.talkWithStaff}
        icon={<ChatIcon />}
        count={counters.fromStaff}
      />
      <MenuTile to="/news" label={ja.menu.news} icon={<NewsIcon />} count={counters.news} />
      <MenuTile to="/mypage" label={ja.menu.mypage} icon={<PersonIcon />} />
      {can({ role }, 'member_site.open') ? (
        <MenuTile to="/member" label={ja.menu.memberLogin} icon={<MemberIcon />} />
      ) : null}
    </ul>
  );
}
