import type { Ref, TextareaHTMLAttributes } from 'react';
import { FieldShell, type FieldShellProps } from './field-shell';

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> &
  FieldShellProps & { ref?: Ref<HTMLTextAreaElement> };

/** A multi-line TextField: the same label, mark and error. */
export function TextArea({ label, error, mark, id, ref, className, ...props }: TextAreaProps) {
  return (
    <FieldShell label={label} error={error} mark={mark} id={id}>
      {(control) => (
        <textarea
          ref={ref}
          className={className ? `field__input ${className}` : 'field__input'}
          {...control}
          {...props}
        />
      )}
    </FieldShell>
  );
}
