import { LIMITS, ja } from '@enishi/contract';
import { useEffect, useRef, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { ApiError } from '@/lib/api-error';
import { toast, toastSuccess } from '@/lib/toast';
import { useHydrated, useTypedBeforeHydration } from '@/lib/use-hydrated';
import { Button } from '@/components/ui/button';
import { CheckCircleIcon } from '@/components/ui/icons';
import { TextField } from '@/components/ui/text-field';
import { useCreateEntry } from '../hooks/use-create-entry';
import './entry-form.css';
import { Phrases } from './phrases';

type Field = 'name' | 'age' | 'email' | 'tel';
const fields: Field[] = ['name', 'age', 'email', 'tel'];

const labels: Record<Field, string> = {
  name: ja.intro.name,
  age: ja.intro.age,
  email: ja.intro.email,
  tel: ja.intro.tel,
};

const requiredText: Record<Field, string> = {
  name: ja.intro.nameRequired,
  age: ja.intro.ageRequired,
  email: ja.intro.emailRequired,
  tel: ja.intro.telRequired,
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

/**
 * The application form of the intro pages (product.md §4, §5): four required fields, each missing one named next
 * to its field; sent only when all are filled and the browser is online; toggles to a sent state.
 */
export function EntryForm({ type }: { type: 'male' | 'female' }) {
  const create = useCreateEntry();
  const hydrated = useHydrated();
  const [values, setValues] = useState(blank);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const sentHeading = useRef<HTMLHeadingElement>(null);
  useTypedBeforeHydration(() => {
    const typed = fields.map((field) => [field, inputs.current[field]?.value ?? ''] as const);
    if (typed.some(([, value]) => value)) setValues({ ...blank, ...Object.fromEntries(typed) });
  });

  useEffect(() => {
    if (sent) sentHeading.current?.focus();
  }, [sent]);

  function onChange(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (value.trim()) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.pending) return;
    setFormError(null);
    const missing = fields.filter((field) => !values[field].trim());
    setErrors(Object.fromEntries(missing.map((field) => [field, requiredText[field]])));
    if (missing[0]) {
      inputs.current[missing[0]]?.focus();
      return;
    }
    if (!navigator.onLine) {
      setFormError(ja.errors.offline);
      toast(ja.intro.failed);
      return;
    }
    create
      .run({
        type,
        name: values.name.trim(),
        age: values.age.trim(),
        email: values.email.trim(),
        tel: values.tel.trim(),
      })
      .then(
        () => {
          setSent(true);
          toastSuccess(ja.intro.sent);
        },
        (error: unknown) => {
          toast(ja.intro.failed);
          // The server's reason for bad input (e.g. the age rule) tells the applicant what to fix.
          if (error instanceof ApiError && (error.status === 400 || error.offline))
            setFormError(error.message);
        },
      );
  }

  if (sent) {
    return (
      <div className="entry-sent">
        <CheckCircleIcon size={40} className="entry-sent__icon" />
        <h3 ref={sentHeading} tabIndex={-1} className="entry-sent__title">
          {ja.intro.sent}
        </h3>
        <p className="entry-sent__body">
          <Phrases text={ja.intro.sentBody} />
        </p>
      </div>
    );
  }

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
          mark={ja.intro.required}
          required
          value={values[field]}
          error={errors[field]}
          onChange={(event) => onChange(field, event.target.value)}
          {...inputProps[field]}
        />
      ))}
      {formError ? (
        <p className="entry-form__error" role="alert">
          {formError}
        </p>
      ) : null}
      <Button type="submit" block busy={create.pending} ready={hydrated} className="entry-form__submit">
        {ja.intro.submit}
      </Button>
    </form>
  );
}
