import { useId, useState, type KeyboardEvent } from 'react';
import { FieldShell, type FieldShellProps } from './field-shell';
import { cx } from './class-names';
import './combobox.css';

export type ComboboxOption = { value: string; label: string };

/** Most options listed at once; typing narrows the rest. */
const SHOWN = 50;

/** What the text box holds, whether the list is open, the active option, and the keys that move and choose. */
function useComboboxState(
  options: ComboboxOption[],
  empty: ComboboxOption | undefined,
  onChange: (value: string) => void,
) {
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const query = (text ?? '').trim();
  const all = empty ? [empty, ...options] : options;
  const matches = (query ? options.filter((option) => option.label.includes(query)) : all).slice(0, SHOWN);

  function choose(option: ComboboxOption) {
    onChange(option.value);
    setText(null);
    setOpen(false);
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => Math.max(0, Math.min(matches.length - 1, index + step)));
    } else if (event.key === 'Enter' && open && matches[active]) {
      event.preventDefault();
      choose(matches[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setText(null);
      setOpen(false);
    }
  }
  return { text, setText, open, setOpen, active, setActive, matches, choose, onKeyDown };
}

/**
 * A searchable choice from a long list (companies, occupations: product.md §2.8), in the ARIA combobox
 * pattern: a text box with a popup listbox; typing filters by any part of the label, ↓/↑ move, Enter
 * chooses, Esc closes and puts the chosen label back. `empty` (if given) is the option for no value.
 */
export function ComboboxField({
  id,
  label,
  error,
  mark,
  value,
  options,
  empty,
  onChange,
}: FieldShellProps & {
  id: string;
  value: string;
  options: ComboboxOption[];
  empty?: ComboboxOption;
  onChange: (value: string) => void;
}) {
  const listId = useId();
  const chosen = options.find((option) => option.value === value) ?? null;
  const { text, setText, open, setOpen, active, setActive, matches, choose, onKeyDown } = useComboboxState(
    options,
    empty,
    onChange,
  );
  const optionId = (index: number) => `${listId}-${index}`;

  return (
    <FieldShell label={label} error={error} mark={mark} id={id}>
      {(control) => (
        <div className="combobox">
          <input
            {...control}
            type="text"
            role="combobox"
            className="field__input combobox__input"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open && matches[active] ? optionId(active) : undefined}
            value={text ?? chosen?.label ?? ''}
            placeholder={empty?.label}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
              setOpen(true);
            }}
            onFocus={(event) => event.target.select()}
            onClick={() => setOpen(true)}
            onBlur={() => {
              setText(null);
              setOpen(false);
            }}
            onKeyDown={onKeyDown}
          />
          <ul id={listId} role="listbox" aria-label={label} className="combobox__list" hidden={!open}>
            {matches.map((option, index) => (
              <li
                key={option.value}
                id={optionId(index)}
                role="option"
                aria-selected={option.value === value}
                className={cx('combobox__option', index === active && 'combobox__option--active')}
                // Chosen on mousedown, before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(option);
                }}
              >
                {option.label}
              </li>
            ))}
          </ul>
        </div>
      )}
    </FieldShell>
  );
}
