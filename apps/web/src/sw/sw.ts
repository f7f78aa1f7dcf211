/**
 * The service worker (issue 44, docs/pwa.md), built by vite-plugin-pwa (injectManifest) into /sw.js with the
 * build's files listed in `self.__WB_MANIFEST`. What it does:
 *
 * - precaches the app shell and its hashed chunks, so a repeat visit paints from the cache; the app's own
 *   routes fall back to the shell, the pages the server draws (a shared post, a profile) ask the network first;
 * - keeps the pictures seen (/media/*) cache-first within a bound;
 * - keeps the signed-in person's Home, profile and notifications (network first) in a cache of their account
 *   (`sa-api-<userId>`, named by the token's subject), which logging out deletes;
 * - queues likes, bookmarks and comments made offline and sends them when the network is back;
 * - takes the files, text and links shared to the app (Web Share Target) to the composer;
 * - waits for the page's "skip-waiting" (the reload prompt) before it takes over from an older version.
 */
import { Queue } from 'workbox-background-sync';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import type { PageMessage } from '../lib/pwa/protocol';
import {
  accountCacheName,
  MEDIA_CACHE,
  QUEUED_HEADER,
  SHARE_TARGET_PATH,
  tokenSubject,
  VERIFY_KEY,
} from '../lib/pwa/protocol';
import { WORDS_FILE_PREFIX } from '../lib/words-protocol';
import { isAppRoute, isCachedApi, isQueuedWrite } from './routes';
import { withIdempotencyKey } from './idempotency';
import { installPushHandlers } from './push';
import { handleShareTarget } from './share-target';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

const SHELL = '/index.html';
const WORDS_PATH = `/assets/${WORDS_FILE_PREFIX}`;
const WORDS_CACHE = 'sa-words';

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install takes the open tabs at once (nothing older controls them); a later version waits for the
// page's reload prompt (`skip-waiting` below), so one page never runs a mix of two builds.
clientsClaim();

// ── Navigations ──
/** How long a page the server draws may take before the shell answers instead (a bad network). */
const DRAWN_PAGE_WAIT_MS = 3000;

/** The page from the network, or undefined when it fails or takes longer than DRAWN_PAGE_WAIT_MS. */
async function drawnPage(request: Request): Promise<Response | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DRAWN_PAGE_WAIT_MS)));
  try {
    return await Promise.race([fetch(request), late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

// The app's own routes: the shell from the precache at once (the app then reads its data). The pages the server
// draws ask the network first (within DRAWN_PAGE_WAIT_MS) and fall back to the shell: a shared link's page (a
// post, a profile, a tag, a series: its head must be fresh), and Home (`/`), which the server draws with the
// signed-in person's feed when the session cookie is there (private, never cached): its first picture paints
// from the HTML and the worker's picture cache, before any script has run.
registerRoute(
  new NavigationRoute(
    async ({ request, url }) => {
      if (url.pathname === '/' || !isAppRoute(url.pathname)) {
        const page = await drawnPage(request);
        if (page) return page;
      }
      return (await matchPrecache(SHELL)) ?? fetch(request);
    },
    { denylist: [/^\/api\//, /^\/media\//, /^\/ap\//, /^\/\.well-known\//, /^\/robots\.txt$/, /^\/share-target/] },
  ),
);

// ── Pictures ──
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith('/media/') && request.method === 'GET',
  new CacheFirst({
    cacheName: MEDIA_CACHE,
    plugins: [
      // About 300 pictures: the last screens seen (feed renditions are tens of KB each, so tens of MB at most).
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true }),
    ],
  }),
);

// ── Words ──
// Each chunk's words in a language other than English (issue 43) are not precached (that would be four languages'
// for everyone): the person's own are kept as they load, so a page seen once reads in their language offline. Their
// names change with their content, so a kept copy is never stale.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith(WORDS_PATH) && request.method === 'GET',
  new CacheFirst({
    cacheName: WORDS_CACHE,
    plugins: [new ExpirationPlugin({ maxEntries: 400, purgeOnQuotaError: true })],
  }),
);

// ── Private API answers, one cache per account ──
/** Network first; a copy of a good answer goes into the account's cache; offline, the copy answers. */
async function networkFirstForAccount(request: Request, key: string): Promise<Response> {
  const userId = tokenSubject(request.headers.get('authorization'));
  if (!userId) return fetch(request);
  const cacheName = accountCacheName(userId);
  try {
    const response = await fetch(request.clone());
    if (response.ok) {
      const cache = await caches.open(cacheName);
      await cache.put(key, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await (await caches.open(cacheName)).match(key);
    if (cached) return cached;
    throw error;
  }
}

registerRoute(
  ({ url, request }) => url.origin === self.location.origin && isCachedApi(url.pathname) && request.method === 'GET',
  ({ request, url }) => networkFirstForAccount(request, url.pathname + url.search),
);
// The token check is a POST (not cacheable by itself): its last good answer is kept under VERIFY_KEY.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/api/auth/verify',
  ({ request }) => networkFirstForAccount(request, VERIFY_KEY),
  'POST',
);

// ── Writes made offline ──
// Likes and bookmarks are set-to-a-state requests (a repeated like is refused, 400, and changes nothing);
// comments carry an Idempotency-Key header from the page (without one, this worker gives one: idempotency.ts), so
// that a comment sent again is added once. Replayed by Background Sync, or when the worker next starts where the
// browser has no Background Sync (Workbox does both), or when the page says it is online.
const writes = new Queue('sa-writes', { maxRetentionTime: 7 * 24 * 60 });

/**
 * Sends the queued writes, trying again a few times when the network is not quite back yet (the page hears
 * "online" a moment before requests go through; Background Sync's own retry waits minutes).
 */
async function replayWrites(): Promise<void> {
  for (const wait of [0, 1000, 3000, 10_000]) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      await writes.replayRequests();
      return;
    } catch {
      // Still offline: the request went back to the front of the queue.
    }
  }
}

registerRoute(
  ({ url }) => url.origin === self.location.origin && isQueuedWrite(url.pathname),
  async ({ request }) => {
    // A comment keeps one Idempotency-Key across its first try and its replays: the server adds it once.
    const keyed = withIdempotencyKey(request);
    const copy = keyed.clone();
    try {
      return await fetch(keyed);
    } catch {
      await writes.pushRequest({ request: copy });
      return new Response(JSON.stringify({ queued: true }), {
        status: 202,
        headers: { 'content-type': 'application/json', [QUEUED_HEADER]: '1' },
      });
    }
  },
  'POST',
);

// ── Share target ──
registerRoute(
  ({ url }) => url.pathname === SHARE_TARGET_PATH,
  ({ request }) => handleShareTarget(request),
  'POST',
);

// ── Messages from the page ──
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as PageMessage | undefined;
  if (!message || typeof message !== 'object') return;
  if (message.type === 'skip-waiting') void self.skipWaiting();
  else if (message.type === 'replay-writes') event.waitUntil(replayWrites());
  else if (message.type === 'forget-account' && typeof message.userId === 'string') {
    event.waitUntil(caches.delete(accountCacheName(message.userId)).then(() => undefined));
  }
});

// Caches an older version of this worker made and this one no longer uses: named here when one is retired (a
// list, not "every sa- cache but these", so that another part of the worker, Web Push's `sa-push`, or the
// account caches awaiting their logout, are never swept by mistake). None yet.
const RETIRED_CACHES: readonly string[] = [];
self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all(RETIRED_CACHES.map((name) => caches.delete(name))).then(() => undefined));
});

installPushHandlers(self);
