import { LIMITS } from '@enishi/contract';
import { api } from '../api-client';
import { setCounters } from '../notifications';
import { getSession } from '../session';
import { getChatStatus } from './events';

/* While the socket is down the server cannot push the badge counters: they are asked for now and then. */

let pollTimer: ReturnType<typeof setInterval> | undefined;

export function startBadgePoll(): void {
  if (pollTimer || !getSession()) return;
  pollTimer = setInterval(() => {
    const session = getSession();
    if (!session) return stopBadgePoll();
    if (getChatStatus() === 'live' || !navigator.onLine) return;
    api('updateNotifications', { uid: session.uid })
      .then((reply) => {
        const counters = reply.rows[0];
        if (counters) setCounters(counters);
      })
      .catch(() => undefined);
  }, LIMITS.notificationPollMs);
}

export function stopBadgePoll(): void {
  clearInterval(pollTimer);
  pollTimer = undefined;
}
