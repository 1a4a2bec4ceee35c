import { SettingAddBody, ja, slotOf, jaMember } from '@enishi/contract';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextArea } from '@/components/ui/text-area';
import { TextField } from '@/components/ui/text-field';
import { useAddSetting } from '../api/settings';
import './setting.css';
import { Phrases } from '@/components/ui/phrases';

const SLOTS = [1, 2, 3] as const;

/**
 * The setting request of a woman's profile (product.md §18.1): opened by a button, three preferred date-times
 * (Japan time, future, all different) and a note; on success the toast セッティング依頼を送信しました.
 */
export function SettingRequestForm({ womanId }: { womanId: number }) {
  const [open, setOpen] = useState(false);
  const [slots, setSlots] = useState<string[]>(['', '', '']);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddSetting();
  const formId = useId();
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
    const checked = SettingAddBody.safeParse({ ssid: '-', ...body });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? ja.errors.badRequest);
      return;
    }
    if (slots.some((slot) => slot <= min)) {
      setError(jaMember.setting.errors.slotPast);
      return;
    }
    setError(null);
    add.mutate(body, {
      onSuccess: () => {
        toast(jaMember.setting.sent);
        setOpen(false);
        setSlots(['', '', '']);
        setNote('');
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  }

  if (!open) {
    return (
      <Button
        block
        variant="accent"
        onClick={() => setOpen(true)}
        aria-expanded={false}
        aria-controls={formId}
      >
        {jaMember.setting.open}
      </Button>
    );
  }
  return (
    <form
      id={formId}
      className="setting-form paper-card"
      onSubmit={submit}
      noValidate
      aria-label={jaMember.setting.title}
    >
      <h2 className="setting-form__title">{jaMember.setting.title}</h2>
      <p className="setting-form__lead">
        <Phrases text={jaMember.setting.lead} />
      </p>
      {SLOTS.map((n, index) => (
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
      ))}
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
        <Button type="submit" busy={add.isPending} disabled={add.isPending}>
          {jaMember.setting.send}
        </Button>
      </div>
    </form>
  );
}
