import { ja, type Message } from '@enishi/contract';
import { useState } from 'react';
import { dayLabel, japanDateKey } from '@/lib/japan-date';
import { PinIcon } from '@/components/ui/icons';
import { MessageText } from './message-parts';
import './announcement-area.css';

/**
 * The pinned announcements above a talk (product.md §2), newest first: the newest shows, the others on request.
 * Each can be put away with 今後は表示しない.
 */
export function AnnouncementArea({
  announcements,
  now,
  onHide,
}: {
  announcements: Message[];
  now: Date;
  onHide: (message: Message) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  if (announcements.length === 0) return null;
  const shown = expanded ? announcements : announcements.slice(0, 1);
  return (
    <section className="announcements" aria-label={ja.talk.announceArea}>
      <ul className="announcements__list" role="list">
        {shown.map((message) => (
          <li key={message.id} className="announcement">
            <PinIcon size={18} className="announcement__icon" />
            <div className="announcement__body">
              {message.message.trim() ? (
                <MessageText
                  text={message.message}
                  className={
                    expanded ? 'announcement__text' : 'announcement__text announcement__text--clamped'
                  }
                />
              ) : (
                <p className="announcement__text">{ja.talk.image}</p>
              )}
              <p className="announcement__meta">
                {message.name}・{dayLabel(japanDateKey(message.date), now)}
              </p>
            </div>
            <button type="button" className="announcement__hide" onClick={() => onHide(message)}>
              {ja.talk.hideAnnounce}
            </button>
          </li>
        ))}
      </ul>
      {announcements.length > 1 ? (
        <button
          type="button"
          className="announcements__toggle"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded
            ? ja.talk.showFewerAnnouncements
            : ja.talk.showAllAnnouncements.replace('{n}', String(announcements.length))}
        </button>
      ) : null}
    </section>
  );
}
