import { ja, type BroadcastRow, type ContentGroup, jaMember } from '@enishi/contract';
import { useId } from 'react';
import { errorMessage } from '@/lib/api-client';
import { dayLabel, clockTime, japanDateKey } from '@/lib/japan-date';
import { useNow } from '@/lib/use-now';
import { MoreButton } from '@/components/ui/more-button';
import { Spinner } from '@/components/ui/spinner';
import { useBroadcasts } from '../api/get-broadcasts';
import { typeOf } from '../utils/target';
import { Phrases } from '@/components/ui/phrases';

const t = jaMember.broadcast;

/**
 * A send's figures (product.md §4.6), each of its recipients: delivered (配信: copies stored), read (既読) and
 * pushed (通知). Short on the screen, a whole sentence for a screen reader.
 */
function Figures({ row }: { row: BroadcastRow }) {
  const figures = [
    [t.delivered(row.delivered, row.count), t.deliveredLabel(row.delivered, row.count)],
    [t.read(row.read, row.count), t.readLabel(row.read, row.count)],
    [t.pushed(row.pushed, row.count), t.pushedLabel(row.pushed, row.count)],
  ];
  return (
    <ul className="broadcast-history__figures" role="list" aria-label={t.figures}>
      {figures.map(([short, whole]) => (
        <li key={short} className="broadcast-history__read">
          <span aria-hidden="true">{short}</span>
          <span className="visually-hidden">{whole}</span>
        </li>
      ))}
    </ul>
  );
}

/** The group's past bulk sends, newest first, each with its figures (配信, 既読 n/m, 通知). */
export function BroadcastHistory({ group }: { group: ContentGroup }) {
  const history = useBroadcasts(typeOf(group));
  const now = useNow();
  const headingId = useId();
  const rows = history.data?.pages.flatMap((page) => page.rows) ?? [];

  return (
    <section className="broadcast-history" aria-labelledby={headingId}>
      <h2 id={headingId} className="broadcast-history__title">
        {jaMember.broadcast.history}
      </h2>
      {history.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : history.isError ? (
        <p className="broadcast__empty">
          <Phrases text={errorMessage(history.error)} />
        </p>
      ) : rows.length === 0 ? (
        <p className="broadcast__empty">
          <Phrases text={jaMember.broadcast.noHistory} />
        </p>
      ) : (
        <ul className="broadcast-history__list" role="list">
          {rows.map((row) => (
            <li key={row.id} className="broadcast-history__item">
              <p className="broadcast-history__meta">
                <time
                  dateTime={row.date}
                >{`${dayLabel(japanDateKey(row.date), now)} ${clockTime(row.date)}`}</time>
                <span>{jaMember.broadcast.sentBy(row.name)}</span>
              </p>
              <p className="broadcast-history__message">{row.message || ja.talk.image}</p>
              {row.image.length > 0 ? (
                <ul className="broadcast-history__images" role="list">
                  {row.image.map((src) => (
                    <li key={src}>
                      <img src={src} alt="" loading="lazy" />
                    </li>
                  ))}
                </ul>
              ) : null}
              <Figures row={row} />
            </li>
          ))}
        </ul>
      )}
      <MoreButton query={history}>{jaMember.broadcast.more}</MoreButton>
    </section>
  );
}
