/**
 * What the page and the service worker (src/sw/sw.ts) agree on: cache names, the messages between them and
 * the addresses the worker answers itself. Dependency-free and without DOM or worker types: both sides
 * import it (the worker is type-checked by tsconfig.sw.json, the page by tsconfig.json).
 */

/** Every cache the app's worker makes starts with this; the precache is Workbox's own (`workbox-precache-…`). */
export const CACHE_PREFIX = 'sa-';
/** The pictures seen (/media/*), cache-first within a bound. */
export const MEDIA_CACHE = 'sa-media';
/** The shared files (Web Share Target) until the composer takes them. */
export const SHARE_CACHE = 'sa-share';
/** One cache of API answers per account: another account on the device never reads it. */
export const accountCacheName = (userId: string) => `sa-api-${userId}`;
/** The key the worker keeps an account's last token check under (POST /api/auth/verify is not cacheable). */
export const VERIFY_KEY = '/__sw/verify';

/** Where the manifest's share_target posts, and where the worker sends the composer afterwards. */
export const SHARE_TARGET_PATH = '/share-target';
/** The composer opens on Home with `?compose` (the Add Post shortcut), and takes shared files with `?share=<id>`. */
export const COMPOSE_PARAM = 'compose';
export const SHARE_PARAM = 'share';
/** The address of a shared item's part in SHARE_CACHE: `meta` or the index of a file. */
export const sharedPartPath = (id: string, part: string | number) => `/__share/${id}/${part}`;

/** What the composer reads from SHARE_CACHE's `meta`. */
export interface SharedMeta {
  title: string;
  text: string;
  url: string;
  files: { name: string; type: string }[];
}

/** The header the worker puts on a write it queued (offline): the page keeps its optimistic state. */
export const QUEUED_HEADER = 'x-share-arts-queued';

/** Messages the page sends the worker. */
export type PageMessage =
  { type: 'forget-account'; userId: string } | { type: 'replay-writes' } | { type: 'skip-waiting' };

/** The `sub` claim of a JWT (the account's id), read without checking it: only to name a local cache. */
export function tokenSubject(authorization: string | null | undefined): string | undefined {
  const token = authorization?.replace(/^Bearer\s+/i, '');
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof json.sub === 'string' && /^[\w-]{1,64}$/.test(json.sub) ? json.sub : undefined;
  } catch {
    return undefined;
  }
}

// ── Web Push (issue 44, docs/push.md) ──
/**
 * Where the page keeps this device's push subscription as the server knows it (endpoint and auth secret, in the
 * cache PUSH_CACHE): when the browser replaces the subscription (`pushsubscriptionchange`), the worker proves
 * the old one to the server (POST /api/push/renew) without the account's token.
 */
export const PUSH_CACHE = 'sa-push';
export const PUSH_SUBSCRIPTION_KEY = '/__sw/push-subscription';

/** What a push carries (the server's PushPayload): the words, the page to open, the grouping tag, the pictures. */
export interface PushData {
  title: string;
  body: string;
  url: string;
  tag: string;
  kind: string;
  image?: string;
  icon?: string;
  count: number;
}
