import { AUDIT_ACTIONS, ja, jaMember, type AuditAction, type AuditRow, type Lookups } from '@enishi/contract';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { MoreButton } from '@/components/ui/more-button';
import { Spinner } from '@/components/ui/spinner';
import { allAuditRows, useAuditLog, type AuditFilter } from '../api/get-audit-log';
import { useLookups } from '../api/lookups';
import {
  actionLabel,
  auditCsv,
  auditLines,
  kindLabel,
  rowActionLabel,
  subjectName,
} from '../utils/audit-text';
import { japanDateTime } from '@/lib/japan-date';
import './members.css';
import { Phrases } from '@/components/ui/phrases';

const t = jaMember.audit;

/** /staff/audit: who added, changed or deleted which member or staff record, and when (the owner only). */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const filter = auditFilterOf(params);
  const setFilter = (next: AuditFilter) => setParams(next, { replace: true });
  const log = useAuditLog(filter);
  const lookups = useLookups().data;
  const rows = log.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <div className="audit">
      <p className="audit__lead">
        <Phrases text={t.lead} />
      </p>
      {/* Keyed by the address: back and forward put its filter in the fields. */}
      <AuditFilters key={params.toString()} filter={filter} onApply={setFilter} />
      <ExportButton filter={filter} lookups={lookups} />
      {log.isPending ? <Spinner label={ja.app.loading} /> : null}
      {log.isError && rows.length === 0 ? (
        <p className="notice-box" role="alert">
          <Phrases text={errorMessage(log.error)} />
        </p>
      ) : null}
      {log.isSuccess && !log.isPlaceholderData && rows.length === 0 ? (
        <p className="notice-box">
          <Phrases text={Object.keys(filter).length > 0 ? t.noMatch : t.empty} />
        </p>
      ) : null}
      <ol className="audit__rows" aria-busy={log.isPlaceholderData || undefined}>
        {rows.map((row) => (
          <AuditEntry key={row.id} row={row} lookups={lookups} />
        ))}
      </ol>
      <MoreButton query={log}>{t.more}</MoreButton>
    </div>
  );
}

/**
 * The filter from the address (`?person=&action=&from=&to=`, product.md §2.8), or from the form's fields: empty
 * values and an action the log does not know are left out.
 */
function auditFilterOf(values: { get: (name: string) => unknown }): AuditFilter {
  const text = (name: string) => String(values.get(name) ?? '').trim();
  const action = text('action');
  return {
    ...(text('person') ? { person: text('person').slice(0, 50) } : {}),
    ...((AUDIT_ACTIONS as readonly string[]).includes(action) ? { action: action as AuditAction } : {}),
    ...(text('from') ? { from: text('from') } : {}),
    ...(text('to') ? { to: text('to') } : {}),
  };
}

function AuditFilters({ filter, onApply }: { filter: AuditFilter; onApply: (filter: AuditFilter) => void }) {
  const id = useId();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onApply(auditFilterOf(new FormData(event.currentTarget)));
  }
  return (
    <form className="audit__filters" aria-label={t.filters} onSubmit={submit} onReset={() => onApply({})}>
      <div className="audit__filter">
        <label htmlFor={`${id}-person`}>{t.person}</label>
        <input
          id={`${id}-person`}
          name="person"
          type="search"
          maxLength={50}
          className="audit__input"
          defaultValue={filter.person ?? ''}
        />
      </div>
      <div className="audit__filter">
        <label htmlFor={`${id}-action`}>{t.action}</label>
        <select id={`${id}-action`} name="action" className="audit__input" defaultValue={filter.action ?? ''}>
          <option value="">{t.allActions}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {actionLabel(action)}
            </option>
          ))}
        </select>
      </div>
      <div className="audit__filter">
        <label htmlFor={`${id}-from`}>{t.from}</label>
        <input
          id={`${id}-from`}
          name="from"
          type="date"
          className="audit__input"
          defaultValue={filter.from ?? ''}
        />
      </div>
      <div className="audit__filter">
        <label htmlFor={`${id}-to`}>{t.to}</label>
        <input
          id={`${id}-to`}
          name="to"
          type="date"
          className="audit__input"
          defaultValue={filter.to ?? ''}
        />
      </div>
      <div className="audit__filter-actions">
        <Button type="submit" variant="primary">
          {t.apply}
        </Button>
        <Button type="reset" variant="quiet">
          {t.clear}
        </Button>
      </div>
    </form>
  );
}

/** CSV for Excel of every row the filter matches (product.md §2.8). */
function ExportButton({ filter, lookups }: { filter: AuditFilter; lookups: Lookups | undefined }) {
  const [busy, setBusy] = useState(false);
  async function exportCsv() {
    setBusy(true);
    try {
      const { rows, complete } = await allAuditRows(filter);
      const url = URL.createObjectURL(
        new Blob([auditCsv(rows, lookups)], { type: 'text/csv;charset=utf-8' }),
      );
      const link = document.createElement('a');
      link.href = url;
      link.download = t.csvFile;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      if (!complete) toast(t.exportLimit(rows.length));
    } catch (error) {
      toast(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <p className="audit__export">
      <Button type="button" variant="secondary" busy={busy} disabled={busy} onClick={() => void exportCsv()}>
        {busy ? t.exporting : t.exportCsv}
      </Button>
    </p>
  );
}

function AuditEntry({ row, lookups }: { row: AuditRow; lookups: Lookups | undefined }) {
  const lines = auditLines(row, lookups);
  return (
    <li className="audit__row">
      <p className="audit__head">
        <span className={`audit__action audit__action--${row.action}`}>{rowActionLabel(row)}</span>
        <span className="audit__subject">
          {kindLabel(row.target.role)} {subjectName(row)}
        </span>
      </p>
      <p className="audit__meta">
        <time dateTime={row.date}>{japanDateTime.format(new Date(row.date))}</time>
        <span>{t.by(row.actor.name || t.unknownPerson)}</span>
      </p>
      {lines.length > 0 ? (
        <dl className="audit__change">
          {lines.map((line, index) => (
            <div key={`${line.field}-${index}`} className="audit__change-row">
              <dt>{line.field}</dt>
              <dd>{line.before ? `${line.before} → ${line.after}` : line.after}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}
