import { useToasts } from '@/lib/toast';
import { cx } from './class-names';
import { CheckCircleIcon } from './icons';
import './toast-viewport.css';

/** Where toasts appear; always present so screen readers announce each new one. */
export function ToastViewport() {
  const toasts = useToasts();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <p key={toast.id} className={cx('toast', toast.success && 'toast--success')}>
          {toast.success ? <CheckCircleIcon size={18} className="toast__icon" /> : null}
          {toast.message}
        </p>
      ))}
    </div>
  );
}
