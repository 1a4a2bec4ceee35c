import { ja } from '@enishi/contract';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import './button.css';
import './confirm-dialog.css';
import { Phrases } from './phrases';

export type ConfirmOptions = {
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Which button has focus first; the harmless one unless said otherwise. */
  initialFocus?: 'confirm' | 'cancel';
};
type Request = ConfirmOptions & { resolve: (confirmed: boolean) => void };
type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** Holds the app's one yes/no dialog; a new question replaces (and declines) an open one. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<Request | null>(null);
  const open = useRef<Request | null>(null);

  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        open.current?.resolve(false);
        open.current = { ...options, resolve };
        setRequest(open.current);
      }),
    [],
  );

  const settle = useCallback((confirmed: boolean) => {
    const current = open.current;
    open.current = null;
    setRequest(null);
    current?.resolve(confirmed);
  }, []);

  return (
    <ConfirmContext value={confirm}>
      {children}
      {request ? <ConfirmDialog request={request} onSettle={settle} /> : null}
    </ConfirmContext>
  );
}

/** Ask a yes/no question in an in-app alert dialog; resolves true on yes. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs ConfirmProvider');
  return confirm;
}

function ConfirmDialog({ request, onSettle }: { request: Request; onSettle: (confirmed: boolean) => void }) {
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
