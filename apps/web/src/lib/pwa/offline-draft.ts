import { getToken } from '../token-storage';
import { tokenSubject } from './protocol';

/** The Authorization scheme `tokenSubject` reads (not a word to translate). */
const AUTH_SCHEME = 'Bearer';

/**
 * A post composed while offline (issue 44): the server's drafts (issue 41) cannot be reached, so its words and
 * the pictures chosen are kept in this browser's IndexedDB, one per account, and the composer offers them the
 * next time it opens. Everything here fails quietly: without IndexedDB there is simply nothing kept.
 */
export interface OfflineDraft {
  content: string;
  files: File[];
  savedAt: string;
}

const DB = 'share-arts';
const STORE = 'offline-drafts';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open.'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB refused.'));
    });
  } finally {
    db.close();
  }
}

/** The signed-in account's key; undefined for a visitor. */
const accountKey = () => {
  const userId = tokenSubject(getToken() ? `${AUTH_SCHEME} ${getToken()}` : null);
  return userId ? `draft:${userId}` : undefined;
};

export async function keepOfflineDraft(draft: Omit<OfflineDraft, 'savedAt'>): Promise<void> {
  const key = accountKey();
  if (!key || typeof indexedDB === 'undefined') return;
  await run('readwrite', (store) => store.put({ ...draft, savedAt: new Date().toISOString() }, key)).catch(() => {});
}

export async function readOfflineDraft(): Promise<OfflineDraft | undefined> {
  const key = accountKey();
  if (!key || typeof indexedDB === 'undefined') return undefined;
  const draft = await run<OfflineDraft | undefined>('readonly', (store) => store.get(key)).catch(() => undefined);
  return draft && (draft.content.trim() || draft.files.length > 0) ? draft : undefined;
}

export async function dropOfflineDraft(): Promise<void> {
  const key = accountKey();
  if (!key || typeof indexedDB === 'undefined') return;
  await run('readwrite', (store) => store.delete(key)).catch(() => {});
}
