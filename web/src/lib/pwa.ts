import { LIMITS, type PushSubscriptionJson } from '@enishi/contract';
import { subscriptionJson } from './subscription-json';

/*
 * Service worker life cycle (product.md §9): the worker is registered from code (the CSP forbids inline script),
 * looks for a new version every second while the app is visible, and a waiting version is offered to the
 * user after the next navigation (app/update-prompt.tsx). The platform's own API, in a few lines, in place of
 * workbox-window: its 2.8 kB were on every first load (issue 29). e2e/tests/pwa-update.test.ts deploys a new
 * version under a running app; lib/pwa.test.ts puts the worker's events in the orders a test cannot make a
 * browser send.
 */

/** A screen still loading: the loading screen, a spinner, a list marked busy (lib/keep-last-screen.ts too). */
export const STILL_LOADING = '[aria-busy="true"], .app-loading, .spinner';
/** The web app manifest vite-plugin-pwa writes (vite.config.ts). */
export const MANIFEST_PATH = '/manifest.webmanifest';
/** The manifest is linked at the latest this long after the app started, whatever the screen shows (ms). */
export const MANIFEST_AT_LATEST_MS = 10_000;

/**
 * The member area's HTML carries no manifest link (scripts/prerender.ts): a browser that finds one fetches the
 * manifest and its largest icon at once, and on a phone's connection they competed with the first screen's
 * scripts and reads (product.md §2.7). The app links it once the first screen shows nothing still loading,
 * after that frame is painted; the public pages have it in their HTML.
 */
export function linkManifestOnceDrawn(root: HTMLElement): void {
  if (document.querySelector('link[rel="manifest"]')) return;
  let linked = false;
  const link = () => {
    if (linked) return;
    linked = true;
    observer.disconnect();
    clearTimeout(latest);
    const manifest = document.createElement('link');
    manifest.rel = 'manifest';
    manifest.href = MANIFEST_PATH;
    document.head.append(manifest);
  };
  // Drawn once is enough: the screen stops being watched, and the link waits for that frame only.
  const drawn = () => {
    if (root.querySelector(STILL_LOADING)) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(link, 0));
  };
  const observer = new MutationObserver(drawn);
  observer.observe(root, { childList: true, subtree: true, attributeFilter: ['aria-busy', 'class'] });
  const latest = setTimeout(link, MANIFEST_AT_LATEST_MS);
  drawn();
}

let updatePending = false;
/** The new version that has installed and waits for the user's yes. */
let waitingWorker: ServiceWorker | null = null;

/** Read by the update prompt after each navigation (app/update-prompt.tsx). */
export const isUpdatePending = (): boolean => updatePending;

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

/** A version that installed while another one controls the page is an update (the very first install is not). */
function offer(worker: ServiceWorker): void {
  if (!navigator.serviceWorker.controller || worker === waitingWorker) return;
  waitingWorker = worker;
  updatePending = true;
}

/** Offers `worker` once it has installed (now, if it already has). */
function follow(worker: ServiceWorker | null): void {
  if (!worker) return;
  if (worker.state === 'installed') offer(worker);
  else worker.addEventListener('statechange', () => worker.state === 'installed' && offer(worker));
}

/**
 * Offers a version waiting when the app opened, one already installing then (found by another window of the app
 * or the browser's own check), and each one that installs later. Looks for a new one every second while the app
 * is visible; each look also offers a waiting version whatever event this page missed: a page open during an
 * install once never offered it, about 1 run in 3 on a loaded machine (e2e/tests/pwa-update.test.ts).
 */
export function watchForUpdates(registration: ServiceWorkerRegistration): void {
  if (registration.waiting) offer(registration.waiting);
  follow(registration.installing);
  registration.addEventListener('updatefound', () => follow(registration.installing));
  let checking = false;
  setInterval(() => {
    if (registration.waiting) offer(registration.waiting);
    if (checking || updatePending || document.visibilityState !== 'visible' || !navigator.onLine) return;
    checking = true;
    registration
      .update()
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  }, LIMITS.swUpdateCheckMs);
}

export async function startServiceWorker(): Promise<void> {
  if ('serviceWorker' in navigator) {
    void clearShownNotifications();
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void clearShownNotifications();
    });
  }
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // Once the page has loaded: the worker's first precache downloads never compete with the first screen.
  if (document.readyState !== 'complete')
    await new Promise((loaded) => window.addEventListener('load', loaded, { once: true }));
  try {
    // The worker vite-plugin-pwa builds from src/sw.ts; its scope is the whole app.
    watchForUpdates(await navigator.serviceWorker.register('/sw.js', { scope: '/' }));
  } catch (error) {
    console.warn('service worker registration failed', error);
  }
}

/** Activates the waiting version (src/sw.ts skips waiting on this message); the page starts again at /. */
export function applyUpdate(): void {
  updatePending = false;
  navigator.serviceWorker.addEventListener('controllerchange', reloadAtHome, { once: true });
  waitingWorker?.postMessage({ type: 'SKIP_WAITING' });
  // If the new worker never takes control, still leave the old version behind.
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
