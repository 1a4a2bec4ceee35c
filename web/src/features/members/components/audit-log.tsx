import { ja, type AuditRow, type AuditSnapshot, jaMember, roleGroup } from '@enishi/contract';
import { errorMessage } from '@/lib/api-client';
import { MoreButton } from '@/components/ui/more-button';
import { Spinner } from '@/components/ui/spinner';
import { useAuditLog } from '../api/get-audit-log';
import './members.css';
import { japanDateTime } from '../utils/date-format';

const kindLabel = (role: number) => jaMember.members.kinds[roleGroup(role) ?? 'staff'];

/** One side of a change, in the words of the form. */
function describe(snapshot: AuditSnapshot): string {
  const parts = [`${snapshot.name}（ID: ${snapshot.id}）`];
  if (roleGroup(snapshot.role) === 'men' && ja.ranks[snapshot.rank])
    parts.push(`${jaMember.members.fields.rank}: ${ja.ranks[snapshot.rank]}`);
  if (snapshot.introducer) parts.push(`${jaMember.members.fields.introducer}: ${snapshot.introducer}`);
  return parts.join(' / ');
}

/** A value of a profile change as text: lists joined, nothing as 未設定. */
const valueText = (value: unknown): string =>
  value === null || value === '' || (Array.isArray(value) && value.length === 0)
    ? jaMember.profile.unset
    : Array.isArray(value)
      ? value.join('・')
      : typeof value === 'boolean'
        ? jaMember.security[value ? 'on' : 'off']
        : String(value);

const fieldLabel = (field: string): string =>
  (jaMember.profile.fields as Record<string, string>)[field] ??
  jaMember.security.auditField[field] ??
  (field === 'photo' ? jaMember.profile.photos.title : field);

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
      <p className="audit__lead">{jaMember.audit.lead}</p>
      {rows.length === 0 ? <p className="notice-box">{jaMember.audit.empty}</p> : null}
      <ol className="audit__rows">
        {rows.map((row) => (
          <AuditEntry key={row.id} row={row} />
        ))}
      </ol>
      <MoreButton query={log}>{jaMember.audit.more}</MoreButton>
    </div>
  );
}

function AuditEntry({ row }: { row: AuditRow }) {
  const subject = row.after ?? row.before;
  return (
    <li className="audit__row">
      <p className="audit__head">
        <span className={`audit__action audit__action--${row.action}`}>
          {jaMember.audit.actions[row.action]}
        </span>
        <span className="audit__subject">
          {kindLabel(row.target.role)} {subject?.name ?? `#${row.target.uid}`}
        </span>
      </p>
      <p className="audit__meta">
        <time dateTime={row.date}>{japanDateTime.format(new Date(row.date))}</time>
        <span>{jaMember.audit.by(row.actor.name)}</span>
        {row.password_reset ? <span>{jaMember.audit.passwordReset}</span> : null}
      </p>
      {row.action === 'update' && row.before && row.after ? (
        <dl className="audit__change">
          <dt>{jaMember.audit.before}</dt>
          <dd>{describe(row.before)}</dd>
          <dt>{jaMember.audit.after}</dt>
          <dd>{describe(row.after)}</dd>
        </dl>
      ) : null}
      {row.changes ? (
        <dl className="audit__change">
          {Object.entries(row.changes).map(([field, [before, after]]) => (
            <div key={field} className="audit__change-row">
              <dt>{fieldLabel(field)}</dt>
              <dd>
                {valueText(before)} → {valueText(after)}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}
