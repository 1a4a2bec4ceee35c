import { ja, type MemberKind } from '@enishi/contract';
import { HistoryIcon, ListIcon, PersonAddIcon } from '@/components/ui/icons';
import { memberKinds } from '../utils/member-kinds';
import { AdminMenu, type AdminMenuItem } from './admin-menu';

/** /men/menu, /women/menu, /staff/menu: the list and the add form (and, for the owner, the change log). */
export function MemberMenu({ kind }: { kind: MemberKind }) {
  const { listPath, addPath, titles } = memberKinds[kind];
  const labels = {
    men: [ja.members.menu.menList, ja.members.menu.menAdd],
    women: [ja.members.menu.womenList, ja.members.menu.womenAdd],
    staff: [ja.members.menu.staffList, ja.members.menu.staffAdd],
  }[kind];
  const items: AdminMenuItem[] = [
    { to: listPath, label: labels[0]!, icon: <ListIcon /> },
    { to: addPath, label: labels[1]!, icon: <PersonAddIcon /> },
  ];
  if (kind === 'staff')
    items.push({ to: '/staff/audit', label: ja.members.menu.auditLog, icon: <HistoryIcon /> });
  return <AdminMenu label={titles.menu} items={items} />;
}
