import { getLocalState, updateLocalState } from '../local-state';

/*
 * The newest message id this device has seen: the socket's catch-up starts after it (product.md §15.2).
 * Kept in the local state of the session it belongs to, written at most once a second.
 */

const PERSIST_LAST_ID_MS = 1000;

let lastId: number | null = null;
let persistTimer: ReturnType<typeof setTimeout> | undefined;
/** The session the id belongs to: it is never written into another one's state. */
let sessionToken: string | null = null;

export const lastSeenId = (): number | null => lastId;

export function noteSeen(id: number): void {
  if (lastId !== null && id <= lastId) return;
  lastId = id;
  if (persistTimer) return;
  persistTimer = setTimeout(persistLastSeen, PERSIST_LAST_ID_MS);
}

/** Writes the id now if it has not been (the page is going away). */
export function persistLastSeen(): void {
  if (!persistTimer) return;
  clearTimeout(persistTimer);
  persistTimer = undefined;
  const id = lastId;
  updateLocalState((state) =>
    state.session && state.session.session === sessionToken && state.lastMessageId !== id
      ? { ...state, lastMessageId: id }
      : state,
  );
}

/** Another session (or none): its stored id, and nothing pending of the one before. */
export function followSession(token: string | null): void {
  clearTimeout(persistTimer);
  persistTimer = undefined;
  sessionToken = token;
  lastId = token === null ? null : getLocalState().lastMessageId;
}
