import { useId, type InputHTMLAttributes, type Ref } from 'react';
import './text-field.css';

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** Shown under the field and announced with it. */
  error?: string | undefined;
  /** Small mark after the label, e.g. 必須. */
  mark?: string | undefined;
  ref?: Ref<HTMLInputElement>;
};

export function TextField({ label, error, mark, id, ref, ...props }: TextFieldProps) {
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
      <input
        id={inputId}
        ref={ref}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...props}
      />
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
