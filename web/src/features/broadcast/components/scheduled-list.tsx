import { ja, jaMember, MESSAGE_MAX, slotOf, type ContentGroup, type ScheduledRow } from '@enishi/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { useNow } from '@/lib/use-now';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Phrases } from '@/components/ui/phrases';
import { Spinner } from '@/components/ui/spinner';
import { TextArea } from '@/components/ui/text-area';
import { TextField } from '@/components/ui/text-field';
import { useCancelScheduled, useUpdateScheduled } from '../api/change-scheduled';
import { useScheduled } from '../api/get-scheduled';
import { localOf, sendAtOf, whenLabel } from '../utils/send-at';
import { typeOf } from '../utils/target';

const t = jaMember.broadcast;

/** 編集 of one scheduled send: its time (Japan time) and text; 保存 or 閉じる. The time field takes focus. */
function ScheduledEdit({ row, onClose }: { row: ScheduledRow; onClose: () => void }) {
  const [at, setAt] = useState(() => localOf(row.send_at));
  const [text, setText] = useState(row.message);
  const update = useUpdateScheduled();
  const first = useRef<HTMLInputElement>(null);
  const titleId = useId();
  useEffect(() => first.current?.focus(), []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    if (!at) return toast(t.sendAtMissing);
    if (at < slotOf(new Date())) return toast(t.sendAtPast);
    update.mutate(
      { id: row.id, send_at: sendAtOf(at), message: text },
      {
        onSuccess: () => {
          toastSuccess(t.saved);
          onClose();
        },
        onError: (error) => toast(errorMessage(error)),
      },
    );
  }

  return (
    <form className="broadcast-scheduled__edit" aria-labelledby={titleId} onSubmit={onSubmit}>
      <h3 id={titleId} className="broadcast-scheduled__edit-title">
        {t.editTitle}
      </h3>
      <TextField
        ref={first}
        type="datetime-local"
        label={t.sendAt}
        min={slotOf(new Date())}
        step={60}
        required
        value={at}
        onChange={(event) => setAt(event.target.value)}
      />
      <TextArea
        label={t.message}
        value={text}
        maxLength={MESSAGE_MAX}
        rows={4}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="broadcast-scheduled__actions">
        <Button type="submit" busy={update.isPending} disabled={update.isPending}>
          {t.save}
        </Button>
        <Button variant="quiet" onClick={onClose}>
          {t.close}
        </Button>
      </div>
    </form>
  );
}

/** One send still to go: when, by whom, to how many, the text; 編集 and 取消 while it has not started. */
function ScheduledItem({ row, now }: { row: ScheduledRow; now: Date }) {
  const [editing, setEditing] = useState(false);
  // Focus goes back to 編集 when the edit closes, not to the top of the page.
  const [returnFocus, setReturnFocus] = useState(false);
  const cancel = useCancelScheduled();
  const confirm = useConfirm();
  const whenId = useId();
  useEffect(() => {
    if (!editing && returnFocus) document.getElementById(`${whenId}-edit`)?.focus();
  }, [editing, returnFocus, whenId]);
  const when = whenLabel(row.send_at, now);

  async function onCancel() {
    if (cancel.isPending || !(await confirm({ message: t.cancelConfirm(when), confirmLabel: t.cancel })))
      return;
    // Awaited, not mutate's callbacks: the item leaves the list (and unmounts) as soon as the list is read again.
    try {
      await cancel.mutateAsync(row.id);
      toastSuccess(t.cancelled);
    } catch (error) {
      toast(errorMessage(error));
    }
  }
  const close = () => {
    setEditing(false);
    setReturnFocus(true);
  };

  return (
    <li className="broadcast-history__item">
      <p className="broadcast-history__meta">
        <time id={whenId} dateTime={row.send_at}>
          {t.scheduledAt(when)}
        </time>
        <span>{t.sentBy(row.name)}</span>
        <span>{t.recipients(row.count)}</span>
      </p>
      <p className="broadcast-history__message">{row.message || ja.talk.image}</p>
      {row.state === 'sending' ? (
        <p className="broadcast-history__read">
          <Phrases text={t.sending} />
        </p>
      ) : editing ? (
        <ScheduledEdit row={row} onClose={close} />
      ) : (
        <div className="broadcast-scheduled__actions">
          <Button
            id={`${whenId}-edit`}
            variant="secondary"
            aria-describedby={whenId}
            onClick={() => setEditing(true)}
          >
            {t.edit}
          </Button>
          <Button
            variant="quiet"
            aria-describedby={whenId}
            busy={cancel.isPending}
            onClick={() => void onCancel()}
          >
            {t.cancel}
          </Button>
        </div>
      )}
    </li>
  );
}

/** 予約一覧 (product.md §4.6): the group's bulk sends still to go, soonest first. */
export function ScheduledList({ group }: { group: ContentGroup }) {
  const scheduled = useScheduled(typeOf(group));
  const now = useNow();
  const headingId = useId();
  const rows = scheduled.data?.rows ?? [];

  return (
    <section className="broadcast-history" aria-labelledby={headingId}>
      <h2 id={headingId} className="broadcast-history__title">
        {t.scheduledList}
      </h2>
      {scheduled.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : scheduled.isError ? (
        <p className="broadcast__empty">
          <Phrases text={errorMessage(scheduled.error)} />
        </p>
      ) : rows.length === 0 ? (
        <p className="broadcast__empty">
          <Phrases text={t.noScheduled} />
        </p>
      ) : (
        <ul className="broadcast-history__list" role="list">
          {rows.map((row) => (
            <ScheduledItem key={row.id} row={row} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}
