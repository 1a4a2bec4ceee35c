import { clearLocalState, getLocalState, updateLocalState, useLocalState, type Session } from './local-state';

export type { Session };

export const getSession = (): Session | null => getLocalState().session;

export const useSession = (): Session | null => useLocalState((state) => state.session);

export function setSession(session: Session): void {
  updateLocalState((state) => ({ ...state, session }));
}

/** Refresh what the server says about the logged-in user (name, rank, image). */
export function updateSession(patch: Partial<Omit<Session, 'uid' | 'session'>>): void {
  updateLocalState((state) =>
    state.session ? { ...state, session: { ...state.session, ...patch } } : state,
  );
}

let onSessionEnded: (() => void) | undefined;

/** The app decides where to go when the server ends the session (it goes to /enter). */
export function setSessionEndedHandler(handler: (() => void) | undefined): void {
  onSessionEnded = handler;
}

/** The server no longer accepts the session: forget it and let the app leave the member area. */
export function endSession(): void {
  clearLocalState();
  onSessionEnded?.();
}
