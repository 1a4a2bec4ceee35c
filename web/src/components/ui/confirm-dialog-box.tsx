import { ja } from '@enishi/contract';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import type { ConfirmRequest } from './confirm-dialog';
import { Phrases } from './phrases';

/** The yes/no dialog of `useConfirm` (confirm-dialog.tsx): modal, focus kept inside, Escape says no. */
export default function ConfirmDialog({
  request,
  onSettle,
}: {
  request: ConfirmRequest;
  onSettle: (confirmed: boolean) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const messageId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Modal: the rest of the page is inert until the question is answered.
    if (!element.open) element.showModal();
    (request.initialFocus === 'confirm' ? confirmButton : cancelButton).current?.focus();
    return () => {
      if (element.open) element.close();
      if (previous?.isConnected) previous.focus();
    };
  }, [request]);

  // Keep Tab inside the dialog even where the browser would move on to its own controls.
  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onSettle(false);
      return;
    }
    if (event.key !== 'Tab') return;
    const first = cancelButton.current;
    const last = confirmButton.current;
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={messageId}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        onSettle(false);
      }}
    >
      <span className="dialog__ornament" aria-hidden="true" />
      <p id={messageId} className="dialog__message">
        <Phrases text={request.message} />
      </p>
      <div className="dialog__actions">
        <button ref={cancelButton} type="button" className="btn btn--quiet" onClick={() => onSettle(false)}>
          <span className="btn__label">{request.cancelLabel ?? ja.app.no}</span>
        </button>
        <button ref={confirmButton} type="button" className="btn btn--primary" onClick={() => onSettle(true)}>
          <span className="btn__label">{request.confirmLabel ?? ja.app.yes}</span>
        </button>
      </div>
    </dialog>
  );
}
