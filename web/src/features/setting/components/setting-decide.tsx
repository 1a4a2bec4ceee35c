import { jaMember, slotLabel, type SettingRow } from '@enishi/contract';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { TextField } from '@/components/ui/text-field';
import { useUpdateSetting } from '../api/settings';
import './setting.css';

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

/**
 * Why staff confirm a slot that meets a confirmed setting (product.md §18.5): shown once such a slot is chosen,
 * described by the warning and by the note that the audit log keeps it.
 */
function OverlapReason({
  id,
  warningId,
  value,
  setValue,
}: {
  id: string;
  warningId: string | undefined;
  value: string;
  setValue: (value: string) => void;
}) {
  return (
    <div className="setting-overlap__reason">
      <TextField
        id={`${id}-overlap`}
        label={jaMember.setting.overlap.reason}
        value={value}
        maxLength={500}
        aria-describedby={[`${id}-overlap-hint`, warningId].filter(Boolean).join(' ')}
        onChange={(event) => setValue(event.target.value)}
      />
      <p id={`${id}-overlap-hint`} className="setting-overlap__hint">
        <Phrases text={jaMember.setting.overlap.reasonHint} />
      </p>
    </div>
  );
}

/** Why a decision cannot be sent yet, or null. */
function decisionError(
  declining: boolean,
  fields: { slot: number | null; place: string; reason: string; overlapReason: string | null },
): string | null {
  const e = jaMember.setting.errors;
  if (declining) return fields.reason.trim() ? null : e.reasonRequired;
  if (!fields.slot) return e.slotChoice;
  if (!fields.place.trim()) return e.placeRequired;
  if (fields.overlapReason !== null && !fields.overlapReason.trim()) return e.overlapReasonRequired;
  return null;
}

/** What a decision form holds, and its sending. */
function useDecision(row: SettingRow) {
  const [slot, setSlot] = useState<number | null>(null);
  const [place, setPlace] = useState('');
  const [reason, setReason] = useState('');
  const [overlapReason, setOverlapReason] = useState('');
  const [declining, setDeclining] = useState(false);
  const update = useUpdateSetting();
  const [error, setError] = useState<string | null>(null);
  // The chosen slot meets a confirmed setting of the man or the woman: a reason, kept in the audit log.
  const overlapping = !declining && (row.overlaps ?? []).some((overlap) => overlap.slot === slot);

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const wrong = decisionError(declining, {
      slot,
      place,
      reason,
      overlapReason: overlapping ? overlapReason : null,
    });
    if (wrong) return setError(wrong);
    setError(null);
    const body = declining
      ? { id: row.id, status: 'declined' as const, reason: reason.trim() }
      : {
          id: row.id,
          status: 'arranged' as const,
          slot: slot!,
          place: place.trim(),
          ...(overlapping ? { overlap_reason: overlapReason.trim() } : {}),
        };
    // Not mutate's own callbacks: the live `setting` frame (product.md §15.4) may refresh the list and take this
    // form away before the answer comes, and React Query calls those only while the form is there.
    const decided = declining ? jaMember.setting.declined : jaMember.setting.arranged;
    update.mutateAsync(body).then(
      () => toast(decided),
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }

  const toggle = () => {
    setDeclining(!declining);
    setError(null);
  };
  const fields = { slot, setSlot, place, setPlace, reason, setReason, overlapReason, setOverlapReason };
  return { ...fields, declining, toggle, overlapping, error, send, pending: update.isPending };
}

/**
 * Staff's decision on one request: choose a slot and a place to arrange (with a reason when the slot meets a
 * confirmed setting, §18.5), or give a reason to decline. `warningId`: the request's overlap warning, if shown.
 */
export function Decide({ row, warningId }: { row: SettingRow; warningId?: string }) {
  const id = useId();
  const d = useDecision(row);
  const submitLabel = d.declining
    ? jaMember.setting.decline
    : d.overlapping
      ? jaMember.setting.overlap.arrangeAnyway
      : jaMember.setting.arrange;
  return (
    <form
      className="setting-decide"
      onSubmit={d.send}
      noValidate
      aria-label={`${row.men.name} ${row.women.name}`}
    >
      {d.declining ? (
        <TextField
          id={`${id}-reason`}
          label={jaMember.setting.declineReason}
          value={d.reason}
          maxLength={500}
          onChange={(event) => d.setReason(event.target.value)}
        />
      ) : (
        <ArrangeFields
          id={id}
          preferred={row.preferred}
          slot={d.slot}
          setSlot={d.setSlot}
          place={d.place}
          setPlace={d.setPlace}
        />
      )}
      {d.overlapping ? (
        <OverlapReason id={id} warningId={warningId} value={d.overlapReason} setValue={d.setOverlapReason} />
      ) : null}
      {d.error ? (
        <p className="setting-form__error" role="alert">
          {d.error}
        </p>
      ) : null}
      <div className="setting-form__actions">
        <Button variant="quiet" onClick={d.toggle}>
          {d.declining ? jaMember.setting.arrange : jaMember.setting.decline}
        </Button>
        <Button
          type="submit"
          variant={d.declining ? 'rose' : 'primary'}
          busy={d.pending}
          disabled={d.pending}
        >
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
