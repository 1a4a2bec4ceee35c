import { ja, type StaffRow, jaMember } from '@enishi/contract';
import { HandsetIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { UserIcon } from '@/components/ui/user-icon';
import { cx } from '@/components/ui/class-names';
import './staff-call-list.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * The staff with who is online (product.md §17): for a male member each is a button that calls them (an offline
 * one is reached by push); for staff the list only shows who is there.
 */
export function StaffCallList({
  rows,
  onCall,
}: {
  rows: StaffRow[] | null;
  onCall?: (row: StaffRow) => void;
}) {
  if (rows === null) return <Spinner label={ja.app.loading} />;
  if (rows.length === 0)
    return (
      <p className="notice-box">
        <Phrases text={jaMember.calls.noStaff} />
      </p>
    );
  return (
    <ul className="card-list staff-calls" aria-label={jaMember.calls.staffList}>
      {rows.map((row) => (
        <li key={row.uid}>
          {onCall ? (
            <button type="button" className="staff-calls__row inset-focus" onClick={() => onCall(row)}>
              <StaffLine row={row} />
              <span className="round-icon staff-calls__call">
                <HandsetIcon size={20} />
                <span className="visually-hidden">{jaMember.calls.callButton}</span>
              </span>
            </button>
          ) : (
            <div className="staff-calls__row">
              <StaffLine row={row} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function StaffLine({ row }: { row: StaffRow }) {
  return (
    <>
      <UserIcon name={row.name} role={3} image={row.image} size="md" />
      <span className="staff-calls__text">
        <span className="staff-calls__name">{row.name}</span>
        <span className={cx('staff-calls__presence', row.isOnline && 'staff-calls__presence--online')}>
          {row.isOnline ? jaMember.calls.online : jaMember.calls.offline}
        </span>
      </span>
    </>
  );
}
