import { ja, type Message } from '@enishi/contract';
import { useId, useState } from 'react';
import { dayLabel, japanDateKey } from '@/lib/japan-date';
import { ChevronRightIcon, PinIcon } from '@/components/ui/icons';
import { cx } from '@/components/ui/class-names';
import { MessageText } from './message-parts';
import './announcement-area.css';
import { Phrases } from '@/components/ui/phrases';

const preview = (message: Message) => message.message.trim() || ja.talk.image;

/**
 * The pinned announcements above a talk (product.md §2), newest first. Slim by default: one line with the
 * newest, so that the talk keeps its room; a tap opens them all, each with 今後は表示しない.
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
  const listId = useId();
  const newest = announcements[0];
  if (!newest) return null;
  return (
    <section
      className={cx('announcements', expanded && 'announcements--open')}
      aria-label={ja.talk.announceArea}
    >
      <button
        type="button"
        className="announcements__bar"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setExpanded((value) => !value)}
      >
        <PinIcon size={16} className="announcements__pin" />
        <span className="announcements__preview">{expanded ? ja.talk.announceArea : preview(newest)}</span>
        {announcements.length > 1 ? (
          <span className="announcements__count">{ja.talk.announceCount(announcements.length)}</span>
        ) : null}
        <span className="visually-hidden">
          {expanded ? ja.talk.showFewerAnnouncements : ja.talk.openAnnouncements}
        </span>
        <ChevronRightIcon size={18} className="announcements__chevron" />
      </button>
      {expanded ? (
        <ul id={listId} className="announcements__list" role="list">
          {announcements.map((message) => (
            <li key={message.id} className="announcement">
              <div className="announcement__body">
                {message.message.trim() ? (
                  <MessageText text={message.message} className="announcement__text" />
                ) : (
                  <p className="announcement__text">
                    <Phrases text={ja.talk.image} />
                  </p>
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
      ) : null}
    </section>
  );
}
