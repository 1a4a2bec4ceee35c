import { LAST_SCREEN_CACHE, LAST_SCREEN_DATA_ID, type LastScreen } from './last-screen-rules';
import { getSession } from './session';

/*
 * The last screen a member saw, kept on the device (product.md §15.6). A member's phone reopens the app on his
 * home or his talk with the desk many times a day; the service worker answers that opening with the screen as
 * it was last drawn (lib/keep-last-screen.ts keeps it), so his messages are on
 * the screen as soon as the page is, before any script has run; the app then draws the same screen over it from
 * the device and the server. Here: what the first drawing and logout need of it.
 */

/** Logout: no screen of the user stays on the device. */
export async function forgetLastScreens(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(LAST_SCREEN_CACHE).catch(() => false);
}

/** Whether the app opened over a kept screen of this user at this address: read once, then the block goes. */
let openedOver: boolean | undefined;

function readOpenedOver(): boolean {
  const block = document.getElementById(LAST_SCREEN_DATA_ID);
  block?.remove();
  if (!block) return false;
  try {
    const kept = JSON.parse(block.textContent ?? '') as Partial<LastScreen>;
    return kept.path === window.location.pathname && kept.uid === getSession()?.uid;
  } catch {
    return false;
  }
}

/**
 * The app opened over this user's kept screen of the address it is at, and this is its first drawing: the
 * screen's loader then waits for what it draws from the device (the talk's kept page), so that the drawing
 * replaces the kept one without a blank between. True once.
 */
export function takeLastScreen(): boolean {
  if (typeof document === 'undefined') return false;
  const over = (openedOver ??= readOpenedOver());
  openedOver = false;
  return over;
}
