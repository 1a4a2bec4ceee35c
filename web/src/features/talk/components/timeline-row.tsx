import { ja, type Message, jaMember } from '@enishi/contract';
import { memo } from 'react';
import { clockTime } from '@/lib/japan-date';
import type { OutboxEntry } from '@/lib/chat/outbox';
import { cx } from '@/components/ui/class-names';
import { HandsetIcon, HourglassIcon, MoreIcon, PinIcon, RetryIcon } from '@/components/ui/icons';
import { UserIcon } from '@/components/ui/user-icon';
import { useLongPress } from '../hooks/use-long-press';
import type { TimelineRow } from '../utils/timeline';
import { ImageTiles, MessageText, ReplyQuote, StampImage } from './message-parts';

/** What the rows ask of the talk screen. Stable across renders, so rows that did not change do not re-render. */
export type RowActions = {
  openMenu: (target: MenuTarget, opener: HTMLElement | null) => void;
  openImage: (src: string) => void;
  retry: (clientId: string) => void;
  /** Shows the message a reply quotes. */
  showOriginal: (messageId: number) => void;
  /** Staff in a talk with a male member: call him back from a call record (product.md §17). */
  callBack?: () => void;
};

export type MenuTarget = { kind: 'message'; message: Message } | { kind: 'pending'; entry: OutboxEntry };

export const TimelineRowView = memo(function TimelineRowView({
  row,
  actions,
}: {
  row: TimelineRow;
  actions: RowActions;
}) {
  return (
    <>
      {row.day ? (
        <h2 className="talk-date">
          <span className="talk-date__label">{row.day}</span>
        </h2>
      ) : null}
      <RowContent row={row} actions={actions} />
    </>
  );
});

function RowContent({ row, actions }: { row: TimelineRow; actions: RowActions }) {
  switch (row.kind) {
    case 'call':
      return (
        <div className="talk-system talk-system--call">
          <p className="talk-system__line">
            <HandsetIcon size={16} />
            <span>{row.message.message.trim() || ja.talk.callRecord}</span>
            <time className="talk-system__time" dateTime={row.message.date}>
              {clockTime(row.message.date)}
            </time>
          </p>
          {actions.callBack ? (
            <button type="button" className="talk-system__call-back" onClick={actions.callBack}>
              {jaMember.calls.callBack}
            </button>
          ) : null}
        </div>
      );
    case 'auto':
      // A note from the app, not a message from a person (product.md §4.9).
      return (
        <div className="talk-system talk-system--note" role="note" aria-label={ja.talk.autoReplyLabel}>
          <p className="talk-system__label">
            <HourglassIcon size={14} />
            {ja.talk.autoReplyLabel}
          </p>
          <p className="talk-system__text">{row.text}</p>
        </div>
      );
    case 'message':
      return (
        <StoredMessage
          message={row.message}
          showSender={row.showSender}
          read={row.read}
          pinned={row.pinned}
          actions={actions}
        />
      );
    case 'pending':
      return <PendingMessage entry={row.entry} actions={actions} />;
  }
}

function MoreButton({ onOpen }: { onOpen: (opener: HTMLElement) => void }) {
  return (
    <button
      type="button"
      className="msg__more"
      aria-label={ja.talk.messageMenu}
      aria-haspopup="menu"
      onClick={(event) => onOpen(event.currentTarget)}
    >
      <MoreIcon size={18} />
    </button>
  );
}

function StoredMessage({
  message,
  showSender,
  read,
  pinned,
  actions,
}: {
  message: Message;
  showSender: boolean;
  read: string | null;
  pinned: boolean;
  actions: RowActions;
}) {
  const openMenu = (opener: HTMLElement | null) => actions.openMenu({ kind: 'message', message }, opener);
  const press = useLongPress(() => openMenu(null));
  const text = message.message;
  const unsent = message.unsent === true;
  const imageOnly = !text.trim() && !message.reply;
  const stamp = message.stamp;
  return (
    <article
      className={cx('msg', message.own ? 'msg--own' : 'msg--other', unsent && 'msg--unsent')}
      data-message-id={message.id}
    >
      {message.own ? null : showSender ? (
        <UserIcon name={message.name} role={message.role} image={message.user_image} />
      ) : (
        <span className="msg__gutter" aria-hidden="true" />
      )}
      <div className="msg__main">
        {!message.own && showSender ? <p className="msg__name">{message.name}</p> : null}
        <div className="msg__line">
          <div
            className={cx(
              'msg__bubble',
              imageOnly && 'msg__bubble--bare',
              stamp && !unsent && 'msg__bubble--stamp',
            )}
            {...press}
          >
            {unsent ? (
              // 送信取消 (product.md §15.4): the words the server gives in its place, muted; nothing else.
              <p className="msg__text msg__text--unsent">{text}</p>
            ) : (
              <>
                {message.reply ? (
                  <ReplyQuote reply={message.reply} onOpen={() => actions.showOriginal(message.reply!.id)} />
                ) : null}
                {text.trim() ? <MessageText text={text} className="msg__text" /> : null}
                {stamp ? (
                  <StampImage src={message.image[0]} label={stamp.label} />
                ) : (
                  <ImageTiles images={message.image} onOpen={actions.openImage} />
                )}
              </>
            )}
          </div>
          <div className="msg__meta">
            {pinned ? (
              <span className="msg__pin">
                <PinIcon size={12} />
                {ja.talk.announce}
              </span>
            ) : null}
            {read ? <span className="msg__status msg__status--read">{read}</span> : null}
            <time className="msg__time" dateTime={message.date}>
              {clockTime(message.date)}
            </time>
          </div>
          <MoreButton onOpen={openMenu} />
        </div>
      </div>
    </article>
  );
}

const statusText = { sending: ja.talk.sending, waiting: ja.talk.waiting, failed: ja.talk.failed } as const;

function PendingMessage({ entry, actions }: { entry: OutboxEntry; actions: RowActions }) {
  const openMenu = (opener: HTMLElement | null) => actions.openMenu({ kind: 'pending', entry }, opener);
  const press = useLongPress(() => openMenu(null));
  const imageOnly = !entry.message.trim() && !entry.reply;
  return (
    <article
      className={cx('msg', 'msg--own', 'msg--pending', `msg--${entry.status}`)}
      data-client-id={entry.client_id}
    >
      <div className="msg__main">
        <div className="msg__line">
          <div
            className={cx(
              'msg__bubble',
              imageOnly && 'msg__bubble--bare',
              entry.stamp && 'msg__bubble--stamp',
            )}
            {...press}
          >
            {entry.reply ? <ReplyQuote reply={entry.reply} /> : null}
            {entry.message.trim() ? <MessageText text={entry.message} className="msg__text" /> : null}
            {entry.stamp ? (
              <StampImage src={entry.stamp.image} label={entry.stamp.label} />
            ) : (
              <ImageTiles images={entry.image} onOpen={actions.openImage} />
            )}
          </div>
          <div className="msg__meta">
            <span className={cx('msg__status', `msg__status--${entry.status}`)}>
              {statusText[entry.status]}
            </span>
            <time className="msg__time" dateTime={entry.created}>
              {clockTime(entry.created)}
            </time>
          </div>
          <MoreButton onOpen={openMenu} />
        </div>
        {entry.status === 'failed' ? (
          <div className="msg__failure">
            {entry.error && entry.error !== ja.talk.failed ? (
              <p className="msg__error">{entry.error}</p>
            ) : null}
            <button type="button" className="msg__retry" onClick={() => actions.retry(entry.client_id)}>
              <RetryIcon size={16} />
              {ja.talk.retry}
            </button>
          </div>
        ) : null}
      </div>
    </article>
  );
}
