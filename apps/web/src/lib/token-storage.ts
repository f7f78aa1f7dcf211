import { STORAGE_KEYS } from '@share-arts/contract';

/** The auth token lives in localStorage under the spec's key "token". */
export function getToken(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  window.localStorage.setItem(STORAGE_KEYS.token, token);
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(STORAGE_KEYS.token);
  } catch {
    // Nothing stored when storage is unavailable.
  }
}
