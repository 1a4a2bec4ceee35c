import { MESSAGE_IMAGES_MAX, MESSAGE_MAX, ja, type ReplyRef, jaMember } from '@enishi/contract';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useDraft } from '@/lib/chat/drafts';
import { talkImageDataUrl } from '@/lib/image-files';
import { toast } from '@/lib/toast';
import { useImagePicker } from '@/lib/use-image-picker';
import { cx } from '@/components/ui/class-names';
import { CloseIcon, ImageIcon, ReplyIcon, SendIcon } from '@/components/ui/icons';
import { useCannedPicker, type CannedChoice } from './canned-picker';
import { ReplyQuote } from './message-parts';
import './composer.css';
import { Phrases } from '@/components/ui/phrases';

export type Outgoing = { message: string; image: string[]; reply: ReplyRef | null };

/** From this many characters the composer shows how many of MESSAGE_MAX are used (product.md §9.2). */
const COUNTER_FROM = MESSAGE_MAX - 1000;

/** Talk pictures: JPEG or PNG only (product.md §5). */
const TALK_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;

/**
 * The comment box (product.md §2, §5): a textarea that grows with its text (80px to 40vh), pictures to attach,
 * the reply being written and the send button. The text is a draft kept per talk until it is sent.
 */
export function Composer({
  conversationId,
  replyTo,
  onCancelReply,
  onSend,
  canned = [],
  fillCanned = (body) => body,
}: {
  conversationId: number;
  replyTo: ReplyRef | null;
  onCancelReply: () => void;
  onSend: (outgoing: Outgoing) => void;
  /** Saved replies (staff): `/name` or the 定型文 button puts one in. */
  canned?: CannedChoice[];
  fillCanned?: (body: string) => string;
}) {
  const [draft, setDraft] = useDraft(conversationId);
  const { images, setImages, reading, pick } = useTalkImages();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const picker = useCannedPicker({ replies: canned, draft, setDraft, fill: fillCanned, textarea });

  // Grow with the text where CSS `field-sizing` is missing (Safari); the CSS keeps it within 80px..40vh.
  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element || CSS.supports?.('field-sizing', 'content')) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight + 2}px`;
  }, [draft]);
  // Choosing 返信 in a message's menu goes on to writing the reply.
  useEffect(() => {
    if (replyTo) textarea.current?.focus();
  }, [replyTo]);

  function send() {
    if (reading > 0) return;
    if (!draft.trim() && images.length === 0) {
      toast(ja.talk.emptyComment);
      textarea.current?.focus();
      return;
    }
    onSend({ message: draft, image: images, reply: replyTo });
    setDraft('');
    setImages([]);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
  }

  // Enter is a new line (phones have no other way); Ctrl/⌘+Enter sends from a keyboard.
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (picker.onKeyDown(event)) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  }

  return (
    <form className="composer" onSubmit={onSubmit}>
      {replyTo ? <ReplyBar replyTo={replyTo} onCancel={onCancelReply} /> : null}
      {images.length > 0 || reading > 0 ? (
        <Thumbs
          images={images}
          reading={reading}
          onRemove={(index) => setImages((current) => current.filter((_, at) => at !== index))}
        />
      ) : null}
      {picker.list}
      <div className="composer__row">
        <label className="composer__picker">
          <input
            type="file"
            accept={TALK_IMAGE_TYPES.join(',')}
            multiple
            className="visually-hidden"
            onChange={(event) => void pick(event)}
          />
          <ImageIcon size={24} />
          <span className="visually-hidden">{ja.talk.addImage}</span>
        </label>
        {canned.length > 0 ? <CannedToggle picker={picker} /> : null}
        <label htmlFor={id} className="visually-hidden">
          {ja.talk.composer}
        </label>
        <textarea
          id={id}
          ref={textarea}
          className="composer__input"
          placeholder={ja.talk.placeholder}
          value={draft}
          maxLength={MESSAGE_MAX}
          rows={2}
          enterKeyHint="enter"
          aria-describedby={`${id}-hint`}
          aria-controls={picker.open ? picker.listId : undefined}
          aria-activedescendant={picker.activeId}
          onChange={(event) => setDraft(event.target.value)}
          onPaste={warnWhenCut}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className="composer__send"
          // Keeps the focus (and a phone's keyboard) in the comment box when the button is tapped.
          onMouseDown={(event) => event.preventDefault()}
          aria-label={ja.talk.send}
          aria-busy={reading > 0 || undefined}
        >
          <SendIcon size={22} />
        </button>
      </div>
      <ComposerHint id={`${id}-hint`} length={draft.length} />
    </form>
  );
}

/** Under the box: how to send, and how much of MESSAGE_MAX a long message uses (product.md §9.2). */
function ComposerHint({ id, length }: { id: string; length: number }) {
  return (
    <p id={id} className="composer__hint">
      {jaMember.desk.enterHint}
      {length >= COUNTER_FROM ? (
        <span
          className={cx('composer__count', length >= MESSAGE_MAX && 'composer__count--full')}
          role="status"
        >
          {jaMember.talkLimit.count(length, MESSAGE_MAX)}
        </span>
      ) : null}
    </p>
  );
}

/** The box holds MESSAGE_MAX characters; a paste that would not fit is cut, so say so. */
function warnWhenCut(event: ClipboardEvent<HTMLTextAreaElement>) {
  const box = event.currentTarget;
  const kept = box.value.length - (box.selectionEnd - box.selectionStart);
  if (kept + event.clipboardData.getData('text').length > MESSAGE_MAX)
    toast(jaMember.talkLimit.tooLong(MESSAGE_MAX));
}

/** The pictures attached to the comment. */
function useTalkImages() {
  const [images, setImages] = useState<string[]>([]);
  // Wrong types and sizes are dropped silently (product.md §5); more than a message holds is worth a word.
  const { reading, pick } = useImagePicker({
    types: TALK_IMAGE_TYPES,
    room: MESSAGE_IMAGES_MAX - images.length,
    read: talkImageDataUrl,
    onPicked: (picked) => {
      if (picked.overflow) toast(ja.errors.tooManyImages);
      setImages((current) => [...current, ...picked.images]);
    },
  });
  return { images, setImages, reading, pick };
}

function CannedToggle({ picker }: { picker: { open: boolean; listId: string; toggle: () => void } }) {
  return (
    <button
      type="button"
      className="composer__canned-toggle"
      aria-expanded={picker.open}
      aria-controls={picker.listId}
      onMouseDown={(event) => event.preventDefault()}
      onClick={picker.toggle}
    >
      {jaMember.desk.replies}
    </button>
  );
}

function ReplyBar({ replyTo, onCancel }: { replyTo: ReplyRef; onCancel: () => void }) {
  return (
    <div className="composer__reply">
      <ReplyIcon size={18} className="composer__reply-icon" />
      <div className="composer__reply-body">
        <p className="composer__reply-label">
          <Phrases text={ja.talk.replyTo} />
        </p>
        <ReplyQuote reply={replyTo} className="composer__reply-quote" />
      </div>
      <button
        type="button"
        className="composer__icon-button"
        aria-label={ja.talk.cancelReply}
        onClick={onCancel}
      >
        <CloseIcon size={20} />
      </button>
    </div>
  );
}

/** The pictures attached so far, each with a remove button, and a placeholder for each still being read. */
function Thumbs({
  images,
  reading,
  onRemove,
}: {
  images: string[];
  reading: number;
  onRemove: (index: number) => void;
}) {
  return (
    <ul className="composer__thumbs" aria-label={ja.talk.selectedImages}>
      {images.map((src, index) => (
        <li key={`${index}:${src.length}`} className="composer__thumb">
          <img src={src} alt="" className="composer__thumb-image" />
          <button
            type="button"
            className="composer__thumb-remove"
            aria-label={ja.talk.removeImage.replace('{n}', String(index + 1))}
            onClick={() => onRemove(index)}
          >
            <CloseIcon size={16} />
          </button>
        </li>
      ))}
      {Array.from({ length: reading }, (_, index) => (
        <li
          key={`reading-${index}`}
          className="composer__thumb composer__thumb--reading"
          aria-hidden="true"
        />
      ))}
    </ul>
  );
}
