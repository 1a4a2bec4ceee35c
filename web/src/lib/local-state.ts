import type { Notifications } from '@enishi/contract';
import { useSyncExternalStore } from 'react';

/**
 * Everything the app keeps between visits, as one JSON value under one fixed localStorage key (product.md §9).
 * Logout removes the key as a whole (the outbox of unsent messages lives in IndexedDB: lib/chat/outbox.ts).
 * It is read back with the small checks below, not with zod: this module is in every member's first load
 * (decision 021). A field that does not fit falls back to its empty value on its own.
 */
export const STORAGE_KEY = 'enishi';

export type Session = {
  uid: number;
  role: number;
  rank: number;
  name: string;
  /** The `session` from /api/login, sent as `ssid` on every call. */
  session: string;
  image: string | null;
  /** Staff who must set up a second factor before anything else (product.md §11.7). */
  secondFactorSetup?: boolean;
};

/** Notification counters (product.md §3); the app icon badge is their sum. */
export type Counters = Notifications;
const noCounters: Counters = { news: 0, fromStaff: 0, setting: 0, fromWomen: 0, fromMen: 0 };

export type LocalState = {
  session: Session | null;
  counters: Counters;
  /** Unsent comment text per conversation id (product.md §3 drafts): never lost on reload or when leaving a talk. */
  drafts: Record<string, string>;
  /** The newest message id this device has seen, sent as `last_id` so the socket catches up on what was missed. */
  lastMessageId: number | null;
  /** Announcements the user chose not to see again (今後は表示しない) where they may not unpin them for all. */
  hiddenAnnouncements: number[];
  /** Members chosen for a bulk send, per target (sendmen, sendwomen); the text is in `drafts` (product.md §3). */
  recipients: Record<string, number[]>;
};
const empty: LocalState = {
  session: null,
  counters: noCounters,
  drafts: {},
  lastMessageId: null,
  hiddenAnnouncements: [],
  recipients: {},
};

type Stored = Record<string, unknown>;
const isRecord = (value: unknown): value is Stored =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isInt = (value: unknown): value is number => Number.isInteger(value);
const isIntArray = (value: unknown): value is number[] => Array.isArray(value) && value.every(isInt);
/** A record whose every value passes `check`, or undefined. */
const recordOf = <T>(value: unknown, check: (item: unknown) => item is T): Record<string, T> | undefined =>
  isRecord(value) && Object.values(value).every(check) ? (value as Record<string, T>) : undefined;

function readSession(value: unknown): Session | null {
  if (!isRecord(value)) return null;
  const { uid, role, rank, name, session, image = null, secondFactorSetup } = value;
  if (!isNumber(uid) || !isNumber(role) || !isNumber(rank) || typeof name !== 'string') return null;
  if (typeof session !== 'string' || session.length === 0) return null;
  if (image !== null && typeof image !== 'string') return null;
  if (secondFactorSetup !== undefined && typeof secondFactorSetup !== 'boolean') return null;
  return {
    uid,
    role,
    rank,
    name,
    session,
    image,
    ...(secondFactorSetup === undefined ? {} : { secondFactorSetup }),
  };
}

function readCounters(value: unknown): Counters {
  if (!isRecord(value)) return noCounters;
  const counters = { ...noCounters };
  for (const key of Object.keys(noCounters) as (keyof Counters)[]) {
    const count = value[key];
    if (!isInt(count) || count < 0) return noCounters;
    counters[key] = count;
  }
  return counters;
}

/** The stored state, each field checked on its own. */
export function readStoredState(value: unknown): LocalState {
  if (!isRecord(value)) return empty;
  const { lastMessageId } = value;
  return {
    session: readSession(value.session),
    counters: readCounters(value.counters),
    drafts: recordOf(value.drafts, (item): item is string => typeof item === 'string') ?? {},
    lastMessageId: isInt(lastMessageId) && lastMessageId >= 0 ? lastMessageId : null,
    hiddenAnnouncements: isIntArray(value.hiddenAnnouncements) ? value.hiddenAnnouncements : [],
    recipients: recordOf(value.recipients, isIntArray) ?? {},
  };
}

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
    return readStoredState(JSON.parse(raw));
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
