import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import './text-field.css';

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  /** Shown under the field and announced with it. */
  error?: string | undefined;
  /** Small mark after the label, e.g. 必須. */
  mark?: string | undefined;
  ref?: Ref<HTMLTextAreaElement>;
};

/** A multi-line TextField: the same label, mark and error. */
export function TextArea({ label, error, mark, id, ref, className, ...props }: TextAreaProps) {
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
      <textarea
        id={inputId}
        ref={ref}
        className={className ? `field__input ${className}` : 'field__input'}
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
