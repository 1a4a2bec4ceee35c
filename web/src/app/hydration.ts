import { matchRoutes, type HydrationState, type RouteObject } from 'react-router';

/*
 * Hydrating a prerendered public page (product.md §2.7). The build writes the page's HTML into #root and what
 * its loaders returned into a JSON block (never run as script, so the CSP stays as it is); the app then takes
 * over the HTML instead of drawing it anew, so the words painted before any script ran stay where they are.
 */

export const HYDRATION_DATA_ID = 'hydration-data';

/** What the build's loaders returned for this page, or null when the page was not prerendered. */
export function prerenderedState(root: HTMLElement): HydrationState | null {
  const block = document.getElementById(HYDRATION_DATA_ID);
  if (!block || !root.firstElementChild) return null;
  try {
    return JSON.parse(block.textContent ?? '') as HydrationState;
  } catch {
    return null;
  }
}

/**
 * Loads the lazy screens of the current URL before the first render: hydration must draw the screen itself,
 * not the loading fallback the router shows while a screen's chunk is on its way.
 */
export async function loadMatchedScreens(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const screen = await route.lazy();
      Object.assign(route, { ...screen, lazy: undefined });
    }),
  );
}
