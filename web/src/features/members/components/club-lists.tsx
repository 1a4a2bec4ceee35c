import { CLUB_LOOKUPS, ja, type ClubLookupName, type LookupItem, jaMember } from '@enishi/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TrashIcon } from '@/components/ui/icons';
import { useLookups, useSaveClubList } from '../api/lookups';
import '@/components/ui/text-field.css';
import './profiles.css';
import './club-lists.css';
import { Phrases } from '@/components/ui/phrases';

const t = jaMember.profile.lookups;

/** /staff/lists: the owner edits the club's own lists (companies, media tied to a company, charge staff). */
export function ClubLists() {
  const lookups = useLookups();
  const [list, setList] = useState<ClubLookupName>('companies');
  if (lookups.isPending) return <Spinner label={ja.app.loading} />;
  if (lookups.isError) {
    return (
      <p className="notice-box" role="alert">
        <Phrases text={errorMessage(lookups.error)} />
      </p>
    );
  }
  return (
    <div className="club-lists">
      <p className="club-lists__lead">
        <Phrases text={t.lead} />
      </p>
      <div className="club-lists__tabs" role="tablist" aria-label={t.title}>
        {CLUB_LOOKUPS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`club-tab-${name}`}
            aria-selected={list === name}
            aria-controls="club-list-panel"
            className="club-lists__tab"
            onClick={() => setList(name)}
          >
            {t[name]}
            <span className="club-lists__count">{lookups.data[name]?.length ?? 0}</span>
          </button>
        ))}
      </div>
      <div id="club-list-panel" role="tabpanel" aria-labelledby={`club-tab-${list}`}>
        <ClubListEditor
          key={list}
          list={list}
          items={lookups.data[list] ?? []}
          companies={lookups.data.companies ?? []}
        />
      </div>
    </div>
  );
}

type Row = { code: string; label: string; parent: string };

/** One entry of a list: its code, its label, for media the company it belongs to, and its delete button. */
function ClubListRow({
  row,
  index,
  media,
  companies,
  onChange,
  onRemove,
}: {
  row: Row;
  index: number;
  media: boolean;
  companies: LookupItem[];
  onChange: (change: Partial<Row>) => void;
  onRemove: () => void;
}) {
  return (
    <li className="club-list__row">
      <input
        className="field__input club-list__code"
        inputMode="numeric"
        aria-label={`${t.code} ${index + 1}`}
        value={row.code}
        onChange={(event) => onChange({ code: event.target.value.replace(/\D/g, '').slice(0, 6) })}
      />
      <input
        className="field__input club-list__label"
        aria-label={`${t.label} ${index + 1}`}
        maxLength={100}
        value={row.label}
        onChange={(event) => onChange({ label: event.target.value })}
      />
      {media ? (
        <select
          className="field__input club-list__parent"
          aria-label={`${t.parent} ${index + 1}`}
          value={row.parent}
          onChange={(event) => onChange({ parent: event.target.value })}
        >
          <option value="">{jaMember.profile.unset}</option>
          {companies.map((company) => (
            <option key={company.code} value={company.code}>
              {company.label}
            </option>
          ))}
        </select>
      ) : null}
      <button
        type="button"
        className="profile-photos__button profile-photos__button--danger"
        aria-label={`${t.delete} ${row.label}`}
        onClick={onRemove}
      >
        <TrashIcon size={18} />
      </button>
    </li>
  );
}

function ClubListEditor({
  list,
  items,
  companies,
}: {
  list: ClubLookupName;
  items: LookupItem[];
  companies: LookupItem[];
}) {
  const [rows, setRows] = useState<Row[]>(() =>
    items.map((item) => ({ code: String(item.code), label: item.label, parent: String(item.parent ?? '') })),
  );
  const save = useSaveClubList();
  const set = (index: number, change: Partial<Row>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const nextCode = () => String(Math.max(0, ...rows.map((row) => Number(row.code) || 0)) + 1);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = rows.map((row) => ({
      code: Number(row.code),
      label: row.label,
      ...(list === 'media' && row.parent ? { parent: Number(row.parent) } : {}),
    }));
    save.mutate(
      { list, items: body },
      { onSuccess: () => toast(t.saved), onError: (error) => toast(errorMessage(error)) },
    );
  }

  return (
    <form className="club-list" onSubmit={onSubmit} noValidate>
      {rows.length === 0 ? (
        <p className="notice-box">
          <Phrases text={jaMember.profile.lookups.empty} />
        </p>
      ) : null}
      <ol className="card-list club-list__rows" hidden={rows.length === 0}>
        {rows.map((row, index) => (
          <ClubListRow
            key={index}
            row={row}
            index={index}
            media={list === 'media'}
            companies={companies}
            onChange={(change) => set(index, change)}
            onRemove={() => setRows((current) => current.filter((_, i) => i !== index))}
          />
        ))}
      </ol>
      <div className="club-list__actions">
        <Button
          variant="secondary"
          onClick={() => setRows((current) => [...current, { code: nextCode(), label: '', parent: '' }])}
        >
          {t.add}
        </Button>
        <Button type="submit" busy={save.isPending}>
          {t.save}
        </Button>
      </div>
    </form>
  );
}
