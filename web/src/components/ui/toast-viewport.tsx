import { useToasts } from '@/lib/toast';
import { cx } from './class-names';
import { CheckCircleIcon } from './icons';
import './toast-viewport.css';
import { Phrases } from './phrases';

/** Where toasts appear; always present so screen readers announce each new one. */
export function ToastViewport() {
  const toasts = useToasts();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <p key={toast.id} className={cx('toast', toast.success && 'toast--success')}>
          {toast.success ? <CheckCircleIcon size={18} className="toast__icon" /> : null}
          <Phrases text={toast.message} />
        </p>
      ))}
    </div>
  );
}
