import { slotLabel, type SettingRow, jaMember } from '@enishi/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cx } from '@/components/ui/class-names';
import { Phrases } from '@/components/ui/phrases';

/** A request's state as a small badge: 依頼中, 確定, お断り, 取消. */
export function SettingBadge({ status }: { status: SettingRow['status'] }) {
  return (
    <span className={cx('setting-badge', `setting-badge--${status}`)}>{jaMember.setting.status[status]}</span>
  );
}

/**
 * One setting request: the pair, its state, the three preferred slots (the arranged one marked), the note, the
 * place or the reason; `children` are the actions the reader may take.
 */
export function SettingCard({
  row,
  heading,
  parties,
  children,
}: {
  row: SettingRow;
  heading: ReactNode;
  /** Staff's summaries of the man and the woman, shown before the slots. */
  parties?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className="setting-card paper-card">
      <div className="setting-card__head">
        <h2 className="setting-card__title">{heading}</h2>
        <SettingBadge status={row.status} />
      </div>
      {parties}
      <ol className="setting-card__slots">
        {row.preferred.map((slot, index) => (
          <li key={slot} className={cx(row.slot === index + 1 && 'setting-card__slot--on')}>
            <span className="setting-card__n">{jaMember.setting.preferred(index + 1)}</span> {slotLabel(slot)}
          </li>
        ))}
      </ol>
      {row.note ? <p className="setting-card__note">{row.note}</p> : null}
      {row.status === 'arranged' && row.place ? (
        <p className="setting-card__place">{jaMember.setting.placeIs(row.place)}</p>
      ) : null}
      {row.status === 'declined' && row.reason ? (
        <p className="setting-card__note">
          <Phrases text={jaMember.setting.reasonIs(row.reason)} />
        </p>
      ) : null}
      {row.status === 'arranged' && row.conversation_id ? (
        <Link className="page-link" to={`/talk/${row.conversation_id}`}>
          {jaMember.setting.openTalk}
        </Link>
      ) : null}
      {children}
    </li>
  );
}
