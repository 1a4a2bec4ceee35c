/*
 * What the service worker needs to renew this device's push subscription on its own (pushsubscriptionchange
 * fires when no page may be open, and the worker has no session): the logged-in user, their session and the
 * server key the subscription was made with. Kept in IndexedDB, the one store both the page and the worker
 * reach; written when the app subscribes or starts logged in, removed on logout.
 */

import { openStore, requestIn } from './idb';

export type PushDevice = { uid: number; ssid: string; publicKey: string };

const DB = 'enishi-push';
const STORE = 'device';
const KEY = 'current';

async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openStore(DB, STORE);
  if (!db) throw new Error('indexedDB open failed');
  try {
    return (await requestIn(db, STORE, mode, act)) as T;
  } finally {
    db.close();
  }
}

export async function readPushDevice(): Promise<PushDevice | null> {
  try {
    return (await run<PushDevice | undefined>('readonly', (store) => store.get(KEY))) ?? null;
  } catch {
    return null;
  }
}

export const savePushDevice = (device: PushDevice): Promise<unknown> =>
  run('readwrite', (store) => store.put(device, KEY));

export const forgetPushDevice = (): Promise<unknown> =>
  run('readwrite', (store) => store.delete(KEY)).catch(() => undefined);

/** The base64url VAPID key as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
