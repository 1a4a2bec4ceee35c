import { ROLE, ja, type AuditRow, type AuditSnapshot } from '@enishi/contract';
import { errorMessage } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useAuditLog } from '../api/get-audit-log';
import './members.css';

const dateFormat = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const kindLabel = (role: number) =>
  role === ROLE.male
    ? ja.members.kinds.men
    : role === ROLE.female
      ? ja.members.kinds.women
      : ja.members.kinds.staff;

/** One side of a change, in the words of the form. */
function describe(snapshot: AuditSnapshot): string {
  const parts = [`${snapshot.name}（ID: ${snapshot.id}）`];
  if (snapshot.role === ROLE.male && ja.ranks[snapshot.rank])
    parts.push(`${ja.members.fields.rank}: ${ja.ranks[snapshot.rank]}`);
  if (snapshot.introducer) parts.push(`${ja.members.fields.introducer}: ${snapshot.introducer}`);
  return parts.join(' / ');
}

/** /staff/audit: who added, changed or deleted which member or staff record, and when (the owner only). */
export function AuditLog() {
  const log = useAuditLog();
  const rows = log.data?.pages.flatMap((page) => page.rows) ?? [];
  if (log.isPending) return <Spinner label={ja.app.loading} />;
  if (log.isError && rows.length === 0) {
    return (
      <p className="notice-box" role="alert">
        {errorMessage(log.error)}
      </p>
    );
  }
  return (
    <div className="audit">
      <p className="audit__lead">{ja.audit.lead}</p>
      {rows.length === 0 ? <p className="notice-box">{ja.audit.empty}</p> : null}
      <ol className="audit__rows">
        {rows.map((row) => (
          <AuditEntry key={row.id} row={row} />
        ))}
      </ol>
      {log.hasNextPage ? (
        <Button variant="quiet" busy={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
          {ja.audit.more}
        </Button>
      ) : null}
    </div>
  );
}

function AuditEntry({ row }: { row: AuditRow }) {
  const subject = row.after ?? row.before;
  return (
    <li className="audit__row">
      <p className="audit__head">
        <span className={`audit__action audit__action--${row.action}`}>{ja.audit.actions[row.action]}</span>
        <span className="audit__subject">
          {kindLabel(row.target.role)} {subject?.name}
        </span>
      </p>
      <p className="audit__meta">
        <time dateTime={row.date}>{dateFormat.format(new Date(row.date))}</time>
        <span>{ja.audit.by(row.actor.name)}</span>
        {row.password_reset ? <span>{ja.audit.passwordReset}</span> : null}
      </p>
      {row.action === 'update' && row.before && row.after ? (
        <dl className="audit__change">
          <dt>{ja.audit.before}</dt>
          <dd>{describe(row.before)}</dd>
          <dt>{ja.audit.after}</dt>
          <dd>{describe(row.after)}</dd>
        </dl>
      ) : null}
    </li>
  );
}
