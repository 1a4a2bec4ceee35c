import { ja } from '@enishi/contract';
import { useSyncExternalStore } from 'react';
import './offline-notice.css';
import { Phrases } from '@/components/ui/phrases';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** While the browser is offline, API calls are skipped (product.md §5); say so. */
export function OfflineNotice() {
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  if (online) return null;
  return (
    <p className="offline-notice" role="alert">
      <Phrases text={ja.app.offline} />
    </p>
  );
}
