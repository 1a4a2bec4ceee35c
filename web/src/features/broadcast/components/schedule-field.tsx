import { jaMember } from '@enishi/contract';
import { useId } from 'react';
import { Phrases } from '@/components/ui/phrases';
import { TextField } from '@/components/ui/text-field';

/**
 * 予約送信 on the bulk-send form (product.md §4.6): a checkbox, and once ticked the date and time in Japan
 * time (from now on, by the minute), described by the hint that says so.
 */
export function ScheduleField({
  on,
  onToggle,
  at,
  onAt,
  min,
}: {
  on: boolean;
  onToggle: (on: boolean) => void;
  at: string;
  onAt: (at: string) => void;
  min: string;
}) {
  const ids = useId();
  return (
    <fieldset className="broadcast__schedule">
      <legend className="broadcast__legend">{jaMember.broadcast.schedule}</legend>
      <label className="broadcast__member">
        <input type="checkbox" checked={on} onChange={(event) => onToggle(event.currentTarget.checked)} />
        <span>{jaMember.broadcast.scheduleLater}</span>
      </label>
      {on ? (
        <>
          <TextField
            type="datetime-local"
            label={jaMember.broadcast.sendAt}
            min={min}
            step={60}
            required
            value={at}
            aria-describedby={`${ids}-hint`}
            onChange={(event) => onAt(event.target.value)}
          />
          <p id={`${ids}-hint`} className="broadcast__hint">
            <Phrases text={jaMember.broadcast.sendAtHint} />
          </p>
        </>
      ) : null}
    </fieldset>
  );
}
