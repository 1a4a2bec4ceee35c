import type { ConversationRow, MessagesReply, NewsGetReply } from '@enishi/contract';
import { ApiError } from '../api-client';
import { openStore, requestIn } from '../idb';
import { forgetLastScreens } from '../last-screen';
import { getSession } from '../session';

/*
 * The newest messages of the talks opened recently, kept on the device so that they can be read offline
 * (product.md §15.6): the talk's newest page (at most 50 messages and its pinned announcements) and its row,
 * for the 20 talks opened last. Kept in IndexedDB apart from the outbox; another user's copies are never shown,
 * and logout deletes them all.
 */

export const HISTORY_TALKS = 20;

export type SavedTalk = {
  conversation_id: number;
  /** Whose copy: another user logging in on this device never sees it. */
  uid: number;
  /** When it was saved (ms), to keep the talks opened last. */
  saved: number;
  row: ConversationRow | null;
  page: MessagesReply;
};

const DB_NAME = 'enishi-history';
const STORE = 'talks';

let database: Promise<IDBDatabase | null> | undefined;

const openDatabase = (): Promise<IDBDatabase | null> =>
  // No IndexedDB (some private modes): nothing is kept.
  (database ??= openStore(DB_NAME, STORE, { keyPath: 'conversation_id' }));

/** One request in its own transaction; any failure reads as nothing kept. */
async function request<T>(run: (objects: IDBObjectStore) => IDBRequest<T>): Promise<T | undefined> {
  if (typeof indexedDB === 'undefined') return undefined;
  const db = await openDatabase();
  if (!db) return undefined;
  return requestIn(db, STORE, 'readwrite', run).catch(() => undefined);
}

/** Keeps a talk's newest page; the talks opened longest ago beyond the 20 newest are let go. */
export async function saveTalk(talk: Omit<SavedTalk, 'saved'>): Promise<void> {
  await request((objects) => objects.put({ ...talk, saved: Date.now() } satisfies SavedTalk));
  const all = ((await request((objects) => objects.getAll())) ?? []) as SavedTalk[];
  const old = all.sort((a, b) => b.saved - a.saved).slice(HISTORY_TALKS);
  for (const talk of old) await request((objects) => objects.delete(talk.conversation_id));
}

/** The kept copy of a talk for this user, or null. */
export async function loadTalk(uid: number, conversationId: number): Promise<SavedTalk | null> {
  const talk = (await request((objects) => objects.get(conversationId))) as SavedTalk | undefined;
  return talk && talk.uid === uid ? talk : null;
}

/**
 * A call about a talk failed: offline (or with the server out of reach), the copy kept of it for the user
 * logged in; otherwise, or with none kept, null.
 */
export async function keptWhenOffline(error: unknown, conversationId: number): Promise<SavedTalk | null> {
  const uid = getSession()?.uid;
  if (!(error instanceof ApiError && error.offline) || !uid) return null;
  return loadTalk(uid, conversationId);
}

/** Logout: nothing of the user stays on the device (the talks kept, and the last screen kept). */
export async function clearHistory(): Promise<void> {
  await Promise.all([request((objects) => objects.clear()), forgetLastScreens()]);
}

/*
 * The news list last read, kept for reading offline like the talks (product.md §13.1): one copy per user in
 * localStorage (text and dates; pictures show when the browser still has them), deleted at logout.
 */
const NEWS_KEY = 'enishi-news';

export type SavedNews = { uid: number; saved: number; reply: NewsGetReply };

export function saveNews(reply: NewsGetReply): void {
  const uid = getSession()?.uid;
  if (uid === undefined) return;
  try {
    localStorage.setItem(NEWS_KEY, JSON.stringify({ uid, saved: Date.now(), reply } satisfies SavedNews));
  } catch {
    // A full or refused storage keeps nothing.
  }
}

/** This user's saved news, or undefined. */
export function savedNews(): SavedNews | undefined {
  const uid = getSession()?.uid;
  try {
    const saved = JSON.parse(localStorage.getItem(NEWS_KEY) ?? 'null') as SavedNews | null;
    return saved && saved.uid === uid ? saved : undefined;
  } catch {
    return undefined;
  }
}

export function clearSavedNews(): void {
  try {
    localStorage.removeItem(NEWS_KEY);
  } catch {
    // nothing kept
  }
}
