import { useId, type ReactNode } from 'react';
import './text-field.css';
import { Phrases } from './phrases';

export type FieldShellProps = {
  label: string;
  /** Shown under the field and announced with it. */
  error?: string | undefined;
  /** Small mark after the label, e.g. 必須. */
  mark?: string | undefined;
  id?: string | undefined;
};

/** What the control inside needs to be labelled and described by the shell. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/** The label, mark and error around a form control (TextField, TextArea). */
export function FieldShell({
  label,
  error,
  mark,
  id,
  children,
}: FieldShellProps & { children: (control: FieldControlProps) => ReactNode }) {
  const ownId = useId();
  const inputId = id ?? ownId;
  const errorId = `${inputId}-error`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        {label}
        {mark ? (
          <span className="field__mark" aria-hidden="true">
            {mark}
          </span>
        ) : null}
      </label>
      {children({
        id: inputId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      {error ? (
        <p id={errorId} className="field__error">
          <Phrases text={error} />
        </p>
      ) : null}
    </div>
  );
}
