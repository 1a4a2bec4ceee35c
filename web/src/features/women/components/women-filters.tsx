import { LOOKUPS, type EntryQueryInput, type LookupItem, jaMember } from '@enishi/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';

type Range = 'age' | 'height' | 'bust' | 'rank';
type Single = 'sake' | 'golf' | 'tobacco' | 'joint_party';
type Many = 'blood' | 'languages' | 'type' | 'area';

const AGES = Array.from({ length: 43 }, (_, i) => ({ code: 18 + i, label: jaMember.women.age(18 + i) }));
const HEIGHTS = Array.from({ length: 13 }, (_, i) => ({
  code: 140 + i * 5,
  label: jaMember.women.height(140 + i * 5),
}));
const BUSTS = Array.from({ length: 11 }, (_, i) => ({ code: 70 + i * 4, label: `${70 + i * 4}` }));

const RANGES: { key: Range; label: string; items: readonly LookupItem[] }[] = [
  { key: 'age', label: jaMember.women.ageRange, items: AGES },
  { key: 'height', label: jaMember.women.heightRange, items: HEIGHTS },
  { key: 'bust', label: jaMember.women.bustRange, items: BUSTS },
  { key: 'rank', label: jaMember.women.rankRange, items: LOOKUPS.womenRanks },
];
const SINGLES: { key: Single; label: string; items: readonly LookupItem[] }[] = [
  { key: 'sake', label: jaMember.women.sake, items: LOOKUPS.drinking },
  { key: 'golf', label: jaMember.women.golf, items: LOOKUPS.golf },
  { key: 'tobacco', label: jaMember.women.tobacco, items: LOOKUPS.tobacco },
  { key: 'joint_party', label: jaMember.women.jointParty, items: LOOKUPS.jointParty },
];
const MANY: { key: Many; label: string; items: readonly LookupItem[] }[] = [
  { key: 'area', label: jaMember.women.area, items: LOOKUPS.areas.filter((item) => item.label) },
  { key: 'blood', label: jaMember.women.blood, items: LOOKUPS.bloodTypes },
  { key: 'type', label: jaMember.women.type, items: LOOKUPS.looks },
  { key: 'languages', label: jaMember.women.languages, items: LOOKUPS.languages },
];

/**
 * One choice among codes, 指定なし first. A range end's label is for screen readers only (the fieldset's
 * legend is shown); a single filter (`className` given) shows its label above.
 */
function Select(props: {
  id: string;
  label: string;
  value?: number;
  items: readonly LookupItem[];
  className?: string;
  onChange(value?: number): void;
}) {
  return (
    <label className={props.className ?? 'women-filters__select'} htmlFor={props.id}>
      <span className={props.className ? undefined : 'visually-hidden'}>{props.label}</span>
      <select
        id={props.id}
        value={props.value ?? ''}
        onChange={(event) =>
          props.onChange(event.target.value === '' ? undefined : Number(event.target.value))
        }
      >
        <option value="">{jaMember.women.any}</option>
        {props.items.map((item) => (
          <option key={item.code} value={item.code}>
            {item.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What a row of the filters is given: the draft it shows and how to change it. */
type RowProps = {
  label: string;
  items: readonly LookupItem[];
  draft: EntryQueryInput;
  set: (patch: Partial<EntryQueryInput>) => void;
};

/** A range: from and to, two selects under the range's legend. */
function RangeRow({ name, label, items, draft, set }: RowProps & { name: Range }) {
  return (
    <fieldset className="women-filters__row">
      <legend>{label}</legend>
      <Select
        id={`f-${name}-min`}
        label={`${label} ${jaMember.women.min}`}
        items={items}
        value={draft[`${name}_min`] as number | undefined}
        onChange={(v) => set({ [`${name}_min`]: v })}
      />
      <span aria-hidden="true">〜</span>
      <Select
        id={`f-${name}-max`}
        label={`${label} ${jaMember.women.max}`}
        items={items}
        value={draft[`${name}_max`] as number | undefined}
        onChange={(v) => set({ [`${name}_max`]: v })}
      />
    </fieldset>
  );
}

/** Several codes (areas, blood types, types, languages): checkboxes under the row's legend. */
function ChecksRow({ name, label, items, draft, set }: RowProps & { name: Many }) {
  const chosen = (draft[name] as number[] | undefined) ?? [];
  return (
    <fieldset className="women-filters__checks">
      <legend>{label}</legend>
      {items.map((item) => (
        <label key={item.code} className="women-filters__check">
          <input
            type="checkbox"
            checked={chosen.includes(item.code)}
            onChange={(event) =>
              set({
                [name]: event.target.checked
                  ? [...chosen, item.code]
                  : chosen.filter((code) => code !== item.code),
              })
            }
          />
          <span>{item.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The search filters of the women's list (product.md §3.14): ranges as two selects, the club (company) and
 * sake / golf / tobacco / joint party as one choice, areas, blood types, types and languages as checkboxes.
 * Applied on submit. `companies` is the club's company list; without companies there is no club control.
 */
export function WomenFilters({
  value,
  companies = [],
  onApply,
}: {
  value: EntryQueryInput;
  companies?: readonly LookupItem[];
  onApply(query: EntryQueryInput): void;
}) {
  const [draft, setDraft] = useState<EntryQueryInput>(value);
  const set = (patch: Partial<EntryQueryInput>) => setDraft((current) => ({ ...current, ...patch }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const clean = Object.fromEntries(
      Object.entries(draft).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
    );
    onApply(clean);
  }

  return (
    <form className="women-filters" onSubmit={submit} aria-label={jaMember.women.search}>
      {RANGES.map(({ key, label, items }) => (
        <RangeRow key={key} name={key} label={label} items={items} draft={draft} set={set} />
      ))}
      <div className="women-filters__singles">
        {companies.length > 0 ? (
          <Select
            id="f-club"
            label={jaMember.women.club}
            items={companies}
            className="women-filters__single women-filters__single--wide"
            value={(draft.club as number[] | undefined)?.[0]}
            onChange={(v) => set({ club: v === undefined ? undefined : [v] })}
          />
        ) : null}
        {SINGLES.map(({ key, label, items }) => (
          <Select
            key={key}
            className="women-filters__single"
            id={`f-${key}`}
            label={label}
            items={items}
            value={(draft[key] as number[] | undefined)?.[0]}
            onChange={(v) => set({ [key]: v === undefined ? undefined : [v] })}
          />
        ))}
      </div>
      {MANY.map(({ key, label, items }) => (
        <ChecksRow key={key} name={key} label={label} items={items} draft={draft} set={set} />
      ))}
      <div className="women-filters__actions">
        <Button
          variant="quiet"
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          {jaMember.women.clear}
        </Button>
        <Button type="submit">{jaMember.women.apply}</Button>
      </div>
    </form>
  );
}
