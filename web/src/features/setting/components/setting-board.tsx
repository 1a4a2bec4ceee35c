import {
  SETTING_STATUSES,
  ja,
  jaMember,
  slotLabel,
  type SettingRow,
  type SettingStatus,
} from '@enishi/contract';
import { Link } from 'react-router';
import { WomanLink } from './woman-link';
import { MoreButton } from '@/components/ui/more-button';
import { Spinner } from '@/components/ui/spinner';
import { useSettings } from '../api/settings';
import { Decide } from './setting-decide';
import { OverlapWarning } from './overlap-warning';
import './setting-board.css';
import { Phrases } from '@/components/ui/phrases';
import { ErrorNote } from '@/components/ui/error-note';

const t = jaMember.board;

/** The arranged slot, or the first preferred one while none is. */
export const settingSlot = (row: SettingRow): string =>
  row.preferred[(row.slot ?? 1) - 1] ?? row.preferred[0]!;

/** One request on the board: the pair, the slot, the place or reason, the group talk; a waiting one is decided here. */
function BoardCard({ row }: { row: SettingRow }) {
  return (
    <li className="board-card">
      <p className="board-card__pair">
        <Link to={`/men/edit?id=${row.men.uid}`}>{row.men.name}</Link>
        <span aria-hidden="true"> × </span>
        <WomanLink woman={row.women} />
      </p>
      <p className="board-card__slot">
        {row.status === 'requested'
          ? row.preferred.map((slot, index) => (
              <span key={slot}>
                {jaMember.setting.preferred(index + 1)} {slotLabel(slot)}
              </span>
            ))
          : slotLabel(settingSlot(row))}
      </p>
      {row.status === 'arranged' && row.place ? <p className="board-card__note">{row.place}</p> : null}
      {row.status === 'declined' && row.reason ? <p className="board-card__note">{row.reason}</p> : null}
      {row.conversation_id ? (
        <Link className="page-link board-card__talk" to={`/talk/${row.conversation_id}`}>
          {t.openTalk}
        </Link>
      ) : null}
      <OverlapWarning row={row} id={`board-overlap-${row.id}`} />
      {row.status === 'requested' ? (
        <details className="board-card__decide">
          <summary>{t.decide}</summary>
          <Decide row={row} warningId={`board-overlap-${row.id}`} />
        </details>
      ) : null}
    </li>
  );
}

function BoardColumn({ status }: { status: SettingStatus }) {
  const settings = useSettings(status);
  const rows = settings.data?.pages.flatMap((page) => page.rows) ?? [];
  const headingId = `board-${status}`;
  // 依頼中 counts every waiting request; the others count what is loaded.
  const count = status === 'requested' ? (settings.data?.pages[0]?.requested ?? 0) : rows.length;
  return (
    <section className={`board-column board-column--${status}`} aria-labelledby={headingId}>
      <h2 id={headingId} className="board-column__title">
        {t.columns[status]}
        <span className="board-column__count">
          {t.count(count)}
          {status !== 'requested' && settings.hasNextPage ? '+' : ''}
        </span>
      </h2>
      {settings.isPending ? <Spinner label={ja.app.loading} /> : null}
      {settings.isError ? <ErrorNote error={settings.error} /> : null}
      {settings.isSuccess && rows.length === 0 ? (
        <p className="board-column__empty">
          <Phrases text={t.empty} />
        </p>
      ) : null}
      <ul className="board-column__cards">
        {rows.map((row) => (
          <BoardCard key={row.id} row={row} />
        ))}
      </ul>
      <MoreButton query={settings}>{jaMember.broadcast.more}</MoreButton>
    </section>
  );
}

/** Setting requests as a board (product.md §2.8): 依頼中, 確定, お断り, 取消, each column newest first. */
export function SettingBoard() {
  return (
    <div className="setting-board">
      {SETTING_STATUSES.map((status) => (
        <BoardColumn key={status} status={status} />
      ))}
    </div>
  );
}
