import { ja, jaMember, can } from '@enishi/contract';
import { Link } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useSession } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { MoreButton } from '@/components/ui/more-button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { useSettings, useUpdateSetting } from '../api/settings';
import { SettingCard } from './setting-card';
import './setting.css';

/**
 * セッティング履歴 (product.md §18.2): a man's requests and their state, each still requested with a cancel
 * button; a woman's arranged settings.
 */
export function SettingHistory() {
  const session = useSession();
  const settings = useSettings();
  const update = useUpdateSetting();
  const confirm = useConfirm();
  const rows = settings.data?.pages.flatMap((page) => page.rows) ?? [];
  const man = can(session, 'setting.request');

  async function cancel(id: number) {
    if (!(await confirm({ message: jaMember.setting.cancelConfirm, confirmLabel: jaMember.setting.cancel })))
      return;
    update.mutate(
      { id, status: 'cancelled' },
      { onSuccess: () => toast(jaMember.setting.cancelled), onError: (error) => toast(errorMessage(error)) },
    );
  }

  if (settings.isPending) return <Spinner label={ja.app.loading} />;
  if (settings.isError)
    return (
      <p className="notice-box" role="alert">
        <Phrases text={errorMessage(settings.error)} />
      </p>
    );
  if (rows.length === 0) {
    // An empty history says what comes next: his is asked from the women's list, hers is made by staff.
    return (
      <div className="notice-box">
        <p>
          <strong>{man ? jaMember.setting.empty : jaMember.setting.emptyWoman}</strong>
        </p>
        <p>
          <Phrases text={man ? jaMember.setting.emptyNext : jaMember.setting.emptyWomanNext} />
        </p>
        {man ? <Link to="/member">{jaMember.setting.toWomen}</Link> : null}
      </div>
    );
  }
  return (
    <div className="setting-list">
      <ul className="setting-list__rows" aria-label={jaMember.setting.history}>
        {rows.map((row) => (
          <SettingCard key={row.id} row={row} heading={man ? row.women.name : row.men.name}>
            {man && row.status === 'requested' ? (
              <Button variant="quiet" onClick={() => void cancel(row.id)}>
                {jaMember.setting.cancel}
              </Button>
            ) : null}
          </SettingCard>
        ))}
      </ul>
      <MoreButton query={settings}>{jaMember.broadcast.more}</MoreButton>
    </div>
  );
}
