import type { ChangeEvent } from 'react';
import { cx } from './class-names';
import { ImageIcon } from './icons';

/** A secondary button that picks JPEG or PNG images, several at once; greyed out at the form's limit. */
export function ImagePickButton({
  label,
  disabled,
  className,
  onPick,
}: {
  label: string;
  disabled: boolean;
  className?: string;
  onPick: (event: ChangeEvent<HTMLInputElement>) => Promise<void>;
}) {
  return (
    <label className={cx('btn btn--secondary', className, disabled && 'is-disabled')}>
      <ImageIcon size={20} />
      <span className="btn__label">{label}</span>
      <input
        type="file"
        accept="image/jpeg,image/png"
        multiple
        className="visually-hidden"
        disabled={disabled}
        onChange={(event) => void onPick(event)}
      />
    </label>
  );
}
