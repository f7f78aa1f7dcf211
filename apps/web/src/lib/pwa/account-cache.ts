import { accountCacheName, tokenSubject } from './protocol';

/** The Authorization scheme `tokenSubject` reads (not a word to translate). */
const AUTH_SCHEME = 'Bearer';

/**
 * Logging out (or a session that ended) deletes what the service worker kept of this account's answers
 * (`sa-api-<userId>`), from the page itself so that it happens even while no worker runs, and tells the worker.
 */
export function forgetAccountCache(token: string | null): void {
  const userId = tokenSubject(token ? `${AUTH_SCHEME} ${token}` : null);
  if (!userId) return;
  try {
    if (typeof caches !== 'undefined') void caches.delete(accountCacheName(userId)).catch(() => {});
    navigator.serviceWorker?.controller?.postMessage({ type: 'forget-account', userId });
  } catch {
    // No Cache Storage (an old or locked-down browser): nothing was kept.
  }
}
