import type { InputHTMLAttributes, Ref } from 'react';
import { FieldShell, type FieldShellProps } from './field-shell';

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> &
  FieldShellProps & { ref?: Ref<HTMLInputElement> };

export function TextField({ label, error, mark, id, ref, ...props }: TextFieldProps) {
  return (
    <FieldShell label={label} error={error} mark={mark} id={id}>
      {(control) => <input ref={ref} className="field__input" {...control} {...props} />}
    </FieldShell>
  );
}
