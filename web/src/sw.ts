import type { PushPayload } from '@enishi/contract';
import {
  addRoute,
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
  precache,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import {
  LAST_SCREEN_CACHE,
  LAST_SCREEN_ENTRY_HEADER,
  isLastScreenPath,
  withOfflineNote,
} from './lib/last-screen-rules';
import { keyBytes, readPushDevice } from './lib/push-device';
import { subscriptionJson } from './lib/subscription-json';

/*
 * The service worker (product.md §9, §16). The shell: every built file is precached, a navigation gets index.html, so
 * the app opens offline; API calls, sockets, media and files never get the shell, and nothing else is cached but
 * the member's last screen, which a navigation to its address gets instead of the shell (product.md §15.6).
 * A new version waits until the user accepts it (app/update-prompt.tsx posts SKIP_WAITING). Push: show the
 * notification, set the app icon badge, open the talk on a tap (a call's: bring the app forward, or open it at
 * the call), renew a subscription the browser replaced.
 */

declare const self: ServiceWorkerGlobalScope;

precache(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * The member's screen as last drawn at this address (lib/keep-last-screen.ts keeps it), while this build still has
 * the script it starts with; sent with the shell's own headers (its Content-Security-Policy among them), and
 * offline with its offline note shown.
 */
async function lastScreen(url: URL): Promise<Response | undefined> {
  if (url.search) return undefined;
  const kept = await caches.match(url.pathname, { cacheName: LAST_SCREEN_CACHE });
  const entry = kept?.headers.get(LAST_SCREEN_ENTRY_HEADER);
  if (!kept || !entry) return undefined;
  const [script, shell] = await Promise.all([matchPrecache(entry), matchPrecache('/index.html')]);
  if (!script || !shell) return undefined;
  const headers = new Headers(shell.headers);
  for (const name of ['Content-Length', 'Content-Encoding', 'ETag', 'Last-Modified']) headers.delete(name);
  // Offline, the page says so at once, as the app will once it has drawn.
  if (self.navigator.onLine === false) return new Response(withOfflineNote(await kept.text()), { headers });
  return new Response(kept.body, { headers });
}

const shell = createHandlerBoundToURL('/index.html');
// Before the precache's own route, which would answer `/` with index.html itself.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && isLastScreenPath(url.pathname),
  async (options) => (await lastScreen(options.url).catch(() => undefined)) ?? shell(options),
);
addRoute();
registerRoute(
  new NavigationRoute(shell, {
    denylist: [/^\/api\//, /^\/ws\//, /^\/media\//, /^\/healthz/, /\/[^/?]+\.[^/?]+$/],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/*
 * Checked by hand, not with the contract's zod schema: the worker is fetched again at every update check, so it
 * stays small. The shape is PushPayload's (product.md §16).
 */
function payloadOf(event: PushEvent): PushPayload | null {
  let data: Partial<Record<keyof PushPayload, unknown>>;
  try {
    data = (event.data?.json() ?? {}) as typeof data;
  } catch {
    return null;
  }
  const { title, body, url, tag, badge, quiet } = data;
  if (typeof title !== 'string' || typeof body !== 'string' || typeof tag !== 'string') return null;
  if (typeof url !== 'string' || !url.startsWith('/')) return null;
  if (typeof badge !== 'number' || !Number.isInteger(badge) || badge < 0) return null;
  return { title, body, url, tag, badge, ...(quiet === true ? { quiet: true } : {}) };
}

/** The tag of a call's push: its tap brings the app forward without reloading it (a ringing call lives in it). */
const CALL_TAG = 'call';

async function showPush(payload: PushPayload): Promise<void> {
  await self.registration.showNotification(payload.title, {
    body: payload.body,
    icon: '/icons/icon-192.png',
    badge: '/icons/badge-96.png',
    tag: payload.tag,
    // A newer message of the same talk replaces the shown one and still rings; a message taken back (送信取消,
    // `quiet`) replaces it without a sound, so the words taken back leave the lock screen.
    renotify: payload.quiet !== true,
    silent: payload.quiet === true,
    data: { url: payload.url },
    // An incoming call (product.md §17) stays until tapped or dismissed, and vibrates like a phone.
    ...(payload.tag === CALL_TAG ? { requireInteraction: true, vibrate: [400, 100, 400, 100, 400] } : {}),
  } as NotificationOptions);
  const badge =
    payload.badge > 0 ? self.navigator.setAppBadge?.(payload.badge) : self.navigator.clearAppBadge?.();
  await badge?.catch(() => undefined);
}

self.addEventListener('push', (event) => {
  const payload = payloadOf(event);
  // A push the worker cannot read is not shown: the server only sends PushPayload.
  if (payload) event.waitUntil(showPush(payload));
});

async function openUrl(url: string, tag: string): Promise<void> {
  const target = new URL(url, self.location.origin);
  if (target.origin !== self.location.origin) return;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === target.origin);
  if (open && tag === CALL_TAG) {
    // The open app already rings (its socket got the call); a navigation would reload it and drop the call.
    await open.focus().catch(() => undefined);
    return;
  }
  if (open) {
    // Focus is allowed only within a real tap; the talk still opens in that window without it.
    await open.focus().catch(() => undefined);
    await open.navigate(target.href);
    return;
  }
  await self.clients.openWindow(target.href);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: unknown } | null)?.url;
  const target = typeof url === 'string' && url.startsWith('/') ? url : '/';
  event.waitUntil(openUrl(target, event.notification.tag));
});

/** The browser replaced the subscription: make a new one with the same key and tell the server (product.md §16). */
async function renewSubscription(old: PushSubscription | null): Promise<void> {
  const device = await readPushDevice();
  if (!device) return; // logged out on this device: nothing to renew
  const subscription = await self.registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(device.publicKey),
  });
  await fetch('/api/subscript', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      ssid: device.ssid,
      userId: device.uid,
      subscript: subscriptionJson(subscription),
      oldSubscript: subscriptionJson(old),
    }),
  });
}

self.addEventListener('pushsubscriptionchange', (event) => {
  const change = event as Event & {
    oldSubscription?: PushSubscription | null;
    waitUntil: ExtendableEvent['waitUntil'];
  };
  change.waitUntil(renewSubscription(change.oldSubscription ?? null).catch(() => undefined));
});
