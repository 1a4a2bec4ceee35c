import { ja, type ConversationRow } from '@enishi/contract';
import { useId } from 'react';
import { NavLink } from 'react-router';
import { listTime } from '@/lib/japan-date';
import { CountBadge } from '@/components/ui/count-badge';
import { talkTone, UserIcon } from '@/components/ui/user-icon';
import { DeskTags } from './desk-tags';

/** Where a room opens: staff-type rooms (the desk talk of a member, staff rooms) at /talk/staff/<id>. */
export const talkPath = (row: Pick<ConversationRow, 'id' | 'type'>): string =>
  row.type === 'staff' ? `/talk/staff/${row.id}` : `/talk/${row.id}`;

/** The text of `last_content` (`{"content": "..."}`); 画像 for images only; a plain string as it is. */
export function lastContentText(lastContent: string): string {
  try {
    const parsed: unknown = JSON.parse(lastContent);
    if (parsed && typeof parsed === 'object' && 'content' in parsed) {
      return typeof parsed.content === 'string' ? parsed.content : '';
    }
    return typeof parsed === 'string' ? parsed : '';
  } catch {
    return lastContent;
  }
}

/**
 * One room: icon, name, last message, time and unread count. The link is named by all it shows (WCAG 2.5.3:
 * what is seen is what voice control users say), the name first; the unread count is spelled out beside it.
 */
export function RoomRow({ row, now }: { row: ConversationRow; now: Date }) {
  const id = useId();
  const content = lastContentText(row.last_content).replace(/\s+/g, ' ').trim();
  return (
    <li>
      <NavLink
        to={talkPath(row)}
        className="room-row inset-focus"
        aria-describedby={row.unread > 0 ? `${id}-unread` : undefined}
      >
        <UserIcon
          name={row.name}
          role={row.role ?? 0}
          image={row.user_image}
          size="md"
          tone={talkTone(row.type)}
        />
        <span className="room-row__body">
          <span className="room-row__top">
            <span className="room-row__name">{row.name}</span>
            {row.last_date ? (
              <time className="room-row__time" dateTime={row.last_date}>
                {listTime(row.last_date, now)}
              </time>
            ) : null}
          </span>
          <span className="room-row__bottom">
            <span className="room-row__last">{content || ja.talk.noContent}</span>
            <CountBadge count={row.unread} />
          </span>
          {row.desk_status ? <DeskTags status={row.desk_status} assignee={row.assignee ?? null} /> : null}
        </span>
      </NavLink>
      {row.unread > 0 ? (
        <span id={`${id}-unread`} className="visually-hidden">
          {ja.home.unread(row.unread)}
        </span>
      ) : null}
    </li>
  );
}
