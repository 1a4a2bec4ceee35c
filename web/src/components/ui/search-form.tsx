import type { FormEvent } from 'react';
import { Button } from './button';
import { SearchIcon } from './icons';
import './search-form.css';

/** A keyword search over a list (talks, members): the field with its icon and label, and the search button. */
export function SearchForm({
  id,
  label,
  placeholder,
  buttonLabel,
  value,
  describedBy,
  onChange,
  onSubmit,
}: {
  id: string;
  label: string;
  placeholder: string;
  buttonLabel: string;
  value: string;
  describedBy?: string | undefined;
  onChange: (value: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form role="search" className="search-form" onSubmit={onSubmit}>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <span className="search-form__field">
        <SearchIcon size={20} className="search-form__icon" />
        <input
          id={id}
          className="search-form__input"
          type="search"
          enterKeyHint="search"
          maxLength={50}
          placeholder={placeholder}
          aria-describedby={describedBy}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      </span>
      <Button type="submit" variant="secondary" className="search-form__submit">
        {buttonLabel}
      </Button>
    </form>
  );
}
