/*
 * Hydrating a prerendered public page (product.md §2.7). The build writes the page's HTML into #root and the
 * address it was rendered for into a JSON block (never run as script, so the CSP stays as it is); the app then
 * takes over the HTML instead of drawing it anew, so the words painted before any script ran stay where they are.
 */

export const HYDRATION_DATA_ID = 'hydration-data';

/** What the build writes beside a prerendered page's HTML. */
export type Prerendering = { path: string };

/** The address this page's HTML was rendered for, or null when the page was not prerendered. */
export function prerenderedPath(root: HTMLElement): string | null {
  const block = document.getElementById(HYDRATION_DATA_ID);
  if (!block || !root.firstElementChild) return null;
  try {
    const { path } = JSON.parse(block.textContent ?? '') as Partial<Prerendering>;
    return typeof path === 'string' ? path : null;
  } catch {
    return null;
  }
}
