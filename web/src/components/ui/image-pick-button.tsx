import type { ChangeEvent } from 'react';
import { cx } from './class-names';
import { ImageIcon } from './icons';

/**
 * A secondary button that picks JPEG or PNG images, several at once; greyed out at the form's limit.
 * `describedBy`: the id of the hint that states the limit, so the greyed-out button says why.
 */
export function ImagePickButton({
  label,
  disabled,
  describedBy,
  className,
  accept = 'image/jpeg,image/png',
  onPick,
}: {
  label: string;
  /** The types offered (JPEG and PNG unless said). */
  accept?: string;
  disabled: boolean;
  describedBy?: string;
  className?: string;
  onPick: (event: ChangeEvent<HTMLInputElement>) => Promise<void>;
}) {
  return (
    <label className={cx('btn btn--secondary', className, disabled && 'is-disabled')}>
      <ImageIcon size={20} />
      <span className="btn__label">{label}</span>
      <input
        type="file"
        accept={accept}
        multiple
        className="visually-hidden"
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => void onPick(event)}
      />
    </label>
  );
}
