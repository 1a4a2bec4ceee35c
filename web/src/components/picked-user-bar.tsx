import { type UserRow, jaMember } from '@enishi/contract';
import type { ReactNode } from 'react';
import './picked-user-bar.css';

/**
 * The user chosen in a UserPicker and what to do with them, kept in reach above the footer while the list scrolls.
 * Until someone is chosen its line says to choose first: `reasonId` is that line's id, for the greyed-out buttons'
 * aria-describedby.
 */
export function PickedUserBar({
  selected,
  reasonId,
  children,
}: {
  selected: UserRow | null;
  reasonId: string;
  children: ReactNode;
}) {
  return (
    <div className="picked-user-bar">
      <p id={reasonId} className="picked-user-bar__selected" aria-live="polite">
        {selected ? jaMember.members.selected(selected.name) : jaMember.members.selectFirst}
      </p>
      {children}
    </div>
  );
}
