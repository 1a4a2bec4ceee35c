import { SETTING_STATUSES, ja, type SettingStatus, jaMember } from '@enishi/contract';
import { Link, useSearchParams } from 'react-router';
import { WomanLink } from './woman-link';
import { errorMessage } from '@/lib/api-client';
import { MoreButton } from '@/components/ui/more-button';
import { cx } from '@/components/ui/class-names';
import { Spinner } from '@/components/ui/spinner';
import { useSettings } from '../api/settings';
import { Decide } from './setting-decide';
import { OverlapWarning } from './overlap-warning';
import { PartySummary } from './party-summary';
import { SettingCard } from './setting-card';
import './setting.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * Staff's setting requests (product.md §18): filter by state (依頼中 first), each request with both members
 * (links to their records and a short summary of each: photo, age, area and more), the three slots, and arrange or decline while it is requested.
 */
export function SettingRequests() {
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') as SettingStatus | null) ?? 'requested';
  const settings = useSettings(status);
  const rows = settings.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <div className="setting-list">
      <nav className="setting-filter" aria-label={jaMember.setting.requests}>
        {SETTING_STATUSES.map((each) => (
          <Link
            key={each}
            to={`?status=${each}`}
            replace
            className={cx('setting-filter__item', each === status && 'setting-filter__item--on')}
            aria-current={each === status ? 'page' : undefined}
            onClick={(event) => {
              event.preventDefault();
              setParams(
                (previous) => {
                  previous.set('status', each);
                  return previous;
                },
                { replace: true },
              );
            }}
          >
            {jaMember.setting.status[each]}
            {each === 'requested' && settings.data ? (
              <span className="setting-filter__count">{settings.data.pages[0]?.requested}</span>
            ) : null}
          </Link>
        ))}
      </nav>
      {settings.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : settings.isError ? (
        <p className="notice-box" role="alert">
          <Phrases text={errorMessage(settings.error)} />
        </p>
      ) : rows.length === 0 ? (
        <p className="notice-box">
          <Phrases text={jaMember.setting.none} />
        </p>
      ) : (
        <ul className="setting-list__rows" aria-label={jaMember.setting.requests}>
          {rows.map((row) => (
            <SettingCard
              key={row.id}
              row={row}
              heading={
                <>
                  <span className="setting-card__who">{jaMember.setting.man}</span>{' '}
                  <Link to={`/men/edit?id=${row.men.uid}`}>{row.men.name}</Link>
                  <span aria-hidden="true"> ・ </span>
                  <span className="setting-card__who">{jaMember.setting.woman}</span>{' '}
                  <WomanLink woman={row.women} />
                </>
              }
              parties={
                <div className="party-summaries">
                  <PartySummary uid={row.men.uid} name={row.men.name} woman={false} />
                  <PartySummary uid={row.women.uid} name={row.women.name} woman />
                </div>
              }
            >
              <OverlapWarning row={row} id={`overlap-${row.id}`} />
              {row.status === 'requested' ? <Decide row={row} warningId={`overlap-${row.id}`} /> : null}
            </SettingCard>
          ))}
        </ul>
      )}
      <MoreButton query={settings}>{jaMember.broadcast.more}</MoreButton>
    </div>
  );
}
