import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import './button.css';
import './confirm-dialog.css';

export type ConfirmOptions = {
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Which button has focus first; the harmless one unless said otherwise. */
  initialFocus?: 'confirm' | 'cancel';
};
export type ConfirmRequest = ConfirmOptions & { resolve: (confirmed: boolean) => void };
type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** The dialog itself loads with the first question: no first load carries it (issue 29). */
const ConfirmDialog = lazy(() => import('./confirm-dialog-box'));

/** Holds the app's one yes/no dialog; a new question replaces (and declines) an open one. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const open = useRef<ConfirmRequest | null>(null);

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
      <Suspense fallback={null}>
        {request ? <ConfirmDialog request={request} onSettle={settle} /> : null}
      </Suspense>
    </ConfirmContext>
  );
}

/** Ask a yes/no question in an in-app alert dialog; resolves true on yes. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs ConfirmProvider');
  return confirm;
}
