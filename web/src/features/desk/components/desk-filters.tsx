import { DESK_STATUSES, can, jaMember, type DeskListFilters, type DeskStatus } from '@enishi/contract';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '@/lib/session';
import { useDeskStaff } from '../api/desk-talk';
import { RoundRobinSwitch } from './round-robin-switch';
import './desk-talk-bar.css';

const t = jaMember.deskTalk;

/**
 * The desk's filters as the address keeps them (product.md §2.6): `status` (open, pending, done), `assignee`
 * (me, none or a staff member's uid) and `unread=1`; anything else is no filter.
 */
export function useDeskFilters(): [DeskListFilters, (next: DeskListFilters) => void] {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const assignee = params.get('assignee');
  const filters: DeskListFilters = {
    ...(DESK_STATUSES.includes(status as DeskStatus) ? { desk_status: status as DeskStatus } : {}),
    ...(assignee === 'me' || assignee === 'none'
      ? { assignee }
      : assignee && /^[1-9]\d{0,9}$/.test(assignee)
        ? { assignee: Number(assignee) }
        : {}),
    ...(params.get('unread') === '1' ? { unread_only: true } : {}),
  };
  const set = (next: DeskListFilters) =>
    setParams(
      (current) => {
        const kept = new URLSearchParams(current);
        for (const key of ['status', 'assignee', 'unread']) kept.delete(key);
        if (next.desk_status) kept.set('status', next.desk_status);
        if (next.assignee !== undefined) kept.set('assignee', String(next.assignee));
        if (next.unread_only) kept.set('unread', '1');
        return kept;
      },
      { replace: true },
    );
  return [filters, set];
}

/** Status, 担当 and unread only, above the men's and women's lists (staff, product.md §2.6). */
export function DeskFilters({
  filters,
  onChange,
}: {
  filters: DeskListFilters;
  onChange: (next: DeskListFilters) => void;
}) {
  const id = useId();
  const admin = can(useSession(), 'desk.round_robin');
  const staff = useDeskStaff().data?.rows ?? [];
  const assignee = filters.assignee === undefined ? '' : String(filters.assignee);
  return (
    <>
      <fieldset className="desk-filters">
        <legend className="visually-hidden">{t.filters}</legend>
        <div className="desk-filters__statuses" role="group" aria-label={t.filterStatus}>
          {[undefined, ...DESK_STATUSES].map((status) => (
            <button
              key={status ?? 'all'}
              type="button"
              className="desk-filters__status"
              aria-pressed={filters.desk_status === status}
              onClick={() => onChange({ ...filters, desk_status: status })}
            >
              {status ? t.statuses[status] : t.allStatuses}
            </button>
          ))}
        </div>
        <div className="desk-filters__row">
          <label className="visually-hidden" htmlFor={`${id}-assignee`}>
            {t.filterAssignee}
          </label>
          <select
            id={`${id}-assignee`}
            className="desk-filters__select"
            value={assignee}
            onChange={(event) => {
              const value = event.target.value;
              onChange({
                ...filters,
                assignee:
                  value === '' ? undefined : value === 'me' || value === 'none' ? value : Number(value),
              });
            }}
          >
            <option value="">{t.allAssignees}</option>
            <option value="me">{t.mine}</option>
            <option value="none">{t.unassigned}</option>
            {staff.map((person) => (
              <option key={person.uid} value={person.uid}>
                {person.name}
              </option>
            ))}
          </select>
          <label className="desk-filters__check">
            <input
              type="checkbox"
              checked={filters.unread_only === true}
              onChange={(event) =>
                onChange({ ...filters, unread_only: event.target.checked ? true : undefined })
              }
            />
            {t.unreadOnly}
          </label>
        </div>
      </fieldset>
      {admin ? <RoundRobinSwitch /> : null}
    </>
  );
}
