import { ja, jaMember, slotLabel } from '@enishi/contract';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useMemberSettings } from '../api/settings';
import { SettingBadge } from './setting-card';
import './setting.css';
import { Phrases } from '@/components/ui/phrases';
import { ErrorNote } from '@/components/ui/error-note';

/** A member's setting requests, newest first, in the back office's member panel (product.md §2.8). */
export function MemberSettings({ uid, heading }: { uid: number; heading: string }) {
  const settings = useMemberSettings(uid);
  const rows = settings.data?.rows ?? [];
  return (
    <section className="member-settings" aria-label={heading}>
      <h3 className="member-settings__title">{heading}</h3>
      {settings.isPending ? <Spinner label={ja.app.loading} /> : null}
      {settings.isError ? <ErrorNote error={settings.error} /> : null}
      {settings.isSuccess && rows.length === 0 ? (
        <p className="member-settings__empty">
          <Phrases text={jaMember.table.noSettings} />
        </p>
      ) : null}
      <ul className="member-settings__list">
        {rows.map((row) => (
          <li key={row.id} className="member-settings__row">
            <SettingBadge status={row.status} />
            <span>
              {row.men.name} × {row.women.name}
            </span>
            <span className="member-settings__when">
              {slotLabel(row.preferred[(row.slot ?? 1) - 1] ?? row.preferred[0]!)}
            </span>
            {row.conversation_id ? (
              <Link className="page-link" to={`/talk/${row.conversation_id}`}>
                {jaMember.setting.openTalk}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
