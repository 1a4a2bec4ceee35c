import { DESK_STATUSES, can, jaMember, type ConversationRow } from '@enishi/contract';
import { useId } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useAssignDesk, useDeskStaff, useSetDeskStatus } from '../api/desk-talk';
import './desk-talk-bar.css';

const t = jaMember.deskTalk;

/**
 * The open desk talk's status and 担当 (staff, product.md §2.6): three buttons, one pressed; the 担当 as a
 * list of staff (handing over needs roles 1 to 3, so others see only 担当なし, themselves and who has it)
 * and 自分が担当. Every change shows on every staff screen through the `desk` frame.
 */
export function DeskTalkBar({ row }: { row: ConversationRow }) {
  const id = useId();
  const session = useSession();
  const status = useSetDeskStatus(row.id);
  const assign = useAssignDesk(row.id);
  const staff = useDeskStaff().data?.rows ?? [];
  if (!row.desk_status || !session) return null;
  const current = row.assignee ?? null;
  const mayPick = (uid: number | null) =>
    uid === (current?.uid ?? null) ||
    can(session, 'desk.assign', { assignment: { from: current?.uid ?? null, to: uid } });
  const choices = staff.filter((person) => mayPick(person.uid));
  if (current && !choices.some((person) => person.uid === current.uid)) choices.unshift(current);
  const busy = status.isPending || assign.isPending;
  const fail = (error: unknown) => toast(errorMessage(error));

  return (
    <div className="desk-talk-bar">
      <div className="desk-talk-bar__statuses" role="group" aria-label={t.statusGroup}>
        {DESK_STATUSES.map((each) => (
          <button
            key={each}
            type="button"
            className={`desk-talk-bar__status desk-talk-bar__status--${each}`}
            aria-pressed={row.desk_status === each}
            disabled={busy}
            onClick={() =>
              row.desk_status !== each &&
              status.mutate(each, {
                onSuccess: () => toast(t.statusChanged(t.statuses[each]!), true),
                onError: fail,
              })
            }
          >
            {t.statuses[each]}
          </button>
        ))}
      </div>
      <div className="desk-talk-bar__assignee">
        <label htmlFor={`${id}-assignee`}>{t.assignee}</label>
        <select
          id={`${id}-assignee`}
          value={current ? String(current.uid) : ''}
          disabled={busy}
          onChange={(event) => {
            const uid = event.target.value ? Number(event.target.value) : null;
            const name = staff.find((person) => person.uid === uid)?.name ?? null;
            assign.mutate(uid, { onSuccess: () => toast(t.assigned(name), true), onError: fail });
          }}
        >
          {mayPick(null) ? <option value="">{t.assigneeNone}</option> : null}
          {choices.map((person) => (
            <option key={person.uid} value={person.uid}>
              {person.name}
            </option>
          ))}
        </select>
        {current?.uid !== session.uid ? (
          <button
            type="button"
            className="desk-talk-bar__take"
            disabled={busy}
            onClick={() =>
              assign.mutate(session.uid, {
                onSuccess: () => toast(t.assigned(session.name), true),
                onError: fail,
              })
            }
          >
            {t.takeMine}
          </button>
        ) : null}
      </div>
    </div>
  );
}
