import { ApiError, api } from './api-client';
import { clearHistory, clearSavedNews } from './chat/history';
import { stopChatSocket } from './chat/socket';
import { clearLocalState } from './local-state';
import { forgetPushDevice } from './push-device';
import { currentPushSubscription } from './pwa';
import { queryClient } from './query-client';
import { getSession, type Session } from './session';

/** How long one /api/auth answer stands for later navigations. */
const AUTH_CHECK_MS = 10_000;

/**
 * Does the server still accept this session (product.md §2 navigation guard)? Only a clear no counts:
 * offline or a server hiccup keeps the member in, so the app still opens without a connection.
 */
async function askServer(session: Session): Promise<boolean> {
  try {
    const reply = await api('auth', { uid: session.uid }, { keepSessionOn401: true });
    return reply.status === 'accepted';
  } catch (error) {
    return !(error instanceof ApiError && error.status === 401);
  }
}

export function isSessionAccepted(session: Session): Promise<boolean> {
  return queryClient.fetchQuery({
    queryKey: ['auth', session.session, session.uid],
    queryFn: () => askServer(session),
    staleTime: AUTH_CHECK_MS,
    networkMode: 'always',
    retry: false,
  });
}

/** Tell the server the user leaves (POST /api/logout with this device's push subscription); failure is ignored. */
export async function tellServerLogout(): Promise<void> {
  const session = getSession();
  if (!session) return;
  // Closed first, so the server ending this session is not taken for an expiry (which goes to /enter).
  stopChatSocket();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 5000);
  try {
    const subscript = await currentPushSubscription();
    await api(
      'logout',
      { userId: session.uid, subscript, oldSubscript: null },
      { keepSessionOn401: true, signal: abort.signal },
    );
  } catch {
    // the session ends on this device either way
  } finally {
    clearTimeout(timer);
    // The worker must not renew a subscription for a session that has ended.
    await forgetPushDevice();
  }
}

/** Forget everything about the user on this device: stored state, session storage, cached replies and talks. */
export function forgetUser(): void {
  clearLocalState();
  queryClient.clear();
  void clearHistory();
  clearSavedNews();
}
