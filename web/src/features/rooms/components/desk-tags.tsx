import { jaMember, type DeskAssignee, type DeskStatus } from '@enishi/contract';

/** A desk talk's status and 担当 on its row (staff, product.md §2.6): words, not colour alone. */
export function DeskTags({ status, assignee }: { status: DeskStatus; assignee: DeskAssignee | null }) {
  const t = jaMember.deskTalk;
  return (
    <span className="room-row__desk">
      <span className={`desk-tag desk-tag--${status}`}>{t.statuses[status]}</span>
      <span className="room-row__assignee">{t.assigneeLabel(assignee?.name ?? null)}</span>
    </span>
  );
}
