import {
  CLOSING_NAME_MAX,
  deskHoursText,
  ja,
  jaMember,
  japaneseDate,
  type BusinessDay,
  type ClosingDay,
} from '@enishi/contract';
import { useState, type FormEvent } from 'react';
import { Phrases } from '@/components/ui/phrases';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { useAddClosingDay, useClosingDayList, useDeleteClosingDay, useSaveHours } from '../api/closing-days';
import './calendar-admin.css';

const t = jaMember.calendar;

/**
 * /calendar (product.md §9.3): the club's business hours per weekday, its closing days not yet over, each to
 * delete, and a form to add one.
 */
export function CalendarAdmin() {
  const list = useClosingDayList();
  return (
    <div className="calendar-admin">
      <p className="calendar-admin__intro">
        <Phrases text={t.intro} />
      </p>
      <section aria-labelledby="calendar-admin-list">
        <h2 id="calendar-admin-list" className="calendar-admin__heading">
          {t.listTitle}
        </h2>
        {list.isPending ? (
          <Spinner label={t.loading} />
        ) : list.isError ? (
          <p role="alert">
            <Phrases text={errorMessage(list.error)} />
          </p>
        ) : list.data.closingDays.length === 0 ? (
          <p>
            <Phrases text={t.empty} />
          </p>
        ) : (
          <ul className="calendar-admin__days" role="list">
            {list.data.closingDays.map((day) => (
              <ClosingRow key={day.id} day={day} />
            ))}
          </ul>
        )}
      </section>
      <AddClosingForm />
      {list.data ? <HoursForm key={JSON.stringify(list.data.hours)} saved={list.data.hours} /> : null}
    </div>
  );
}

function ClosingRow({ day }: { day: ClosingDay }) {
  const remove = useDeleteClosingDay();
  const removeIt = () =>
    remove.mutate(day.id, {
      onSuccess: () => toastSuccess(t.removed),
      onError: (error) => toast(errorMessage(error)),
    });
  return (
    <li className="calendar-admin__day">
      <span className="calendar-admin__name">{day.name}</span>
      <span>{t.period(japaneseDate(day.start), japaneseDate(day.end))}</span>
      <Button variant="secondary" busy={remove.isPending} onClick={removeIt} aria-label={t.remove(day.name)}>
        {t.removeShort}
      </Button>
    </li>
  );
}

function AddClosingForm() {
  const add = useAddClosingDay();
  const [name, setName] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    // The server checks the dates (contract's ClosingDayAddBody) and answers in Japanese.
    add.mutate(
      { name, start, end: end || start },
      {
        onSuccess: () => {
          toastSuccess(t.added);
          setName('');
          setStart('');
          setEnd('');
        },
        onError: (failure) => setError(errorMessage(failure) || t.failed),
      },
    );
  }

  return (
    <form className="calendar-admin__form" onSubmit={submit} noValidate aria-labelledby="calendar-admin-add">
      <h2 id="calendar-admin-add" className="calendar-admin__heading">
        {t.addTitle}
      </h2>
      <TextField
        label={t.name}
        value={name}
        placeholder={t.namePlaceholder}
        maxLength={CLOSING_NAME_MAX}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="calendar-admin__dates">
        <TextField
          label={t.start}
          type="date"
          value={start}
          onChange={(event) => setStart(event.target.value)}
        />
        <TextField label={t.end} type="date" value={end} onChange={(event) => setEnd(event.target.value)} />
      </div>
      <FormEnd error={error} busy={add.isPending} label={t.add} />
    </form>
  );
}

/** Weekdays as the club reads a week: Monday first. */
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

/** The hours of each weekday: open or closed, from and until; saved together (the server checks them). */
function HoursForm({ saved }: { saved: BusinessDay[] }) {
  const save = useSaveHours();
  const [hours, setHours] = useState(saved);
  const [error, setError] = useState<string | undefined>();
  const change = (weekday: number, part: Partial<BusinessDay>) =>
    setHours((days) => days.map((day, index) => (index === weekday ? { ...day, ...part } : day)));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    save.mutate(hours, {
      onSuccess: () => toastSuccess(t.hoursSaved),
      onError: (failure) => setError(errorMessage(failure) || t.failed),
    });
  }

  return (
    <form
      className="calendar-admin__form"
      onSubmit={submit}
      noValidate
      aria-labelledby="calendar-admin-hours"
    >
      <h2 id="calendar-admin-hours" className="calendar-admin__heading">
        {t.hoursTitle}
      </h2>
      <div className="calendar-admin__week">
        {WEEK_ORDER.map((weekday) => {
          const day = hours[weekday]!;
          const name = t.weekday(ja.talk.weekdays[weekday]!);
          return (
            <fieldset key={weekday} className="calendar-admin__weekday">
              <legend className="calendar-admin__weekday-name">{name}</legend>
              <label className="calendar-admin__open">
                <input
                  type="checkbox"
                  checked={day.open}
                  onChange={(event) => change(weekday, { open: event.target.checked })}
                />
                {t.openDay}
              </label>
              {(['opens', 'closes'] as const).map((part) => (
                <TextField
                  key={part}
                  label={t[part]}
                  type="time"
                  value={day[part]}
                  disabled={!day.open}
                  onChange={(event) => change(weekday, { [part]: event.target.value })}
                />
              ))}
            </fieldset>
          );
        })}
      </div>
      <p className="calendar-admin__preview">{t.hoursPreview(deskHoursText(hours))}</p>
      <FormEnd error={error} busy={save.isPending} label={t.saveHours} />
    </form>
  );
}

/** A form's last lines: the server's Japanese refusal, announced, and the submit button. */
function FormEnd({ error, busy, label }: { error: string | undefined; busy: boolean; label: string }) {
  return (
    <>
      {error ? (
        <p className="calendar-admin__error" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" busy={busy}>
        {label}
      </Button>
    </>
  );
}
