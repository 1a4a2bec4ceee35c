import { LIMITS, entryFieldError, ja, type EntryField, jaIntro } from '@enishi/contract';
import { useEffect, useRef, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { ApiError } from '@/lib/api-error';
import { toast, toastSuccess } from '@/lib/toast';
import { useHydrated, useTypedBeforeHydration } from '@/lib/use-hydrated';
import { Button } from '@/components/ui/button';
import { CheckCircleIcon } from '@/components/ui/icons';
import { TextField } from '@/components/ui/text-field';
import { useCreateEntry } from '../hooks/use-create-entry';
import './entry-form.css';
import { PublicPhrases } from '@/components/ui/public-phrases';

type Field = EntryField;
const fields: Field[] = ['name', 'age', 'email', 'tel'];

const labels: Record<Field, string> = {
  name: jaIntro.name,
  age: jaIntro.age,
  email: jaIntro.email,
  tel: jaIntro.tel,
};

const inputProps: Record<Field, InputHTMLAttributes<HTMLInputElement>> = {
  name: { autoComplete: 'name', maxLength: LIMITS.nameMax },
  age: { inputMode: 'numeric', autoComplete: 'off', maxLength: 3 },
  email: {
    type: 'email',
    inputMode: 'email',
    autoComplete: 'email',
    maxLength: LIMITS.emailMax,
    spellCheck: false,
  },
  tel: { type: 'tel', inputMode: 'tel', autoComplete: 'tel', maxLength: LIMITS.telMax },
};

const blank: Record<Field, string> = { name: '', age: '', email: '', tel: '' };

/** What is sent: the four fields as typed, trimmed. */
const entryBody = (type: 'male' | 'female', values: Record<Field, string>) => ({
  type,
  name: values.name.trim(),
  age: values.age.trim(),
  email: values.email.trim(),
  tel: values.tel.trim(),
});

/**
 * The four fields' values (also what was typed before the app took the page over), their messages, and their
 * boxes (to focus the first wrong one).
 */
function useEntryFields(type: 'male' | 'female') {
  const [values, setValues] = useState(blank);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  useTypedBeforeHydration(() => {
    const typed = fields.map((field) => [field, inputs.current[field]?.value ?? ''] as const);
    if (typed.some(([, value]) => value)) setValues({ ...blank, ...Object.fromEntries(typed) });
  });

  const check = (field: Field, value: string) =>
    setErrors((current) => ({ ...current, [field]: entryFieldError(field, value, type) ?? undefined }));

  function onChange(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    // A field already marked is checked again as it is corrected; others wait until the member leaves them.
    if (errors[field]) check(field, value);
  }

  return { values, errors, setErrors, inputs, check, onChange };
}

/** The sent state that replaces the form, its heading focused. */
function EntrySent() {
  const sentHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    sentHeading.current?.focus();
  }, []);
  return (
    <div className="entry-sent">
      <CheckCircleIcon size={40} className="entry-sent__icon" />
      <h3 ref={sentHeading} tabIndex={-1} className="entry-sent__title">
        {jaIntro.sent}
      </h3>
      <p className="entry-sent__body">
        <PublicPhrases text={jaIntro.sentBody} />
      </p>
    </div>
  );
}

/**
 * The application form of the intro pages (product.md §4, §5): four required fields, each checked where it is
 * typed (on leaving it, and again as it is corrected) with its own message (entry-rules.ts: women 20 or older,
 * e-mail and phone formats); sent only when all are right and the browser is online; toggles to a sent state.
 * A refusal by the server shows its own reason, never the generic failure.
 */
export function EntryForm({ type }: { type: 'male' | 'female' }) {
  const create = useCreateEntry();
  const hydrated = useHydrated();
  const { values, errors, setErrors, inputs, check, onChange } = useEntryFields(type);
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.pending) return;
    setFormError(null);
    const found = fields.map((field) => [field, entryFieldError(field, values[field], type)] as const);
    const wrong = found.filter(([, message]) => message);
    setErrors(Object.fromEntries(wrong));
    if (wrong[0]) {
      inputs.current[wrong[0][0]]?.focus();
      return;
    }
    if (!navigator.onLine) {
      setFormError(ja.errors.offline);
      toast(jaIntro.failed);
      return;
    }
    create.run(entryBody(type, values)).then(
      () => {
        setSent(true);
        toastSuccess(jaIntro.sent);
      },
      (error: unknown) => {
        // The server's reason for bad input (e.g. the age rule) tells the applicant what to fix; only a
        // failure that is not about the input is the generic 送信失敗しました.
        if (error instanceof ApiError && (error.status === 400 || error.status === 429 || error.offline)) {
          setFormError(error.message);
          toast(error.message);
        } else toast(jaIntro.failed);
      },
    );
  }

  if (sent) return <EntrySent />;

  // The button waits for the app to take the prerendered page over (lib/use-hydrated); POST all the same,
  // so a form sent by the browser itself could never put its fields in a URL.
  return (
    <form className="entry-form" method="post" noValidate onSubmit={onSubmit} onFocus={create.preload}>
      {fields.map((field) => (
        <TextField
          key={field}
          ref={(element) => {
            inputs.current[field] = element;
          }}
          id={`entry-${field}`}
          name={field}
          label={labels[field]}
          mark={jaIntro.required}
          required
          value={values[field]}
          error={errors[field]}
          onChange={(event) => onChange(field, event.target.value)}
          onBlur={(event) => {
            if (event.target.value) check(field, event.target.value);
          }}
          {...inputProps[field]}
        />
      ))}
      {formError ? (
        <p className="entry-form__error" role="alert">
          {formError}
        </p>
      ) : null}
      <Button type="submit" block busy={create.pending} ready={hydrated} className="entry-form__submit">
        {jaIntro.submit}
      </Button>
    </form>
  );
}
