import { useCallback, useSyncExternalStore } from 'react';
import { isHttpMethod, type HttpMethod, type RequestDraft } from './request';

/** How many past requests the History list keeps. */
export const HISTORY_LIMIT = 10;
const STORAGE_KEY = 'mockman-history';

export interface HistoryHeader {
  name: string;
  /** Empty for secret headers (authorization and the like): their values are never stored. */
  value: string;
  enabled: boolean;
}

export interface HistoryEntry {
  id: string;
  method: HttpMethod;
  endpoint: string;
  body: string;
  headers: HistoryHeader[];
  sentAt: string;
}

// Headers whose values are credentials. The authorization value is refilled from the current token on replay.
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|token|secret|api-key/i;
// Body keys whose values are credentials (a login's password, a verify call's encodedToken).
const SECRET_KEY = /password|token|secret/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name.trim());
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? '' : redactValue(inner)]),
  );
}

/** The body as history keeps it: secret fields blanked, the author's formatting otherwise kept. */
function redactBody(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const redacted = redactValue(parsed);
    return JSON.stringify(redacted) === JSON.stringify(parsed) ? body : JSON.stringify(redacted, null, 2);
  } catch {
    return body;
  }
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<HistoryEntry>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.method === 'string' &&
    isHttpMethod(entry.method) &&
    typeof entry.endpoint === 'string' &&
    typeof entry.body === 'string' &&
    typeof entry.sentAt === 'string' &&
    Array.isArray(entry.headers) &&
    entry.headers.every(
      (h: unknown) =>
        typeof h === 'object' &&
        h !== null &&
        typeof (h as HistoryHeader).name === 'string' &&
        typeof (h as HistoryHeader).value === 'string' &&
        typeof (h as HistoryHeader).enabled === 'boolean',
    )
  );
}

const EMPTY: HistoryEntry[] = [];
let cachedRaw: string | null = null;
let cachedEntries: HistoryEntry[] = EMPTY;
const listeners = new Set<() => void>();

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The stored list, parsed once per change so useSyncExternalStore sees a stable value. */
function readHistory(): HistoryEntry[] {
  const raw = readRaw();
  if (raw === cachedRaw) return cachedEntries;
  cachedRaw = raw;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    cachedEntries = Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, HISTORY_LIMIT) : EMPTY;
  } catch {
    cachedEntries = EMPTY;
  }
  return cachedEntries;
}

function writeHistory(entries: HistoryEntry[]): void {
  try {
    if (entries.length === 0) window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, JSON.stringify(entries));
  } catch {
    // Storage full or blocked: the request still went out, it just is not remembered.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The names of the headers an entry sends, e.g. ["authorization"]. */
export function sentHeaderNames(entry: Pick<HistoryEntry, 'headers'>): string[] {
  return entry.headers.filter((header) => header.enabled).map((header) => header.name.toLowerCase());
}

// One entry per method, endpoint and set of sent headers, so every Replay button has its own name;
// sending the same call with another body replaces the older entry.
function sameRequest(a: HistoryEntry, b: HistoryEntry): boolean {
  return (
    a.method === b.method &&
    a.endpoint === b.endpoint &&
    sentHeaderNames(a).sort().join('\n') === sentHeaderNames(b).sort().join('\n')
  );
}

/** A draft as history stores it: no secret header values, no passwords or tokens in the body. */
export function toHistoryEntry(draft: RequestDraft): HistoryEntry {
  return {
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    method: draft.method,
    endpoint: draft.endpoint.trim(),
    body: redactBody(draft.body),
    headers: draft.headers
      .filter((row) => row.name.trim())
      .map((row) => ({
        name: row.name.trim(),
        value: isSecretHeader(row.name) ? '' : row.value,
        enabled: row.enabled,
      })),
    sentAt: new Date().toISOString(),
  };
}

/** The last HISTORY_LIMIT requests, newest first; a repeated request moves to the top. */
export function useRequestHistory() {
  const entries = useSyncExternalStore(subscribe, readHistory, () => EMPTY);
  const remember = useCallback((draft: RequestDraft) => {
    const entry = toHistoryEntry(draft);
    const rest = readHistory().filter((other) => !sameRequest(other, entry));
    writeHistory([entry, ...rest].slice(0, HISTORY_LIMIT));
  }, []);
  const clear = useCallback(() => writeHistory([]), []);
  return { entries, remember, clear };
}
