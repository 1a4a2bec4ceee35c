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

export type LastScreen = { path: string; uid: number };

/** A member's home and his talks: the screens the app is reopened on. */
export const isLastScreenPath = (path: string): boolean =>
  path === '/' || /^\/talk\/[a-z]+\/\d{1,15}$/.test(path);
