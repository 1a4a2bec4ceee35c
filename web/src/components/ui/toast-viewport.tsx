import { useToasts } from '@/lib/toast';
import './toast-viewport.css';

/** Where toasts appear; always present so screen readers announce each new one. */
export function ToastViewport() {
  const toasts = useToasts();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <p key={toast.id} className="toast">
          {toast.message}
        </p>
      ))}
    </div>
  );
}
