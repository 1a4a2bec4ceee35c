import { LOOKUPS, lookupLabel, type EntryRow, jaMember } from '@enishi/contract';
import { Link } from 'react-router';
import { FavoriteStar } from './favorite-star';

/** What a card says under the name: age, area, height (whatever is known). */
export function womanFacts(row: Pick<EntryRow, 'age' | 'area' | 'height'>): string {
  return [
    row.age === null ? '' : jaMember.women.age(row.age),
    lookupLabel(LOOKUPS.areas, row.area),
    row.height === null ? '' : jaMember.women.height(row.height),
  ]
    .filter(Boolean)
    .join(' ・ ');
}

/** A card of the women's list: photo, name, age, area, height and rank, and the favourite star. */
export function WomanCard({ row }: { row: EntryRow }) {
  const rank = lookupLabel(LOOKUPS.womenRanks, row.women_rank);
  return (
    <li className="woman-card">
      {/* fromList: her page's back button goes back in history, to this list as it was (filters, scroll). */}
      <Link to={`/member/${row.id}`} state={{ fromList: true }} className="woman-card__link">
        <span className="woman-card__photo">
          {row.photo ? (
            <img src={row.photo} alt="" loading="lazy" decoding="async" />
          ) : (
            <span className="woman-card__initial" aria-hidden="true">
              {row.name.slice(0, 1)}
            </span>
          )}
          {rank ? (
            <span className="woman-card__rank">
              <span className="visually-hidden">{jaMember.women.rank}</span>
              {rank}
            </span>
          ) : null}
        </span>
        <span className="woman-card__name">{row.name}</span>
        <span className="woman-card__facts">{womanFacts(row)}</span>
      </Link>
      <FavoriteStar id={row.id} name={row.name} on={row.favorite} className="woman-card__star" />
    </li>
  );
}
