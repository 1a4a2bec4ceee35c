import type { Ref, SelectHTMLAttributes } from 'react';
import { FieldShell, type FieldShellProps } from '@/components/ui/field-shell';

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> &
  FieldShellProps & { id: string; selectRef?: Ref<HTMLSelectElement> };

/** A select in the field shell (label, mark, error), with the form's own arrow: rank, profile codes. */
export function SelectField({ id, label, mark, error, selectRef, children, ...props }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} mark={mark} id={id}>
      {(control) => (
        <span className="member-form__select-wrap">
          <select ref={selectRef} className="field__input member-form__select" {...control} {...props}>
            {children}
          </select>
        </span>
      )}
    </FieldShell>
  );
}
