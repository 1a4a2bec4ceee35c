import { jaMember } from '@enishi/contract';
import { useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { cx } from '@/components/ui/class-names';

export type CannedChoice = { id: number; name: string; body: string };

/** `/name` typed as the whole comment so far: the shortcut being looked for. */
const SHORTCUT = /^\/([^\s/]*)$/u;

/**
 * Saved replies in the comment box (product.md §2.6): typing `/` and a name offers the replies whose name
 * starts so (↑/↓ to move, Enter or Tab to take one, Esc to leave); the 定型文 button offers them all. The
 * reply taken has its placeholders filled.
 */
export function useCannedPicker({
  replies,
  draft,
  setDraft,
  fill,
  textarea,
}: {
  replies: CannedChoice[];
  draft: string;
  setDraft: (text: string) => void;
  fill: (body: string) => string;
  textarea: RefObject<HTMLTextAreaElement | null>;
}) {
  const [browsing, setBrowsing] = useState(false);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();
  const typed = SHORTCUT.exec(draft)?.[1];
  const shortcut = typed !== undefined && dismissed !== draft;
  const matches = shortcut
    ? replies.filter((reply) => reply.name.toLowerCase().startsWith(typed.toLowerCase()))
    : browsing
      ? replies
      : [];
  const open = matches.length > 0;
  const current = Math.min(active, matches.length - 1);

  function choose(reply: CannedChoice) {
    const text = fill(reply.body);
    setDraft(shortcut ? text : draft ? `${draft}${draft.endsWith('\n') ? '' : '\n'}${text}` : text);
    setBrowsing(false);
    setActive(0);
    textarea.current?.focus();
  }

  /** Handles the key when the list is open; true when it did. */
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (!open || event.nativeEvent.isComposing) return false;
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step) setActive((current + step + matches.length) % matches.length);
    else if (event.key === 'Enter' || event.key === 'Tab') choose(matches[current]!);
    else if (event.key === 'Escape') {
      setBrowsing(false);
      setDismissed(draft);
    } else return false;
    event.preventDefault();
    return true;
  }

  return {
    open,
    listId,
    activeId: open ? `${listId}-${current}` : undefined,
    onKeyDown,
    toggle: () => setBrowsing((value) => !value),
    list: open ? (
      <ul id={listId} role="listbox" className="composer__canned" aria-label={jaMember.desk.cannedOptions}>
        {matches.map((reply, index) => (
          <li
            key={reply.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === current}
            className={cx('composer__canned-option', index === current && 'composer__canned-option--active')}
            // Keeps the focus in the comment box.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(reply)}
          >
            <span className="composer__canned-name">/{reply.name}</span>
            <span className="composer__canned-body">{fill(reply.body)}</span>
          </li>
        ))}
      </ul>
    ) : null,
  };
}
