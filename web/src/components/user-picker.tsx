import { can, ROLE, ROLE_TRAITS, ja, type UserRow, jaMember } from '@enishi/contract';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { useUserSearch } from '@/lib/user-search';
import { Button } from '@/components/ui/button';
import { SearchForm } from '@/components/ui/search-form';
import { Spinner } from '@/components/ui/spinner';
import { RankPill } from '@/components/ui/rank-pill';
import { UserIcon } from '@/components/ui/user-icon';
import './user-picker.css';
import { Phrases } from '@/components/ui/phrases';

type UserPickerProps = {
  /** 101 men, 201 women, 3 staff (every staff role). */
  role: number;
  /** The list's accessible name, e.g. 男性会員の一覧. */
  label: string;
  selected: UserRow | null;
  onSelect: (row: UserRow | null) => void;
};

/**
 * A searchable list of users of one kind with one radio-selected (product.md §2: search, select, then act). The
 * keyword lives in the address (`?q=`), so coming back from an edit finds the same search. Each radio is
 * named by the user's name and described by their ID and rank.
 */
export function UserPicker({ role, label, selected, onSelect }: UserPickerProps) {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const [keyword, setKeyword] = useState(search);
  const [prompt, setPrompt] = useState(false);
  const result = useUserSearch({ role, keyword: search });
  const ids = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = keyword.trim();
    // product.md §8: an empty keyword asks for one (the list then shows everyone again).
    setPrompt(!next);
    if (next !== search) onSelect(null);
    setParams(next ? { q: next } : {}, { replace: true });
  }

  const rows = result.data?.rows ?? [];
  const count = result.data?.count ?? 0;
  return (
    <div className="user-picker">
      <SearchForm
        id={`${ids}-keyword`}
        label={jaMember.members.searchLabel}
        placeholder={jaMember.members.searchPlaceholder}
        buttonLabel={jaMember.members.search}
        value={keyword}
        describedBy={prompt ? `${ids}-prompt` : undefined}
        onChange={(value) => {
          setKeyword(value);
          if (value.trim()) setPrompt(false);
        }}
        onSubmit={onSubmit}
      />
      <p id={`${ids}-prompt`} className="user-picker__prompt" role="status">
        {prompt ? jaMember.members.searchPrompt : ''}
      </p>

      {result.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : result.isError ? (
        <div className="notice-box" role="alert">
          <p>
            <Phrases text={errorMessage(result.error)} />
          </p>
          <Button variant="quiet" onClick={() => void result.refetch()}>
            {ja.app.reload}
          </Button>
        </div>
      ) : (
        <>
          <p className="user-picker__count" aria-live="polite">
            <span className="visually-hidden">{jaMember.members.countLabel}</span>
            {jaMember.members.count(count)}
          </p>
          {rows.length === 0 ? (
            <p className="notice-box">
              <Phrases text={jaMember.members.notFound} />
            </p>
          ) : (
            <div className="card-list" role="radiogroup" aria-label={label}>
              {rows.map((row) => (
                <PickerRow
                  key={row.uid}
                  row={row}
                  name={`${ids}-pick`}
                  checked={selected?.uid === row.uid}
                  onSelect={() => onSelect(row)}
                />
              ))}
            </div>
          )}
          {count > rows.length ? (
            <p className="user-picker__more">{jaMember.members.moreHidden(rows.length)}</p>
          ) : null}
        </>
      )}
    </div>
  );
}

function PickerRow({
  row,
  name,
  checked,
  onSelect,
}: {
  row: UserRow;
  name: string;
  checked: boolean;
  onSelect: () => void;
}) {
  const id = useId();
  return (
    <div>
      <label className="picker-row" htmlFor={`${id}-radio`}>
        <input
          id={`${id}-radio`}
          className="picker-row__radio"
          type="radio"
          name={name}
          value={row.uid}
          checked={checked}
          aria-labelledby={`${id}-name`}
          aria-describedby={`${id}-detail`}
          onChange={onSelect}
        />
        <UserIcon name={row.name} role={row.role} image={row.image} size="md" />
        <span className="picker-row__body">
          <span id={`${id}-name`} className="picker-row__name">
            {row.name}
          </span>
          <span id={`${id}-detail`} className="picker-row__detail">
            {row.name_kana ? <span className="picker-row__kana">{row.name_kana}</span> : null}
            <span className="picker-row__login">ID: {row.id}</span>
            {ROLE_TRAITS[row.role]?.ranked ? <RankPill rank={row.rank} /> : null}
            {can({ role: row.role }, 'desk.use') ? (
              <span className="picker-row__role">{ja.roles[row.role] ?? ja.roles[ROLE.staff]}</span>
            ) : null}
          </span>
        </span>
      </label>
    </div>
  );
}
