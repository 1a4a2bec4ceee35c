import { EntryQuery, ja, type EntryQueryInput, jaMember } from '@enishi/contract';
import { useCallback, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { useLoadMore } from '@/lib/use-load-more';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { Spinner } from '@/components/ui/spinner';
import { cx } from '@/components/ui/class-names';
import { useCompanies, useWomen } from '../api/women';
import { WomanCard } from './woman-card';
import { WomenFilters } from './women-filters';
import './women.css';

/** The filters live in the address (`?q=` JSON, `?tab=favorites`), so coming back from a profile finds them. */
function useListState() {
  const [params, setParams] = useSearchParams();
  const favorites = params.get('tab') === 'favorites';
  const raw = params.get('q');
  const filters = useMemo<EntryQueryInput>(() => {
    if (!raw) return {};
    try {
      const parsed = EntryQuery.safeParse(JSON.parse(raw));
      return parsed.success ? (JSON.parse(raw) as EntryQueryInput) : {};
    } catch {
      return {};
    }
  }, [raw]);
  const go = (next: { favorites?: boolean; filters?: EntryQueryInput }) => {
    const f = next.filters ?? filters;
    const tab = next.favorites ?? favorites;
    setParams(
      {
        ...(tab ? { tab: 'favorites' } : {}),
        ...(Object.keys(f).length > 0 ? { q: JSON.stringify(f) } : {}),
      },
      { replace: true },
    );
  };
  return { favorites, filters, go };
}

/** すべて / お気に入り: links to the two tabs' addresses, switched in place. */
function WomenTabs({
  base,
  favorites,
  onTab,
}: {
  base: string;
  favorites: boolean;
  onTab: (favorites: boolean) => void;
}) {
  return (
    <nav className="women__tabs" aria-label={jaMember.women.tabs}>
      <Link
        to={base}
        className={cx('women__tab', !favorites && 'women__tab--on')}
        aria-current={!favorites ? 'page' : undefined}
        onClick={(event) => {
          event.preventDefault();
          onTab(false);
        }}
      >
        {jaMember.women.all}
      </Link>
      <Link
        to={`${base}?tab=favorites`}
        className={cx('women__tab', favorites && 'women__tab--on')}
        aria-current={favorites ? 'page' : undefined}
        onClick={(event) => {
          event.preventDefault();
          onTab(true);
        }}
      >
        {jaMember.women.favorites}
      </Link>
    </nav>
  );
}

/**
 * The women's list for men (product.md §19): all / favourites tabs, the search filters, cards in a grid, more
 * pages as the user scrolls (TanStack useInfiniteQuery). `base` is the address it lives at (/member, or
 * /member/women beside the member site).
 */
export function WomenList({ base = '/member' }: { base?: string }) {
  const { favorites, filters, go } = useListState();
  const query = useMemo(() => (favorites ? { ...filters, favorites: true } : filters), [favorites, filters]);
  const women = useWomen(query);
  const companies = useCompanies();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = women;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const end = useLoadMore(hasNextPage, isFetchingNextPage, loadMore, '480px');
  const rows = women.data?.pages.flatMap((page) => page.rows) ?? [];
  const total = women.data?.pages[0]?.total;
  const filtered = Object.keys(filters).length > 0;

  return (
    <div className="women">
      <WomenTabs base={base} favorites={favorites} onTab={(next) => go({ favorites: next })} />

      <details className="women__search paper-card" open={filtered || undefined}>
        <summary>
          {jaMember.women.searchOpen}
          {filtered ? <span className="women__search-on">{jaMember.women.search}</span> : null}
        </summary>
        <WomenFilters
          key={JSON.stringify(filters)}
          value={filters}
          companies={companies}
          onApply={(next) => go({ filters: next })}
        />
      </details>

      {total !== undefined ? (
        <p className="women__total" role="status">
          {jaMember.women.total(total)}
        </p>
      ) : null}

      {women.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : women.isError && rows.length === 0 ? (
        <div className="notice-box" role="alert">
          <p>
            <Phrases text={errorMessage(women.error)} />
          </p>
          <Button variant="quiet" onClick={() => void women.refetch()}>
            {ja.app.reload}
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <div className="notice-box">
          <p>
            <strong>{favorites && !filtered ? jaMember.women.noFavorites : jaMember.women.noHits}</strong>
          </p>
          <p>
            <Phrases
              text={favorites && !filtered ? jaMember.women.noFavoritesNext : jaMember.women.noHitsNext}
            />
          </p>
        </div>
      ) : (
        <ul className="women__grid" aria-label={favorites ? jaMember.women.favorites : jaMember.women.title}>
          {rows.map((row) => (
            <WomanCard key={row.id} row={row} />
          ))}
        </ul>
      )}
      <div ref={end} className="women__end">
        {isFetchingNextPage ? <Spinner label={jaMember.women.more} /> : null}
      </div>
    </div>
  );
}
