import {
  SETTING_STATUSES,
  ja,
  slotLabel,
  type SettingRow,
  type SettingStatus,
  jaMember,
} from '@enishi/contract';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { WomanLink } from './woman-link';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { MoreButton } from '@/components/ui/more-button';
import { cx } from '@/components/ui/class-names';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { useSettings, useUpdateSetting } from '../api/settings';
import { PartySummary } from './party-summary';
import { SettingCard } from './setting-card';
import './setting.css';
import { Phrases } from '@/components/ui/phrases';

/** To arrange: one of the three slots, and the place. */
function ArrangeFields({
  id,
  preferred,
  slot,
  setSlot,
  place,
  setPlace,
}: {
  id: string;
  preferred: SettingRow['preferred'];
  slot: number | null;
  setSlot: (slot: number) => void;
  place: string;
  setPlace: (place: string) => void;
}) {
  return (
    <>
      <fieldset className="plain-fieldset">
        <legend className="setting-decide__legend">{jaMember.setting.arrange}</legend>
        {preferred.map((each, index) => (
          <label key={each} className="setting-decide__slot">
            <input
              type="radio"
              name={`${id}-slot`}
              checked={slot === index + 1}
              onChange={() => setSlot(index + 1)}
            />
            <span>
              {jaMember.setting.preferred(index + 1)} {slotLabel(each)}
            </span>
          </label>
        ))}
      </fieldset>
      <TextField
        id={`${id}-place`}
        label={jaMember.setting.place}
        placeholder={jaMember.setting.placePlaceholder}
        value={place}
        maxLength={200}
        onChange={(event) => setPlace(event.target.value)}
      />
    </>
  );
}

/** Staff's decision on one request: choose a slot and a place to arrange, or give a reason to decline. */
export function Decide({ row }: { row: SettingRow }) {
  const id = useId();
  const [slot, setSlot] = useState<number | null>(null);
  const [place, setPlace] = useState('');
  const [reason, setReason] = useState('');
  const [declining, setDeclining] = useState(false);
  const update = useUpdateSetting();
  const [error, setError] = useState<string | null>(null);

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = declining
      ? { id: row.id, status: 'declined' as const, reason: reason.trim() }
      : { id: row.id, status: 'arranged' as const, ...(slot ? { slot } : {}), place: place.trim() };
    if (!declining && !slot) return setError(jaMember.setting.errors.slotChoice);
    if (!declining && !place.trim()) return setError(jaMember.setting.errors.placeRequired);
    if (declining && !reason.trim()) return setError(jaMember.setting.errors.reasonRequired);
    setError(null);
    // Not mutate's own callbacks: the live `setting` frame (product.md §15.4) may refresh the list and take this
    // form away before the answer comes, and React Query calls those only while the form is there.
    const decided = declining ? jaMember.setting.declined : jaMember.setting.arranged;
    update.mutateAsync(body).then(
      () => toast(decided),
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }

  return (
    <form
      className="setting-decide"
      onSubmit={send}
      noValidate
      aria-label={`${row.men.name} ${row.women.name}`}
    >
      {declining ? (
        <TextField
          id={`${id}-reason`}
          label={jaMember.setting.declineReason}
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.target.value)}
        />
      ) : (
        <ArrangeFields
          id={id}
          preferred={row.preferred}
          slot={slot}
          setSlot={setSlot}
          place={place}
          setPlace={setPlace}
        />
      )}
      {error ? (
        <p className="setting-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="setting-form__actions">
        <Button
          variant="quiet"
          onClick={() => {
            setDeclining(!declining);
            setError(null);
          }}
        >
          {declining ? jaMember.setting.arrange : jaMember.setting.decline}
        </Button>
        <Button
          type="submit"
          variant={declining ? 'rose' : 'primary'}
          busy={update.isPending}
          disabled={update.isPending}
        >
          {declining ? jaMember.setting.decline : jaMember.setting.arrange}
        </Button>
      </div>
    </form>
  );
}

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
              {row.status === 'requested' ? <Decide row={row} /> : null}
            </SettingCard>
          ))}
        </ul>
      )}
      <MoreButton query={settings}>{jaMember.broadcast.more}</MoreButton>
    </div>
  );
}
