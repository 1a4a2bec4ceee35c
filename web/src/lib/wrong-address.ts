import { useSyncExternalStore } from 'react';

/*
 * The address to open instead of this one, when the chat socket was refused here (lib/chat/wrong-address.ts
 * asks the server). The store alone, with no import of the API client: every page's root layout reads it, so it
 * belongs to the entry, and the member area's first chunk stays out of a public page's load.
 */

let address: string | null = null;
const listeners = new Set<() => void>();

/** Sets the address to open instead of this one, or null when this one is right. */
export function setWrongAddress(next: string | null): void {
  if (next === address) return;
  address = next;
  listeners.forEach((listener) => listener());
}

/** The address to open instead of this one, or null: now, outside React. */
export const wrongAddress = (): string | null => address;

/** The address to open instead of this one, or null. */
export function useWrongAddress(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => address,
    () => null,
  );
}
