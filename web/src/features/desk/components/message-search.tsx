import { ja, type SearchHit, jaMember } from '@enishi/contract';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { listTime } from '@/lib/japan-date';
import { MoreButton } from '@/components/ui/more-button';
import { SearchForm } from '@/components/ui/search-form';
import { Spinner } from '@/components/ui/spinner';
import { useMessageSearch } from '../api/search';
import './desk.css';
import { Phrases } from '@/components/ui/phrases';

/** Where a hit opens: its talk, scrolled to the message (`?m=`), which is highlighted there. */
export const hitPath = (hit: SearchHit): string =>
  `${hit.conversation_type === 'staff' ? '/talk/staff' : '/talk'}/${hit.conversation_id}?m=${hit.id}`;

/** The matched word marked in a hit's text. */
function Marked({ text, word }: { text: string; word: string }) {
  const at = word ? text.toLowerCase().indexOf(word.toLowerCase()) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark className="desk-search__mark">{text.slice(at, at + word.length)}</mark>
      {text.slice(at + word.length)}
    </>
  );
}

/** Every talk, or the one talk open: offered when a talk is open. */
function SearchScope({ onlyThis, onChange }: { onlyThis: boolean; onChange: (onlyThis: boolean) => void }) {
  return (
    <fieldset className="plain-fieldset desk-search__scope">
      <legend className="visually-hidden">{jaMember.desk.search}</legend>
      <label>
        <input type="radio" checked={!onlyThis} onChange={() => onChange(false)} />
        {jaMember.messageSearch.searchAll}
      </label>
      <label>
        <input type="radio" checked={onlyThis} onChange={() => onChange(true)} />
        {jaMember.messageSearch.searchThis}
      </label>
    </fieldset>
  );
}

/** One hit: its talk, when, who wrote it, and the text with the word marked; opens the talk at it. */
function HitLink({
  hit,
  word,
  now,
  onOpen,
}: {
  hit: SearchHit;
  word: string;
  now: Date;
  onOpen?: () => void;
}) {
  return (
    <Link to={hitPath(hit)} className="desk-hit inset-focus" onClick={onOpen}>
      <span className="desk-hit__head">
        <span className="desk-hit__room">{hit.conversation_name}</span>
        <time className="desk-hit__time" dateTime={hit.date}>
          {listTime(hit.date, now)}
        </time>
      </span>
      <span className="desk-hit__from">{hit.name}</span>
      <span className="desk-hit__text">
        <Marked text={hit.message} word={word} />
      </span>
    </Link>
  );
}

/**
 * Message search (product.md §2.6): across every talk the user sees, or the one talk given; each hit opens the
 * talk at that message. The word typed is searched as it is, kanji and kana alike, from one character.
 */
export function MessageSearch({
  conversationId = null,
  startInTalk = false,
  onOpen,
}: {
  conversationId?: number | null;
  /** Start with the one talk chosen (else every talk, with the one talk offered). */
  startInTalk?: boolean;
  onOpen?: () => void;
}) {
  const [keyword, setKeyword] = useState('');
  const [query, setQuery] = useState('');
  const [onlyThis, setOnlyThis] = useState(startInTalk && conversationId !== null);
  const scope = onlyThis ? conversationId : null;
  const search = useMessageSearch(query, scope);
  const hintId = useId();
  const rows = search.data?.pages.flatMap((page) => page.rows) ?? [];
  const [now] = useState(() => new Date());

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setQuery(keyword.trim());
  }

  return (
    <section className="desk-search" aria-label={jaMember.desk.search}>
      <SearchForm
        id="message-search"
        label={jaMember.messageSearch.searchLabel}
        placeholder={jaMember.messageSearch.searchPlaceholder}
        buttonLabel={jaMember.messageSearch.searchButton}
        describedBy={hintId}
        value={keyword}
        onChange={setKeyword}
        onSubmit={onSubmit}
      />
      <p id={hintId} className="desk-search__hint">
        <Phrases text={jaMember.messageSearch.searchHint} />
      </p>
      {conversationId !== null ? <SearchScope onlyThis={onlyThis} onChange={setOnlyThis} /> : null}
      {!query ? null : search.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : search.isError ? (
        <p className="notice-box" role="alert">
          <Phrases text={errorMessage(search.error)} />
        </p>
      ) : (
        <>
          <p className="desk-search__count" role="status">
            {rows.length === 0 && !search.hasNextPage
              ? jaMember.messageSearch.searchEmpty
              : jaMember.messageSearch.searchResults(rows.length, search.hasNextPage)}
          </p>
          {rows.length > 0 ? (
            <ul className="card-list" aria-label={jaMember.desk.search}>
              {rows.map((hit) => (
                <li key={hit.id}>
                  <HitLink hit={hit} word={query} now={now} onOpen={onOpen} />
                </li>
              ))}
            </ul>
          ) : null}
          <MoreButton query={search} block>
            {jaMember.messageSearch.searchMore}
          </MoreButton>
        </>
      )}
    </section>
  );
}
