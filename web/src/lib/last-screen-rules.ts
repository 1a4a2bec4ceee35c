/*
 * What the page and the service worker agree on about the last screen kept on the device (product.md §15.6,
 * lib/keep-last-screen.ts keeps it, sw.ts serves it, lib/last-screen.ts reads it back at start).
 */

/** The Cache Storage cache holding the kept pages, keyed by their path. */
export const LAST_SCREEN_CACHE = 'enishi-last-screen';

/** The header of a kept page naming the script it starts with: served only while this build has that script. */
export const LAST_SCREEN_ENTRY_HEADER = 'X-Enishi-Entry';

/** The JSON block of a kept page: whose screen it is, and for which address. */
export const LAST_SCREEN_DATA_ID = 'last-screen';

/**
 * Marks the kept page's offline note: the app's own note (app/offline-notice.tsx), kept hidden, which the worker
 * shows when it serves the page offline (the app's note comes only with its first drawing).
 */
export const OFFLINE_NOTE = 'data-kept-offline-note';

/**
 * The kept page with its offline note shown. The note is the last thing in the screen, so the last match is the
 * note whatever a message says (text keeps its quotes as they are in HTML).
 */
export function withOfflineNote(page: string): string {
  const hidden = `${OFFLINE_NOTE}="" hidden=""`;
  const at = page.lastIndexOf(hidden);
  return at < 0 ? page : `${page.slice(0, at)}${OFFLINE_NOTE}=""${page.slice(at + hidden.length)}`;
}

export type LastScreen = { path: string; uid: number };

/** A member's home and his talks: the screens the app is reopened on. */
export const isLastScreenPath = (path: string): boolean =>
  path === '/' || /^\/talk\/[a-z]+\/\d{1,15}$/.test(path);
