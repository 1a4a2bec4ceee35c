import { ROLE, jaMember } from '@enishi/contract';
import type { ReactNode } from 'react';
import { UserIcon } from '@/components/ui/user-icon';
import type { Chosen, Side } from '../utils/group-selection';
import './groups.css';
import { Phrases } from '@/components/ui/phrases';

/** The man's and the woman's place in the new group: who is chosen, or 未選択, and what can be done. */
export function GroupSlots({
  man,
  woman,
  action,
}: {
  man: Chosen | null;
  woman: Chosen | null;
  action?: (side: Side, chosen: Chosen | null) => ReactNode;
}) {
  return (
    <ul className="group-slots" role="list">
      <Slot side="man" chosen={man} action={action} />
      <Slot side="woman" chosen={woman} action={action} />
    </ul>
  );
}

function Slot({
  side,
  chosen,
  action,
}: {
  side: Side;
  chosen: Chosen | null;
  action: ((side: Side, chosen: Chosen | null) => ReactNode) | undefined;
}) {
  const role = side === 'man' ? ROLE.male : ROLE.female;
  const label = side === 'man' ? jaMember.groups.man : jaMember.groups.woman;
  return (
    <li className={`paper-card group-slot group-slot--${side}`} aria-label={label}>
      <span className="group-slot__side">{label}</span>
      {chosen ? (
        <span className="group-slot__person">
          <UserIcon name={chosen.name} role={role} size="md" />
          <span className="group-slot__text">
            <span className="group-slot__name">{chosen.name}</span>
            <span className="group-slot__id">ID: {chosen.id}</span>
          </span>
        </span>
      ) : (
        <span className="group-slot__empty">
          <Phrases text={jaMember.groups.notChosen} />
        </span>
      )}
      {action ? <span className="group-slot__action">{action(side, chosen)}</span> : null}
    </li>
  );
}
