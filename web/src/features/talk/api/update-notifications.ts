import { api } from '@/lib/api-client';
import { getLocalState } from '@/lib/local-state';
import { setCounters } from '@/lib/notifications';

/** Give the socket's `open` frame a moment to mark the talk read before asking for the counters. */
const AFTER_OPEN_MS = 800;

/**
 * Opening a group talk resets the setting badge (SPEC §4): at once here, then POST /api/updateNotifications
 * for the server's counters (derived from read state, so they agree once the talk is marked read).
 */
export function resetSettingBadge(uid: number): () => void {
  setCounters({ setting: 0 });
  const timer = setTimeout(() => {
    api('updateNotifications', { uid, ...getLocalState().counters, setting: 0 })
      .then((reply) => {
        const counters = reply.rows[0];
        if (counters) setCounters(counters);
      })
      .catch(() => undefined);
  }, AFTER_OPEN_MS);
  return () => clearTimeout(timer);
}
