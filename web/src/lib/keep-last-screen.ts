import { can, ja } from '@enishi/contract';
import {
  LAST_SCREEN_CACHE,
  LAST_SCREEN_DATA_ID,
  LAST_SCREEN_ENTRY_HEADER,
  OFFLINE_NOTE,
  isLastScreenPath,
  type LastScreen,
} from './last-screen-rules';
import { STILL_LOADING } from './pwa';
import { getSession } from './session';

/*
 * Keeps a member's home and last talk as he last saw them, for the service worker to serve at the next open
 * (product.md §15.6, lib/last-screen.ts). Members only: staff work in one long-open tab.
 */

/** Screens still in the middle of something are not kept: a dialog, a menu, a list still loading. */
const NOT_SETTLED = `[role="dialog"], [role="alertdialog"], [role="menu"], ${STILL_LOADING}`;
/** Drawn only for this moment (a toast, the offline note): not part of the screen kept. */
const MOMENTARY = '[role="status"], [role="alert"], .offline-notice, .toasts';
/** A screen is kept once it has stopped changing for this long (ms). */
const SETTLE_MS = 800;

/** The page, as the service worker will give it next time: this build's head, the screen, and whose it is. */
export function pageOf(root: HTMLElement, kept: LastScreen): string {
  const screen = root.cloneNode(true) as HTMLElement;
  for (const element of screen.querySelectorAll(`${MOMENTARY}, script`)) element.remove();
  // Inline styles in HTML are refused by the Content-Security-Policy (only the talk's rows have them, for their
  // places), and a scroll position is not in HTML at all: the talk's copy shows its end in its own way
  // (timeline.css, [data-kept-at-end]).
  for (const element of screen.querySelectorAll('[style]')) element.removeAttribute('style');
  for (const scroller of screen.querySelectorAll('[role="log"]'))
    scroller.setAttribute('data-kept-at-end', '');
  // The offline note as the app draws it, hidden until the worker serves the page offline (sw.ts); the
  // catalogue's text holds no markup.
  const note = `<p class="offline-notice" role="alert" ${OFFLINE_NOTE}="" hidden="">${ja.app.offline}</p>`;
  // `<` escaped: the data block cannot end early whatever the path holds.
  const data = JSON.stringify(kept).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="ja"><head>${document.head.innerHTML}</head><body><div id="root">${screen.innerHTML}${note}</div><script type="application/json" id="${LAST_SCREEN_DATA_ID}">${data}</script></body></html>`;
}

async function keepNow(root: HTMLElement): Promise<void> {
  const session = getSession();
  const path = window.location.pathname;
  const entry = document.querySelector('script[type="module"][src]')?.getAttribute('src');
  if (!session || can(session, 'desk.use') || !entry) return;
  if (!isLastScreenPath(path) || window.location.search || document.visibilityState !== 'visible') return;
  if (root.querySelector(NOT_SETTLED)) return;
  const cache = await caches.open(LAST_SCREEN_CACHE);
  // One talk is kept besides the home: the one opened last.
  if (path !== '/')
    for (const request of await cache.keys())
      if (![path, '/'].includes(new URL(request.url).pathname)) await cache.delete(request);
  await cache.put(
    path,
    new Response(pageOf(root, { path, uid: session.uid }), {
      headers: { 'Content-Type': 'text/html; charset=utf-8', [LAST_SCREEN_ENTRY_HEADER]: entry },
    }),
  );
}

/**
 * Keeps the member's screen each time it settles; returns the stop. Only where a service worker serves the
 * app: without one, nothing would ever read it.
 */
export function keepLastScreens(): () => void {
  const root = document.getElementById('root');
  if (!root || typeof caches === 'undefined' || !navigator.serviceWorker?.controller) return () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void keepNow(root).catch(() => undefined), SETTLE_MS);
  };
  const observer = new MutationObserver(changed);
  // A list done loading may only lose its aria-busy; a row's place (style) is not a change of the screen.
  observer.observe(root, {
    childList: true,
    subtree: true,
    characterData: true,
    attributeFilter: ['aria-busy', 'class', 'hidden'],
  });
  // The screen drawn before this started counts too: it may not change again.
  changed();
  return () => {
    clearTimeout(timer);
    observer.disconnect();
  };
}
