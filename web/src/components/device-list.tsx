import { jaMember, type SessionRow } from '@enishi/contract';
import type { ReactNode } from 'react';
import { listTime } from '@/lib/japan-date';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { Spinner } from '@/components/ui/spinner';
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

/** The state of the sessions' read, as a query gives it. */
type SessionsRead = { isPending: boolean };

/**
 * ログイン中の端末 as a section, on mypage (product.md §2.3) and on a member's record (§11.6): its title and
 * lead, a spinner while the devices are read, then what the screen puts under them (the read's error, the
 * `DeviceList` and its buttons; the error note stays with the screens, whose chunks load it already).
 * `block` names the section's classes (`block`, `block__title`, `block__lead`).
 */
export function DeviceSection({
  block,
  className,
  title,
  lead,
  loading,
  sessions,
  children,
}: {
  block: string;
  className?: string;
  title: string;
  lead: string;
  loading: string;
  sessions: SessionsRead;
  children: ReactNode;
}) {
  const titleId = `${block}-title`;
  return (
    <section className={className ? `${block} ${className}` : block} aria-labelledby={titleId}>
      <h2 id={titleId} className={`${block}__title`}>
        {title}
      </h2>
      <p className={`${block}__lead`}>
        <Phrases text={lead} />
      </p>
      {sessions.isPending ? <Spinner label={loading} /> : null}
      {children}
    </section>
  );
}
