import { Notifications } from '@enishi/contract';
import { useSyncExternalStore } from 'react';
import { z } from 'zod';

/**
 * Everything the app keeps between visits, as one JSON value under one fixed localStorage key (product.md §9).
 * Logout removes the key as a whole (the outbox of unsent messages lives in IndexedDB: lib/chat/outbox.ts).
 */
export const STORAGE_KEY = 'enishi';

const Session = z.object({
  uid: z.number(),
  role: z.number(),
  rank: z.number(),
  name: z.string(),
  /** The `session` from /api/login, sent as `ssid` on every call. */
  session: z.string().min(1),
  image: z.string().nullable().default(null),
  /** Staff who must set up a second factor before anything else (product.md §11.7). */
  secondFactorSetup: z.boolean().optional(),
});
export type Session = z.infer<typeof Session>;

/** Notification counters (product.md §3); the app icon badge is their sum. */
export type Counters = Notifications;
const noCounters: Counters = { news: 0, fromStaff: 0, setting: 0, fromWomen: 0, fromMen: 0 };

const LocalState = z.object({
  session: Session.nullable().catch(null),
  counters: Notifications.catch(noCounters),
  /** Unsent comment text per conversation id (product.md §3 drafts): never lost on reload or when leaving a talk. */
  drafts: z.record(z.string(), z.string()).catch({}),
  /** The newest message id this device has seen, sent as `last_id` so the socket catches up on what was missed. */
  lastMessageId: z.number().int().nonnegative().nullable().catch(null),
  /** Announcements the user chose not to see again (今後は表示しない) where they may not unpin them for all. */
  hiddenAnnouncements: z.array(z.number().int()).catch([]),
  /** Members chosen for a bulk send, per target (sendmen, sendwomen); the text is in `drafts` (product.md §3). */
  recipients: z.record(z.string(), z.array(z.number().int())).catch({}),
});
export type LocalState = z.infer<typeof LocalState>;
const empty: LocalState = {
  session: null,
  counters: noCounters,
  drafts: {},
  lastMessageId: null,
  hiddenAnnouncements: [],
  recipients: {},
};

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage disabled (private mode on old Safari): keep state in memory only
  }
}

function read(): LocalState {
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return empty;
  try {
    const parsed = LocalState.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : empty;
  } catch {
    return empty;
  }
}

let state: LocalState = read();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function getLocalState(): LocalState {
  return state;
}

export function updateLocalState(update: (current: LocalState) => LocalState): void {
  const next = update(state);
  if (next === state) return;
  state = next;
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // quota or disabled storage: the in-memory state still works for this visit
  }
  emit();
}

/** Forget everything kept locally: the persisted state and this tab's session storage. */
export function clearLocalState(): void {
  state = empty;
  try {
    storage()?.removeItem(STORAGE_KEY);
    globalThis.sessionStorage?.clear();
  } catch {
    // nothing stored
  }
  emit();
}

type ExternalChange = (previous: LocalState, next: LocalState) => void;
let onExternalChange: ExternalChange | undefined;

/** Called when another tab changes the stored state (e.g. logs out). */
export function setExternalChangeHandler(handler: ExternalChange | undefined): void {
  onExternalChange = handler;
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    const previous = state;
    state = read();
    emit();
    onExternalChange?.(previous, state);
  });
}

/** Called after every change of the state, from this tab or another. */
export function subscribeLocalState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const subscribe = subscribeLocalState;

export function useLocalState<T>(select: (state: LocalState) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(state),
    () => select(empty),
  );
}
