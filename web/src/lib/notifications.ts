import {
  getLocalState,
  subscribeLocalState,
  updateLocalState,
  useLocalState,
  type Counters,
} from './local-state';

export type { Counters };

export const useCounters = (): Counters => useLocalState((state) => state.counters);

export function setCounters(patch: Partial<Counters>): void {
  updateLocalState((state) => {
    const counters = { ...state.counters, ...patch };
    // The socket and the poll often repeat what is known: no write, no re-render then.
    const same = (Object.keys(counters) as (keyof Counters)[]).every(
      (key) => counters[key] === state.counters[key],
    );
    return same ? state : { ...state, counters };
  });
}

export const counterSum = (counters: Counters): number =>
  counters.news + counters.fromStaff + counters.setting + counters.fromWomen + counters.fromMen;

let shownBadge = -1;

/** The app icon badge is the sum of the counters (product.md §3), where the platform has one (installed PWAs). */
function syncAppBadge(): void {
  if (typeof navigator === 'undefined' || !('setAppBadge' in navigator)) return;
  const sum = getLocalState().session ? counterSum(getLocalState().counters) : 0;
  if (sum === shownBadge) return;
  shownBadge = sum;
  const done = sum > 0 ? navigator.setAppBadge(sum) : navigator.clearAppBadge();
  done.catch(() => undefined);
}

/** Called once at start-up (main.tsx). */
export function startAppBadge(): void {
  subscribeLocalState(syncAppBadge);
  syncAppBadge();
  // A push set the badge meanwhile (the service worker): the app's own count stands again when it is shown.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    shownBadge = -1;
    syncAppBadge();
  });
}
