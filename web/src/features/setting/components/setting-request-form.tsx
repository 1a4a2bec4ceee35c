import { SettingAddBody, ja, slotOf, jaMember } from '@enishi/contract';
import { useId, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextArea } from '@/components/ui/text-area';
import { TextField } from '@/components/ui/text-field';
import { useAddSetting } from '../api/settings';
import { OwnOverlapWarning } from './overlap-warning';
import './setting.css';
import { Phrases } from '@/components/ui/phrases';

const SLOTS = [1, 2, 3] as const;

type RequestBody = Omit<SettingAddBody, 'ssid'>;

/** Why a request cannot be sent (as the server would say, or a slot already past), or null when it can. */
function requestError(body: RequestBody, min: string): string | null {
  const checked = SettingAddBody.safeParse({ ssid: '-', ...body });
  if (!checked.success) return checked.error.issues[0]?.message ?? ja.errors.badRequest;
  const slots = [body.preferred1, body.preferred2, body.preferred3];
  if (slots.some((slot) => slot <= min)) return jaMember.setting.errors.slotPast;
  return null;
}

/** The three preferred date-times, from `min` on, by the quarter hour. */
function SlotFields({
  formId,
  min,
  slots,
  setSlots,
}: {
  formId: string;
  min: string;
  slots: string[];
  setSlots: Dispatch<SetStateAction<string[]>>;
}) {
  return SLOTS.map((n, index) => (
    <TextField
      key={n}
      id={`${formId}-slot-${n}`}
      type="datetime-local"
      label={jaMember.setting.preferred(n)}
      min={min}
      step={900}
      required
      value={slots[index]}
      onChange={(event) =>
        setSlots((current) => current.map((slot, i) => (i === index ? event.target.value : slot)))
      }
    />
  ));
}

/** セッティング依頼 while the form is closed: opens it. */
function OpenButton({ formId, onOpen }: { formId: string; onOpen: () => void }) {
  return (
    <Button block variant="accent" onClick={onOpen} aria-expanded={false} aria-controls={formId}>
      {jaMember.setting.open}
    </Button>
  );
}

/**
 * What the request form holds — the three slots, the note, why it cannot be sent — and its sending: checked here
 * first, then to the server; on success the toast, `onSent`, and the fields emptied.
 */
function useSettingRequest(womanId: number, onSent: () => void) {
  const [slots, setSlots] = useState<string[]>(['', '', '']);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddSetting();
  // The earliest a slot may be: now, in Japan time (the datetime fields speak Japan time).
  const min = slotOf(new Date());

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      women_id: womanId,
      preferred1: slots[0]!,
      preferred2: slots[1]!,
      preferred3: slots[2]!,
      note,
    };
    const wrong = requestError(body, min);
    if (wrong) {
      setError(wrong);
      return;
    }
    setError(null);
    add.mutate(body, {
      onSuccess: () => {
        toast(jaMember.setting.sent);
        onSent();
        setSlots(['', '', '']);
        setNote('');
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  }

  return { slots, setSlots, note, setNote, error, min, submit, pending: add.isPending };
}

/**
 * The setting request of a woman's profile (product.md §18.1): opened by a button in a bar that stays at the
 * foot of the screen (`.setting-bar`), three preferred date-times
 * (Japan time, future, all different) and a note; on success the toast セッティング依頼を送信しました. A slot
 * within two hours of one of his confirmed settings is named under the slots; he may send all the same (§18.5).
 */
export function SettingRequestForm({ womanId }: { womanId: number }) {
  const [open, setOpen] = useState(false);
  const { slots, setSlots, note, setNote, error, min, submit, pending } = useSettingRequest(womanId, () =>
    setOpen(false),
  );
  const formId = useId();

  if (!open) {
    return (
      <div className="setting-bar">
        <OpenButton formId={formId} onOpen={() => setOpen(true)} />
      </div>
    );
  }
  return (
    <form
      id={formId}
      // Opened from the bar at the foot of the screen: brought into view with its first field ready.
      ref={(form) => {
        if (!form || form.dataset.shown) return;
        form.dataset.shown = '1';
        form.scrollIntoView({ block: 'start', behavior: 'smooth' });
        form.querySelector('input')?.focus({ preventScroll: true });
      }}
      className="setting-form paper-card"
      onSubmit={submit}
      noValidate
      aria-label={jaMember.setting.title}
    >
      <h2 className="setting-form__title">{jaMember.setting.title}</h2>
      <p className="setting-form__lead">
        <Phrases text={jaMember.setting.lead} />
      </p>
      <SlotFields formId={formId} min={min} slots={slots} setSlots={setSlots} />
      <OwnOverlapWarning slots={slots} />
      <TextArea
        id={`${formId}-note`}
        label={jaMember.setting.note}
        value={note}
        maxLength={500}
        rows={3}
        onChange={(event) => setNote(event.target.value)}
      />
      {error ? (
        <p className="setting-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="setting-form__actions">
        <Button variant="quiet" onClick={() => setOpen(false)}>
          {ja.app.cancel}
        </Button>
        <Button type="submit" busy={pending} disabled={pending}>
          {jaMember.setting.send}
        </Button>
      </div>
    </form>
  );
}
