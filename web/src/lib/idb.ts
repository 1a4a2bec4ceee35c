/*
 * The app's IndexedDB databases (the outbox, the talks kept for offline reading, the push device the service
 * worker reads): each is at version 1 with one object store, opened here, and read or written one request
 * in a transaction of its own.
 */

/** Opens database `name` with its one `store`; null where there is no IndexedDB (some private modes) or it refuses. */
export function openStore(
  name: string,
  store: string,
  key?: IDBObjectStoreParameters,
): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(store, key);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

/** One request on `store` in a transaction of its own; rejects when it fails. */
export function requestIn<T>(
  db: IDBDatabase,
  store: string,
  mode: IDBTransactionMode,
  run: (objects: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = run(db.transaction(store, mode).objectStore(store));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('indexedDB request failed'));
  });
}
