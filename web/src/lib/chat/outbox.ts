import type { ConversationType, ReplyRef, TextFrame } from '@enishi/contract';
import { useSyncExternalStore } from 'react';
import { openStore, requestIn } from '../idb';

/*
 * The outbox: messages written here and not yet confirmed by the server. An entry is shown at once in its
 * talk (送信中 while its frame is on the wire, 送信待ち while the socket is down) and is removed when the
 * server's echo with the same client_id arrives. Entries live in IndexedDB, so a reload or a lost connection
 * loses nothing; the server stores each client_id once, so sending an entry again after a reconnect is safe.
 */

export type OutboxStatus = 'sending' | 'waiting' | 'failed';

export type OutboxEntry = {
  client_id: string;
  /** The user who wrote it: another user logging in on this device never sends it. */
  uid: number;
  conversation_id: number;
  /** Unknown when the talk was opened offline; the server does not need it. */
  conversation_type: ConversationType | null;
  message: string;
  /** PNG data URLs. */
  image: string[];
  /** The replied-to message as shown in the quote; only its id goes on the wire. */
  reply: ReplyRef | null;
  announce: boolean;
  /** A stamp (product.md §12.8): sent alone, shown from its picture until the echo comes. */
  stamp?: { id: number; label: string; image: string };
  /** When it was written (ISO 8601), for its place in the timeline. */
  created: string;
  status: OutboxStatus;
  /** The server's words when it refused the message. */
  error: string | null;
  /** Times sent without an answer; a message that keeps breaking the connection is given up on. */
  attempts: number;
};

/** Sent this many times without an echo (each time the connection dropped), the entry is marked failed. */
export const MAX_ATTEMPTS = 3;

export function toTextFrame(entry: OutboxEntry): TextFrame {
  return {
    type: 'text',
    conversation_id: entry.conversation_id,
    ...(entry.conversation_type ? { conversation_type: entry.conversation_type } : {}),
    message: entry.message,
    image: entry.image,
    reply: entry.reply?.id ?? null,
    announce: entry.announce,
    client_id: entry.client_id,
    ...(entry.stamp ? { stamp_id: entry.stamp.id } : {}),
  };
}

const byCreated = (a: OutboxEntry, b: OutboxEntry) =>
  a.created < b.created ? -1 : a.created > b.created ? 1 : 0;

/** Entries kept in memory and entries read back from storage, once each (memory wins), oldest first. */
export function mergeEntries(memory: OutboxEntry[], stored: OutboxEntry[]): OutboxEntry[] {
  const seen = new Set(memory.map((entry) => entry.client_id));
  // What a previous visit was sending when it ended was never confirmed: it waits to be sent again.
  const loaded = stored
    .filter((entry) => !seen.has(entry.client_id))
    .map((entry) => (entry.status === 'sending' ? { ...entry, status: 'waiting' as const } : entry));
  return [...memory, ...loaded].sort(byCreated);
}

/**
 * The entries of one talk still to show: not yet in the timeline. An echo can reach the timeline (over
 * HTTP, say) before the outbox hears of it; the stored message then wins.
 */
export function pendingFor(
  entries: OutboxEntry[],
  conversationId: number,
  storedClientIds: ReadonlySet<string>,
): OutboxEntry[] {
  return entries.filter(
    (entry) => entry.conversation_id === conversationId && !storedClientIds.has(entry.client_id),
  );
}

/** What to send when the connection is (back) up: everything not failed, oldest first. */
export function entriesToSend(entries: OutboxEntry[]): { send: OutboxEntry[]; giveUp: OutboxEntry[] } {
  const open = entries.filter((entry) => entry.status !== 'failed');
  return {
    send: open.filter((entry) => entry.attempts < MAX_ATTEMPTS),
    giveUp: open.filter((entry) => entry.attempts >= MAX_ATTEMPTS),
  };
}

// --- the store ----------------------------------------------------------------------------------------

let entries: OutboxEntry[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

function setEntries(next: OutboxEntry[]): void {
  entries = next;
  emit();
}

export const getOutbox = (): OutboxEntry[] => entries;

export function useOutbox(): OutboxEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => entries,
    () => entries,
  );
}

export function addEntry(entry: OutboxEntry): void {
  setEntries([...entries, entry]);
  void store((db) => db.put(entry));
}

export function updateEntry(clientId: string, patch: Partial<OutboxEntry>): void {
  const current = entries.find((entry) => entry.client_id === clientId);
  if (!current) return;
  const next = { ...current, ...patch };
  setEntries(entries.map((entry) => (entry === current ? next : entry)));
  void store((db) => db.put(next));
}

/** The server stored it (its echo came), or the user gave it up. */
export function removeEntry(clientId: string): void {
  if (!entries.some((entry) => entry.client_id === clientId)) return;
  setEntries(entries.filter((entry) => entry.client_id !== clientId));
  void store((db) => db.delete(clientId));
}

/** The connection dropped: what was on the wire waits for the next one. */
export function markSendingAsWaiting(): void {
  if (!entries.some((entry) => entry.status === 'sending')) return;
  setEntries(entries.map((entry) => (entry.status === 'sending' ? { ...entry, status: 'waiting' } : entry)));
}

/** A message the server could not store for now (an error frame with `retry`) is sent again this much later. */
export const RESEND_MS = 2000;
let resendTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The server answered that it could not store the message for now and stored nothing (its database away,
 * decision 020): it waits (送信待ち) and goes again by itself with every other entry waiting then (`send`
 * sends only on a live socket; else the next connection does). The answer shows the message does not break
 * the connection, so it does not count towards giving up.
 */
export function resendLater(clientId: string, send: (entry: OutboxEntry) => void): void {
  const uid = entries.find((entry) => entry.client_id === clientId)?.uid;
  updateEntry(clientId, { status: 'waiting', attempts: 0, error: null });
  if (resendTimer) return;
  resendTimer = setTimeout(() => {
    resendTimer = undefined;
    for (const entry of entries) if (entry.uid === uid && entry.status === 'waiting') send(entry);
  }, RESEND_MS);
}

/** Read back the entries of `uid` kept by earlier visits; anyone else's are deleted. */
export async function loadOutbox(uid: number): Promise<void> {
  const stored = (await store((db) => db.getAll())) ?? [];
  const others = stored.filter((entry) => entry.uid !== uid);
  for (const entry of others) void store((db) => db.delete(entry.client_id));
  const mine = stored.filter((entry) => entry.uid === uid);
  if (mine.length > 0) setEntries(mergeEntries(entries, mine));
}

/** Logout: nothing of the user stays on the device. */
export function clearOutbox(): void {
  if (entries.length > 0) setEntries([]);
  void store((db) => db.clear());
}

// --- IndexedDB --------------------------------------------------------------------------------------------

const DB_NAME = 'enishi';
const STORE = 'outbox';

type Store = {
  put: (entry: OutboxEntry) => IDBRequest;
  delete: (clientId: string) => IDBRequest;
  getAll: () => IDBRequest<OutboxEntry[]>;
  clear: () => IDBRequest;
};

let database: Promise<IDBDatabase | null> | undefined;

const openDatabase = (): Promise<IDBDatabase | null> =>
  // No IndexedDB (some private modes): the outbox lives in memory for this visit.
  (database ??= openStore(DB_NAME, STORE, { keyPath: 'client_id' }));

/** One request in its own transaction; failures leave the in-memory outbox as the record. */
async function store<T>(run: (db: Store) => IDBRequest<T>): Promise<T | undefined> {
  if (typeof indexedDB === 'undefined') return undefined;
  const db = await openDatabase();
  if (!db) return undefined;
  const request = requestIn(db, STORE, 'readwrite', (objects) =>
    run({
      put: (entry) => objects.put(entry),
      delete: (clientId) => objects.delete(clientId),
      getAll: () => objects.getAll() as IDBRequest<OutboxEntry[]>,
      clear: () => objects.clear(),
    }),
  );
  return request.catch(() => undefined);
}
