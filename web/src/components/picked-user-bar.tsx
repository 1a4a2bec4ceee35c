import { type UserRow, jaMember } from '@enishi/contract';
import type { ReactNode } from 'react';
import './picked-user-bar.css';

/** The user chosen in a UserPicker and what to do with them, kept in reach above the footer while the list scrolls. */
export function PickedUserBar({ selected, children }: { selected: UserRow | null; children: ReactNode }) {
  return (
    <div className="picked-user-bar">
      <p className="picked-user-bar__selected" aria-live="polite">
        {selected ? jaMember.members.selected(selected.name) : jaMember.members.selectFirst}
      </p>
      {children}
    </div>
  );
}
