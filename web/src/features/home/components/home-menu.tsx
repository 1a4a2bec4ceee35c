import { ja, can } from '@enishi/contract';
import { useCounters } from '@/lib/notifications';
import type { Session } from '@/lib/session';
import { LogoutButton } from '@/components/logout-button';
import {
  ChatIcon,
  ChatsIcon,
  GroupAddIcon,
  MegaphoneIcon,
  MemberIcon,
  NewsIcon,
  PersonAddIcon,
  PersonIcon,
  SendIcon,
  StaffIcon,
  UserEditIcon,
} from '@/components/ui/icons';
import { useNewApplicationCount } from '../api/get-new-application-count';
import { MenuTile } from './menu-tile';
import './home-menu.css';

/** The home menu of product.md §2, by role. */
export function HomeMenu({ session }: { session: Session }) {
  return (
    <nav className="home-menu" aria-label={ja.home.menuLabel}>
      {can(session, 'desk.use') ? <StaffMenu role={session.role} /> : <MemberMenu role={session.role} />}
      <LogoutButton className="home-menu__logout" block={false} />
    </nav>
  );
}

function StaffMenu({ role }: { role: number }) {
  const counters = useCounters();
  const newApplications = useNewApplicationCount(true);
  return (
    <ul className="menu-grid" role="list">
      <MenuTile to="/talkrooms" label={ja.menu.staffTalkList} icon={<ChatsIcon />} count={counters.setting} />
      <MenuTile to="/managegroup" label={ja.menu.addGroup} icon={<GroupAddIcon />} />
      <MenuTile
        to="/talkrooms/men"
        label={ja.menu.menTalkList}
        icon={<ChatIcon />}
        count={counters.fromMen}
        tone="men"
      />
      <MenuTile
        to="/talkrooms/women"
        label={ja.menu.womenTalkList}
        icon={<ChatIcon />}
        count={counters.fromWomen}
        tone="women"
      />
      <MenuTile to="/men/menu" label={ja.menu.menAdmin} icon={<UserEditIcon />} tone="men" />
      <MenuTile to="/women/menu" label={ja.menu.womenAdmin} icon={<UserEditIcon />} tone="women" />
      <MenuTile to="/news/menu" label={ja.menu.newsAdmin} icon={<NewsIcon />} />
      <MenuTile to="/managead" label={ja.menu.bannerAdmin} icon={<MegaphoneIcon />} />
      {can({ role }, 'staff.manage') ? (
        <MenuTile to="/staff/menu" label={ja.menu.staffAdmin} icon={<StaffIcon />} />
      ) : null}
      <MenuTile
        to="/applications"
        label={ja.menu.applications}
        icon={<PersonAddIcon />}
        count={newApplications}
      />
      <MenuTile to="/men/send" label={ja.menu.sendMen} icon={<SendIcon />} tone="men" />
      <MenuTile to="/women/send" label={ja.menu.sendWomen} icon={<SendIcon />} tone="women" />
    </ul>
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
