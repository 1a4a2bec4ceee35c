import { startCalls } from '@/features/call/controller';
import { startChatSocket } from '@/lib/chat/socket';
import { setExternalChangeHandler } from '@/lib/local-state';
import { startAppBadge } from '@/lib/notifications';
import { startPushDevice } from '@/lib/push-subscription';
import { queryClient } from '@/lib/query-client';
import { setSessionEndedHandler } from '@/lib/session';
import { isPublicPath } from './public-routes';

let started = false;

/**
 * What runs for a logged-in user, started the first time the member area opens (a visitor on a public page
 * never loads it): the chat socket, voice calls (they ride it), the app icon badge, the push device, and leaving the member area when the
 * server ends the session (401) or another tab logs out. Each then follows the session by itself.
 */
export function startMemberServices(navigate: (to: string, options: { replace: boolean }) => unknown): void {
  if (started) return;
  started = true;
  const leave = () => {
    queryClient.clear();
    if (!isPublicPath(window.location.pathname)) void navigate('/enter', { replace: true });
  };
  setSessionEndedHandler(leave);
  setExternalChangeHandler((previous, next) => {
    if (previous.session && previous.session.session !== next.session?.session) leave();
  });
  startChatSocket();
  startCalls();
  startAppBadge();
  startPushDevice();
}
