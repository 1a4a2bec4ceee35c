import { api } from './api-client';
import { subscribeLocalState } from './local-state';
import { keyBytes, readPushDevice, savePushDevice } from './push-device';
import { subscriptionJson } from './subscription-json';
import { getSession, type Session } from './session';

/*
 * This device's push subscription (product.md §16). Permission is asked only on a tap
 * (features/push), never on its own; an iPhone or iPad gets push only in the app added to its home screen, so a
 * Safari tab is shown how to add it first. Once allowed, the subscription follows the server's key: a new key
 * (or a new user or session on this device) subscribes or registers again.
 */

/** Whose device this is: the user and the login a subscription is registered for (nothing else counts). */
export type PushOwner = Pick<Session, 'uid' | 'session'>;

export type PushState = 'install' | 'unsupported' | 'default' | 'denied' | 'granted';

/** iOS Safari (and the iPad's, which calls itself a Mac) outside the home-screen app. */
export function isIosBrowserTab(): boolean {
  const { userAgent, maxTouchPoints } = navigator;
  const ios = /iPhone|iPad|iPod/.test(userAgent) || (userAgent.includes('Macintosh') && maxTouchPoints > 1);
  if (!ios) return false;
  const standalone =
    (navigator as Navigator & { standalone?: boolean }).standalone === true ||
    (typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches);
  return !standalone;
}

export function pushState(): PushState {
  if (isIosBrowserTab()) return 'install';
  if (
    typeof Notification === 'undefined' ||
    typeof PushManager === 'undefined' ||
    !('serviceWorker' in navigator)
  )
    return 'unsupported';
  return Notification.permission;
}

const sameKey = (subscription: PushSubscription, publicKey: string, stored: string | undefined): boolean => {
  const used = subscription.options?.applicationServerKey;
  if (!used) return stored === publicKey;
  const wanted = keyBytes(publicKey);
  const bytes = new Uint8Array(used);
  return bytes.length === wanted.length && bytes.every((byte, i) => byte === wanted[i]);
};

/** How long the app's service worker may take to be ready before subscribing is given up as `no-worker`. */
const WORKER_WAIT_MS = 10_000;

/** Why subscribing failed, where it was not the server (an ApiError says that itself). */
export class PushSetupError extends Error {
  constructor(readonly reason: 'no-worker' | 'subscribe') {
    super(`push setup failed: ${reason}`);
  }
}

function workerReady(): Promise<ServiceWorkerRegistration> {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new PushSetupError('no-worker')), WORKER_WAIT_MS),
    ),
  ]);
}

/**
 * Subscribe with the server's key (again when it changed) and register the subscription for this user.
 * `force`: register even when nothing seems to have changed (the member just tapped).
 */
async function register(session: PushOwner, force: boolean): Promise<void> {
  const registration = await workerReady();
  const { publicKey } = await api('pushkey', {});
  const device = await readPushDevice();
  const existing = await registration.pushManager.getSubscription();
  const keep = existing && sameKey(existing, publicKey, device?.publicKey) ? existing : null;
  const unchanged = keep && device?.uid === session.uid && device.ssid === session.session;
  if (unchanged && !force) return;
  if (existing && !keep) await existing.unsubscribe().catch(() => false);
  const subscription =
    keep ??
    (await registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) })
      .catch((error: unknown) => {
        console.warn('push subscribe refused', error);
        throw new PushSetupError('subscribe');
      }));
  await api('subscript', {
    userId: session.uid,
    subscript: subscriptionJson(subscription),
    oldSubscript: existing && !keep ? subscriptionJson(existing) : null,
  });
  await savePushDevice({ uid: session.uid, ssid: session.session, publicKey });
}

/** On the member's tap: ask (the browser shows its prompt), then subscribe. Resolves to the answer. */
export async function enablePush(session: PushOwner): Promise<NotificationPermission> {
  // Called first in the tap, before any other await: Safari asks only within the user's gesture.
  const permission = await Notification.requestPermission();
  if (permission === 'granted') await register(session, true);
  return permission;
}

/**
 * Whether this device really receives pushes (product.md §16.8): permission granted, a subscription in the
 * browser, and the server holding its endpoint for this session (`/api/push/check`). When the server has
 * lost it (or the browser's subscription is gone), it is registered again; the answer is whether that worked.
 */
export async function verifyPush(session: PushOwner): Promise<boolean> {
  if (pushState() !== 'granted') return false;
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    const { registered } = await api('push/check', { endpoint: subscription.endpoint });
    if (registered) return true;
  }
  await register(session, true);
  const renewed = await registration.pushManager.getSubscription();
  if (!renewed) return false;
  return (await api('push/check', { endpoint: renewed.endpoint })).registered;
}

/** At start and after login: keep an allowed subscription current (a new key, user or session). */
export function renewPushSubscription(): void {
  const session = getSession();
  if (!session || pushState() !== 'granted' || !navigator.onLine) return;
  register(session, false).catch((error: unknown) => console.warn('push subscription renewal failed', error));
}

/** Called once when the member area starts (app/member-services.ts). */
export function startPushDevice(): void {
  let token = getSession()?.session ?? null;
  renewPushSubscription();
  subscribeLocalState(() => {
    const now = getSession()?.session ?? null;
    if (now === token) return;
    token = now;
    renewPushSubscription();
  });
}
