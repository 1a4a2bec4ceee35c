import type { NoticeRow } from '@enishi/contract';
import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/api-client';

/** The notices' list and its words: a chunk of its own, loaded only when there is a notice to show. */
const AccountNoticeList = lazy(() => import('./account-notices'));

/**
 * Reads the person's account notices (product.md §11.8) when the app opens and whenever it comes back to the
 * foreground, and shows them above the screen; nothing is drawn, and nothing more loaded, while there are none.
 */
export function AccountNotices() {
  const [rows, setRows] = useState<NoticeRow[]>([]);
  const load = useCallback(() => {
    api('notices', {}).then(
      (reply) => setRows(reply.rows),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    load();
    const onVisible = () => document.visibilityState === 'visible' && load();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [load]);

  if (rows.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <AccountNoticeList rows={rows} onRows={setRows} />
    </Suspense>
  );
}
