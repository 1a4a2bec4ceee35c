import { LIMITS, type PushSubscriptionJson } from '@enishi/contract';
import { subscriptionJson } from './subscription-json';

/*
 * Service worker life cycle (product.md §9): the worker is registered from code (the CSP forbids inline script),
 * looks for a new version every second while the app is visible, and a waiting version is offered to the
 * user after the next navigation (app/update-prompt.tsx).
 */

type Listener = () => void;
let updatePending = false;
let applyWaitingUpdate: (() => Promise<void>) | undefined;
const listeners = new Set<Listener>();

export const isUpdatePending = (): boolean => updatePending;

export function onUpdatePending(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function reloadAtHome(): void {
  window.location.replace('/');
}

/**
 * Opening the app clears the notifications it has shown, on whatever screen it opens (product.md §16): the
 * member is looking now.
 */
async function clearShownNotifications(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration();
  const shown = (await registration?.getNotifications?.()) ?? [];
  shown.forEach((notification) => notification.close());
}

export async function startServiceWorker(): Promise<void> {
  if ('serviceWorker' in navigator) {
    void clearShownNotifications();
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void clearShownNotifications();
    });
  }
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { registerSW } = await import('virtual:pwa-register');
  applyWaitingUpdate = registerSW({
    onNeedRefresh() {
      updatePending = true;
      listeners.forEach((listener) => listener());
    },
    // The new worker took control after the user said yes: start again at home.
    onNeedReload: reloadAtHome,
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      let checking = false;
      setInterval(() => {
        if (checking || updatePending || document.visibilityState !== 'visible' || !navigator.onLine) return;
        checking = true;
        registration
          .update()
          .catch(() => undefined)
          .finally(() => {
            checking = false;
          });
      }, LIMITS.swUpdateCheckMs);
    },
    onRegisterError(error: unknown) {
      console.warn('service worker registration failed', error);
    },
  });
}

/** Activate the waiting version; the page reloads at / once it controls the page. */
export async function applyUpdate(): Promise<void> {
  updatePending = false;
  await applyWaitingUpdate?.();
  // If the new worker never announces itself, still leave the old version behind.
  setTimeout(reloadAtHome, 3000);
}

/** This device's push subscription, if it has one (sent on logout so the server forgets it). */
export async function currentPushSubscription(): Promise<PushSubscriptionJson | null> {
  try {
    if (!('serviceWorker' in navigator)) return null;
    const registration = await navigator.serviceWorker.getRegistration();
    return subscriptionJson(await registration?.pushManager?.getSubscription());
  } catch {
    return null;
  }
}
