import { BROADCAST_RANK_FILTER, ja, type ContentGroup, jaMember } from '@enishi/contract';
import { useId, useMemo, useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { ButtonLink, Button } from '@/components/ui/button';
import { RankPill } from '@/components/ui/rank-pill';
import { Spinner } from '@/components/ui/spinner';
import '@/components/ui/text-field.css';
import { useRecipients } from '../api/get-recipients';
import { useBroadcastDraft } from '../hooks/use-broadcast-draft';
import { typeOf } from '../utils/target';
import { BroadcastHistory } from './broadcast-history';
import { ScheduledList } from './scheduled-list';
import './broadcast.css';
import { Phrases } from '@/components/ui/phrases';

/** Men only: narrow the list by rank (all, 1, 2, 3, 4, 6). */
function RankFilter({ id, rank, onChange }: { id: string; rank: number; onChange: (rank: number) => void }) {
  return (
    <div className="broadcast__filter">
      <label htmlFor={id} className="field__label">
        {jaMember.broadcast.rankFilter}
      </label>
      <select
        id={id}
        className="field__input broadcast__select"
        value={rank}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {BROADCAST_RANK_FILTER.map((value) => (
          <option key={value} value={value}>
            {value === 0 ? jaMember.broadcast.allRanks : ja.ranks[value]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** How many are chosen, and 次へ to the message (greyed out, with the reason, while nobody is chosen). */
function NextBar({ group, chosenCount, whyId }: { group: ContentGroup; chosenCount: number; whyId: string }) {
  return (
    <div className="broadcast__bar">
      <div className="broadcast__counts">
        <p className="broadcast__count" role="status">
          {jaMember.broadcast.selected(chosenCount)}
        </p>
        {chosenCount === 0 ? (
          <p id={whyId} className="broadcast__reason">
            <Phrases text={jaMember.broadcast.nextDisabled} />
          </p>
        ) : null}
      </div>
      {chosenCount > 0 ? (
        <ButtonLink to={`/${group}/send/form`} variant={group === 'men' ? 'primary' : 'rose'}>
          {jaMember.broadcast.next}
        </ButtonLink>
      ) : (
        <Button disabled aria-describedby={whyId}>
          {jaMember.broadcast.next}
        </Button>
      )}
    </div>
  );
}

/**
 * /men/send, /women/send (product.md §2, §9): choose the recipients. Men can be narrowed by rank (all, 1, 2, 3, 4,
 * 6); すべて選択 chooses everyone shown. The choice is kept on the device until the message is sent.
 */
export function RecipientPicker({ group }: { group: ContentGroup }) {
  const recipients = useRecipients(typeOf(group));
  const { selected, setSelected } = useBroadcastDraft(group);
  const [rank, setRank] = useState(0);
  const ids = useId();

  const all = useMemo(() => recipients.data?.rows ?? [], [recipients.data]);
  const shown = useMemo(() => (rank === 0 ? all : all.filter((row) => row.rank === rank)), [all, rank]);
  const chosen = useMemo(() => new Set(selected), [selected]);
  const chosenCount = all.filter((row) => chosen.has(row.uid)).length;
  const allShownChosen = shown.length > 0 && shown.every((row) => chosen.has(row.uid));

  function toggleAll() {
    const uids = shown.map((row) => row.uid);
    if (allShownChosen) setSelected((current) => current.filter((uid) => !uids.includes(uid)));
    else setSelected((current) => [...current, ...uids]);
  }

  function toggle(uid: number, checked: boolean) {
    setSelected((current) => (checked ? [...current, uid] : current.filter((each) => each !== uid)));
  }

  return (
    <div className="broadcast">
      <div className="broadcast__tools">
        {group === 'men' ? <RankFilter id={`${ids}-filter`} rank={rank} onChange={setRank} /> : null}
        <Button
          variant="secondary"
          onClick={toggleAll}
          disabled={shown.length === 0}
          aria-describedby={shown.length === 0 ? `${ids}-none` : undefined}
        >
          {allShownChosen ? jaMember.broadcast.clearAll : jaMember.broadcast.selectAll}
        </Button>
      </div>

      {recipients.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : recipients.isError ? (
        <p className="broadcast__empty">
          <Phrases text={errorMessage(recipients.error)} />
        </p>
      ) : shown.length === 0 ? (
        <p id={`${ids}-none`} className="broadcast__empty">
          <Phrases text={jaMember.broadcast.noMembers} />
        </p>
      ) : (
        <fieldset className="broadcast__list">
          <legend className="broadcast__legend">
            {jaMember.broadcast.members}
            <span className="broadcast__shown">{jaMember.broadcast.shown(shown.length)}</span>
          </legend>
          {shown.map((row) => (
            <label key={row.uid} className="broadcast__member">
              <input
                type="checkbox"
                checked={chosen.has(row.uid)}
                onChange={(event) => toggle(row.uid, event.currentTarget.checked)}
              />
              <span className="broadcast__name">{row.name}</span>
              {group === 'men' ? <RankPill rank={row.rank} /> : null}
            </label>
          ))}
        </fieldset>
      )}

      <NextBar group={group} chosenCount={chosenCount} whyId={`${ids}-why`} />

      <ScheduledList group={group} />

      <BroadcastHistory group={group} />
    </div>
  );
}
