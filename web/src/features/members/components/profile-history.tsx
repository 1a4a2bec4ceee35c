import { lookupLabel, type Lookups, type ProfileHistoryRow, jaMember } from '@enishi/contract';
import { japanDateTime } from '@/lib/japan-date';
import { Phrases } from '@/components/ui/phrases';

/** Every change of the women's rank and the entry type: when, who, from and to. */
export function ProfileHistory({ rows, lookups }: { rows: ProfileHistoryRow[]; lookups: Lookups }) {
  const label = (row: ProfileHistoryRow, code: number | null) =>
    lookupLabel(row.field === 'women_rank' ? lookups.womenRanks : lookups.entryTypes, code) ||
    jaMember.profile.unset;
  return (
    <section className="profile-history" aria-labelledby="profile-history-title">
      <h3 id="profile-history-title" className="profile-section__title">
        {jaMember.profile.history.title}
      </h3>
      {rows.length === 0 ? (
        <p className="profile-history__empty">
          <Phrases text={jaMember.profile.history.empty} />
        </p>
      ) : (
        <ol className="card-list profile-history__rows">
          {rows.map((row) => (
            <li key={row.id} className="profile-history__row">
              <span className="profile-history__change">
                {jaMember.profile.history.change(
                  jaMember.profile.fields[row.field],
                  label(row, row.from),
                  label(row, row.to),
                )}
              </span>
              <span className="audit__meta">
                <time dateTime={row.date}>{japanDateTime.format(new Date(row.date))}</time>
                <span>{jaMember.audit.by(row.actor)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
