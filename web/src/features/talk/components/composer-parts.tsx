import { MESSAGE_MAX, ja, type ReplyRef, jaMember } from '@enishi/contract';
import type { ChangeEvent, ClipboardEvent, KeyboardEvent, Ref } from 'react';
import { cx } from '@/components/ui/class-names';
import { CloseIcon, ImageIcon, ReplyIcon, SendIcon } from '@/components/ui/icons';
import { Phrases } from '@/components/ui/phrases';
import { toast } from '@/lib/toast';
import { ReplyQuote } from './message-parts';

/* The comment box's parts (composer.tsx): what is above the box, its buttons, and the line under it. */

/** From this many characters the composer shows how many of MESSAGE_MAX are used (product.md §9.2). */
const COUNTER_FROM = MESSAGE_MAX - 1000;

/** The picture button: a file input of the given types behind the icon. */
export function AttachButton({
  types,
  onPick,
}: {
  types: readonly string[];
  onPick: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <label className="composer__picker">
      <input type="file" accept={types.join(',')} multiple className="visually-hidden" onChange={onPick} />
      <ImageIcon size={24} />
      <span className="visually-hidden">{ja.talk.addImage}</span>
    </label>
  );
}

/** 送信, busy while pictures are still being read. */
export function SendButton({ busy }: { busy: boolean }) {
  return (
    <button
      type="submit"
      className="composer__send"
      // Keeps the focus (and a phone's keyboard) in the comment box when the button is tapped.
      onMouseDown={(event) => event.preventDefault()}
      aria-label={ja.talk.send}
      aria-busy={busy || undefined}
    >
      <SendIcon size={22} />
    </button>
  );
}

/** The text box itself, with its label for screen readers; the saved replies' list hangs on it when open. */
export function ComposerInput({
  id,
  ref,
  value,
  onChange,
  picker,
  onKeyDown,
}: {
  id: string;
  ref: Ref<HTMLTextAreaElement>;
  value: string;
  onChange: (value: string) => void;
  picker: { open: boolean; listId: string; activeId: string | undefined };
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {ja.talk.composer}
      </label>
      <textarea
        id={id}
        ref={ref}
        className="composer__input"
        placeholder={ja.talk.placeholder}
        value={value}
        maxLength={MESSAGE_MAX}
        rows={2}
        enterKeyHint="enter"
        aria-describedby={`${id}-hint`}
        aria-controls={picker.open ? picker.listId : undefined}
        aria-activedescendant={picker.activeId}
        onChange={(event) => onChange(event.target.value)}
        onPaste={warnWhenCut}
        onKeyDown={onKeyDown}
      />
    </>
  );
}

/** The box holds MESSAGE_MAX characters; a paste that would not fit is cut, so say so. */
function warnWhenCut(event: ClipboardEvent<HTMLTextAreaElement>) {
  const box = event.currentTarget;
  const kept = box.value.length - (box.selectionEnd - box.selectionStart);
  if (kept + event.clipboardData.getData('text').length > MESSAGE_MAX)
    toast(jaMember.talkLimit.tooLong(MESSAGE_MAX));
}

/** Under the box: how to send, and how much of MESSAGE_MAX a long message uses (product.md §9.2). */
export function ComposerHint({ id, length }: { id: string; length: number }) {
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

/** 定型文 (staff): opens and closes the list of saved replies. */
export function CannedToggle({ picker }: { picker: { open: boolean; listId: string; toggle: () => void } }) {
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

/** The message being replied to, with the button that stops replying. */
export function ReplyBar({ replyTo, onCancel }: { replyTo: ReplyRef; onCancel: () => void }) {
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
export function Thumbs({
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
