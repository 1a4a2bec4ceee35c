import { type MemberKind, jaMember } from '@enishi/contract';
import { HistoryIcon, ListIcon, PersonAddIcon, UserEditIcon } from '@/components/ui/icons';
import { memberKinds } from '../utils/member-kinds';
import { AdminMenu, type AdminMenuItem } from './admin-menu';

/** /men/menu, /women/menu, /staff/menu: the list and the add form (and, for the owner, the change log). */
export function MemberMenu({ kind }: { kind: MemberKind }) {
  const { listPath, addPath, titles } = memberKinds[kind];
  const labels = {
    men: [jaMember.members.menu.menList, jaMember.members.menu.menAdd],
    women: [jaMember.members.menu.womenList, jaMember.members.menu.womenAdd],
    staff: [jaMember.members.menu.staffList, jaMember.members.menu.staffAdd],
  }[kind];
  const items: AdminMenuItem[] = [
    { to: listPath, label: labels[0]!, icon: <ListIcon /> },
    { to: addPath, label: labels[1]!, icon: <PersonAddIcon /> },
  ];
  if (kind === 'staff') {
    items.push({ to: '/staff/audit', label: jaMember.members.menu.auditLog, icon: <HistoryIcon /> });
    items.push({ to: '/staff/lists', label: jaMember.profile.lookups.title, icon: <UserEditIcon /> });
    items.push({
      to: '/staff/profile-fields',
      label: jaMember.profile.editable.title,
      icon: <UserEditIcon />,
    });
  }
  return <AdminMenu label={titles.menu} items={items} />;
}
