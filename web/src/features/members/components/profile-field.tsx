import { PROFILE_FIELDS, type LookupItem, type ProfileField, jaMember } from '@enishi/contract';
import { ComboboxField } from '@/components/ui/combobox';
import { TextArea } from '@/components/ui/text-area';
import { TextField } from '@/components/ui/text-field';
import { SelectField } from './select-field';

type Value = number | number[] | string | null;

interface FieldProps {
  field: ProfileField;
  value: Value;
  choices: LookupItem[];
  error: string | undefined;
  onChange: (value: Value) => void;
}

const p = jaMember.profile;
/** The long code lists, searched in a combobox instead of scrolled in a select. */
const SEARCHED = new Set<string>(['companies', 'occupations', 'media']);

/** One profile field as its kind asks: a select, checkboxes, a number, text or a date. */
export function ProfileFieldControl({ field, value, choices, error, onChange }: FieldProps) {
  const spec = PROFILE_FIELDS[field];
  const label = p.fields[field];
  const id = `profile-${field}`;
  switch (spec.kind) {
    case 'code':
      return (
        <CodeField
          id={id}
          label={label}
          field={field}
          value={value as number | null}
          choices={choices}
          error={error}
          onChange={onChange}
        />
      );
    case 'codes':
      return (
        <CodesField
          id={id}
          label={label}
          field={field}
          value={value as number[]}
          choices={choices}
          error={error}
          onChange={onChange}
        />
      );
    case 'number':
      return (
        <TextField
          id={id}
          label={label}
          name={field}
          type="number"
          inputMode="numeric"
          min={spec.min}
          max={spec.max}
          value={value === null ? '' : String(value)}
          error={error}
          onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
        />
      );
    case 'date':
      return (
        <TextField
          id={id}
          label={label}
          name={field}
          type="date"
          value={(value as string | null) ?? ''}
          error={error}
          onChange={(event) => onChange(event.target.value || null)}
        />
      );
    case 'text':
      return (
        <TextKindField
          id={id}
          label={label}
          field={field}
          max={spec.max}
          multiline={'multiline' in spec}
          value={value as string}
          error={error}
          onChange={onChange}
        />
      );
  }
}

/** Several codes of a table: a group of checkboxes under its legend. */
function CodesField({
  id,
  label,
  field,
  value,
  choices,
  error,
  onChange,
}: Omit<FieldProps, 'value'> & { id: string; label: string; value: number[] }) {
  const chosen = new Set(value);
  return (
    <fieldset className="plain-fieldset profile-codes" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="field__label">{label}</legend>
      <div className="profile-codes__items">
        {choices.map((item) => (
          <label key={item.code} className="profile-codes__item">
            <input
              type="checkbox"
              name={field}
              value={item.code}
              id={item === choices[0] ? id : undefined}
              checked={chosen.has(item.code)}
              onChange={(event) => {
                const next = new Set(chosen);
                if (event.target.checked) next.add(item.code);
                else next.delete(item.code);
                onChange([...next].sort((a, b) => a - b));
              }}
            />
            <span>{item.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** One code of a table: a select, or for a long list (companies, occupations) a combobox searched by typing. */
function CodeField({
  id,
  label,
  field,
  value,
  choices,
  error,
  onChange,
}: Omit<FieldProps, 'value'> & { id: string; label: string; value: number | null }) {
  const spec = PROFILE_FIELDS[field];
  // A long list (companies, occupations) is searched rather than scrolled (product.md §2.8).
  if ('lookup' in spec && SEARCHED.has(spec.lookup)) {
    return (
      <ComboboxField
        id={id}
        label={label}
        error={error}
        value={value === null ? '' : String(value)}
        options={choices.map((item) => ({ value: String(item.code), label: item.label }))}
        {...('required' in spec ? {} : { empty: { value: '', label: p.unset } })}
        onChange={(next) => onChange(next === '' ? null : Number(next))}
      />
    );
  }
  return (
    <SelectField
      id={id}
      label={label}
      name={field}
      value={value === null ? '' : String(value)}
      error={error}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
    >
      {'required' in spec ? null : <option value="">{p.unset}</option>}
      {choices.map((item) => (
        <option key={item.code} value={item.code}>
          {item.label}
        </option>
      ))}
    </SelectField>
  );
}

/** Text: a box of four rows for the long ones (PR), else a line. */
function TextKindField({
  id,
  label,
  field,
  max,
  multiline,
  value,
  error,
  onChange,
}: Omit<FieldProps, 'value' | 'choices'> & {
  id: string;
  label: string;
  max: number;
  multiline: boolean;
  value: string;
}) {
  return multiline ? (
    <TextArea
      id={id}
      label={label}
      name={field}
      rows={4}
      maxLength={max}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  ) : (
    <TextField
      id={id}
      label={label}
      name={field}
      maxLength={max}
      autoComplete="off"
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
