import { ja, jaMember } from '@enishi/contract';
import { Link } from 'react-router';
import { CountBadge } from '@/components/ui/count-badge';
import { ChevronRightIcon, HistoryIcon } from '@/components/ui/icons';
import { useSettings } from '../api/settings';
import './setting.css';

/** On staff's talk list: the setting requests, with the setting badge (requests waiting for staff). */
export function SettingRequestsLink() {
  const waiting = useSettings('requested').data?.pages[0]?.requested ?? 0;
  return (
    <Link to="/setting/requests" className="setting-link paper-card">
      <span className="round-icon">
        <HistoryIcon />
      </span>
      <span className="setting-link__label">{jaMember.setting.requests}</span>
      <CountBadge count={waiting} />
      {waiting > 0 ? <span className="visually-hidden">{ja.home.unread(waiting)}</span> : null}
      <ChevronRightIcon size={20} />
    </Link>
  );
}
