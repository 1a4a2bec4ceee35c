import { jaMember, type SessionRow } from '@enishi/contract';
import { listTime } from '@/lib/japan-date';
import { Button } from '@/components/ui/button';
import './device-list.css';

/**
 * Sessions as devices (ログイン中の端末, product.md §2.3, §11.6): the browser and system, when it logged in and
 * was last used, and its address. `onEnd`: a ログアウト button on every row but the current one.
 */
export function DeviceList({
  rows,
  onEnd,
  busyId,
}: {
  rows: SessionRow[];
  onEnd?: (row: SessionRow) => void;
  busyId?: string | null;
}) {
  const now = new Date();
  return (
    <ul className="device-list" role="list">
      {rows.map((row) => (
        <li key={row.id} className="device-list__row">
          <DeviceIcon mobile={/iPhone|Android|iPad/.test(row.device)} />
          <div className="device-list__text">
            <p className="device-list__name">
              {row.device}
              {row.current ? <span className="device-list__current">{jaMember.sessions.current}</span> : null}
            </p>
            <p className="device-list__meta">
              <span>{jaMember.sessions.lastSeen(listTime(row.last_seen_at, now))}</span>
              <span>{jaMember.sessions.since(listTime(row.created_at, now))}</span>
              {row.address ? <span>{jaMember.sessions.address(row.address)}</span> : null}
            </p>
          </div>
          {onEnd && !row.current ? (
            <Button
              variant="secondary"
              className="device-list__end"
              aria-label={jaMember.sessions.endOneLabel(row.device)}
              busy={busyId === row.id}
              disabled={busyId != null}
              onClick={() => onEnd(row)}
            >
              {jaMember.sessions.endOne}
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function DeviceIcon({ mobile }: { mobile: boolean }) {
  return (
    <svg className="device-list__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      {mobile ? (
        <path
          d="M8 2.75h8A1.75 1.75 0 0 1 17.75 4.5v15A1.75 1.75 0 0 1 16 21.25H8A1.75 1.75 0 0 1 6.25 19.5v-15A1.75 1.75 0 0 1 8 2.75ZM10.5 18h3"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
        />
      ) : (
        <path
          d="M4.75 5h14.5c.55 0 1 .45 1 1v9.25H3.75V6c0-.55.45-1 1-1ZM2 18.25h20M9 15.25v3"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
        />
      )}
    </svg>
  );
}
