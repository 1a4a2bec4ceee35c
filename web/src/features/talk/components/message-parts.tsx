import { ja, type ReplyRef } from '@enishi/contract';
import { cx } from '@/components/ui/class-names';
import { LinkedText } from '@/components/ui/linked-text';

/** Message text: text nodes, with http(s) URLs as links to a new tab. Never parsed as HTML. */
export function MessageText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={className}>
      <LinkedText text={text} />
    </p>
  );
}

/** The pictures of a message, each a button that shows it large. Fixed tile sizes keep the timeline still. */
export function ImageTiles({ images, onOpen }: { images: string[]; onOpen: (src: string) => void }) {
  if (images.length === 0) return null;
  return (
    <ul className={cx('msg-images', images.length === 1 && 'msg-images--single')} role="list">
      {images.map((src, index) => (
        <li key={`${index}:${src}`}>
          <button
            type="button"
            className="msg-images__button"
            aria-label={ja.talk.viewImage}
            onClick={() => onOpen(src)}
          >
            <img className="msg-images__image" src={src} alt="" loading="lazy" decoding="async" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The replied-to message in brief: who wrote it, and its text, スタンプ「…」 or 画像. In the timeline it is a button that
 * shows the original (`onOpen`).
 */
export function ReplyQuote({
  reply,
  className,
  onOpen,
}: {
  reply: ReplyRef;
  className?: string;
  onOpen?: () => void;
}) {
  const text = reply.stamp
    ? ja.talk.stampQuote(reply.stamp.label)
    : reply.message.trim() || (reply.image.length > 0 ? ja.talk.image : '');
  const parts = (
    <>
      <span className="visually-hidden">{ja.talk.replyTo}</span>
      <span className="reply-quote__name">{reply.name}</span>
      <span className="reply-quote__text">{text}</span>
    </>
  );
  if (!onOpen) return <blockquote className={cx('reply-quote', className)}>{parts}</blockquote>;
  return (
    <button
      type="button"
      className={cx('reply-quote', 'reply-quote--link', className)}
      title={ja.talk.showOriginal}
      onClick={onOpen}
    >
      {parts}
    </button>
  );
}

/** A stamp (product.md §12.8): its picture drawn large, without a bubble; its words are its alternative text. */
export function StampImage({ src, label }: { src: string | undefined; label: string }) {
  return src ? (
    <img className="msg__stamp" src={src} alt={label} width={120} height={120} decoding="async" />
  ) : (
    <p className="msg__text">{label}</p>
  );
}
