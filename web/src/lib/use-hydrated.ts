import { useLayoutEffect, useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in a prerendered page's HTML and while the app takes it over, true from then on (product.md §2.7).
 * A form painted before any script ran can be tapped before it works; it waits on this instead.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * Text typed into a prerendered form before the app took it over stays on screen, but React's state does not
 * know it (product.md §2.7). `adopt` is called once as the form mounts, before anything re-renders the fields,
 * with what each field holds, so that state can take it.
 */
export function useTypedBeforeHydration(adopt: () => void): void {
  // Once, on mount: later renders are the app's own.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(adopt, []);
}
