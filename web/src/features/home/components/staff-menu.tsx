import { ja, can } from '@enishi/contract';
import { useCounters } from '@/lib/notifications';
import {
  ChatIcon,
  ChatsIcon,
  GroupAddIcon,
  MegaphoneIcon,
  NewsIcon,
  PersonAddIcon,
  SendIcon,
  StaffIcon,
  StampIcon,
  UserEditIcon,
} from '@/components/ui/icons';
import { useNewApplicationCount } from '../api/get-new-application-count';
import { MenuTile } from './menu-tile';

/**
 * The staff's home menu (product.md §2): a chunk of its own, loaded by a staff member's home (home-menu.tsx),
 * so that a member's first load carries neither its tiles and icons nor the applications' count.
 */
export default function StaffMenu({ role }: { role: number }) {
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
      <MenuTile to="/stamps" label={ja.menu.stampAdmin} icon={<StampIcon />} />
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
