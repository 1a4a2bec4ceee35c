import { ja } from '@enishi/contract';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import {
  CopyIcon,
  PinIcon,
  ReplyIcon,
  RetryIcon,
  TrashIcon,
  CloseIcon,
  UndoIcon,
} from '@/components/ui/icons';
import './message-menu.css';
import { Phrases } from '@/components/ui/phrases';

/** Each action draws its own icon (menuIcons): the talk names its actions without loading the menu. */
export type MenuItem = { key: MenuAction; label: string; danger?: boolean; run: () => void };

const menuIcons = {
  reply: <ReplyIcon size={20} />,
  announce: <PinIcon size={20} />,
  copy: <CopyIcon size={20} />,
  delete: <TrashIcon size={20} />,
  retry: <RetryIcon size={20} />,
  discard: <CloseIcon size={20} />,
  unsend: <UndoIcon size={20} />,
} satisfies Record<string, ReactNode>;

export type MenuAction = keyof typeof menuIcons;

/**
 * The sheet shown modal while it is mounted, focus on its first item; when it closes, focus goes back where it
 * was unless the chosen action moved it on (返信 focuses the comment box).
 */
function useMenuSheet() {
  const dialog = useRef<HTMLDialogElement>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    list.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      if (element.open) element.close();
      // Unless the chosen action moved focus on (返信 focuses the comment box), it goes back where it was.
      const active = document.activeElement;
      if (previous?.isConnected && (!active || active === document.body))
        previous.focus({ preventScroll: true });
    };
  }, []);
  return { dialog, list };
}

/** One action of the menu (red when it deletes or gives up). */
function MenuButton({ item, onChoose }: { item: MenuItem; onChoose: () => void }) {
  return (
    <li role="none">
      <button
        type="button"
        role="menuitem"
        className={item.danger ? 'sheet__item sheet__item--danger inset-focus' : 'sheet__item inset-focus'}
        onClick={onChoose}
      >
        {menuIcons[item.key]}
        <span>{item.label}</span>
      </button>
    </li>
  );
}

/**
 * The menu of one message (long press, right click, or its ⋯ button): a sheet with the message in brief
 * and its actions as a `menu`. Arrow keys move between items; Escape or a tap outside closes it, and focus
 * goes back to where it was.
 */
export function MessageMenu({
  preview,
  items,
  onClose,
}: {
  preview: string;
  items: MenuItem[];
  onClose: () => void;
}) {
  const { dialog, list } = useMenuSheet();
  const titleId = useId();

  function choose(item: MenuItem) {
    // Closed first, so that the page is no longer inert when the action runs.
    dialog.current?.close();
    onClose();
    item.run();
  }

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const buttons = Array.from(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      buttons[(to + buttons.length) % buttons.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(buttons.length - 1);
  }

  return (
    <dialog
      ref={dialog}
      className="sheet"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A tap on the backdrop (the dialog element itself, outside its panel) closes the menu.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="sheet__panel">
        <p id={titleId} className="visually-hidden">
          <Phrases text={ja.talk.messageMenu} />
        </p>
        {preview ? <p className="sheet__preview">{preview}</p> : null}
        <ul ref={list} className="sheet__menu" role="menu" aria-labelledby={titleId} onKeyDown={onKeyDown}>
          {items.map((item) => (
            <MenuButton key={item.key} item={item} onChoose={() => choose(item)} />
          ))}
        </ul>
        <button type="button" className="sheet__cancel" onClick={onClose}>
          {ja.app.cancel}
        </button>
      </div>
    </dialog>
  );
}
