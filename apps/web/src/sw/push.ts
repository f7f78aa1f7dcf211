/**
 * Web Push in the service worker (issue 44, docs/push.md):
 *
 * - `push`: the server's payload (decrypted by the browser) shown as a notification: its words, the actor's photo
 *   or the app's icon, the work's picture, and its tag, so that a newer push of the same group (more likes of one
 *   work) replaces the one on screen instead of piling up;
 * - `notificationclick`: focuses a tab already on that page, or brings an open tab there, or opens a window;
 * - `pushsubscriptionchange`: the browser replaced the subscription: the worker subscribes again with the same
 *   key and tells the server, proving the old subscription (its endpoint and secret), since it holds no token.
 */
import { PUSH_CACHE, PUSH_SUBSCRIPTION_KEY, type PushData } from '../lib/pwa/protocol';

const ICON = '/pwa/icon-192.png';
const BADGE = '/pwa/icon-192.png';

/** The payload, or a plain notification when it is not ours (text, or nothing). */
function dataOf(event: PushEvent): PushData {
  try {
    const data = event.data?.json() as Partial<PushData> | undefined;
    if (data && typeof data.title === 'string') {
      return {
        title: data.title,
        body: typeof data.body === 'string' ? data.body : '',
        url: typeof data.url === 'string' ? data.url : '/notifications',
        tag: typeof data.tag === 'string' ? data.tag : 'share-arts',
        kind: typeof data.kind === 'string' ? data.kind : '',
        count: typeof data.count === 'number' ? data.count : 1,
        ...(typeof data.image === 'string' ? { image: data.image } : {}),
        ...(typeof data.icon === 'string' ? { icon: data.icon } : {}),
      };
    }
  } catch {
    // Not JSON: shown as text below.
  }
  return {
    title: 'Share Arts',
    body: event.data?.text() ?? '',
    url: '/notifications',
    tag: 'share-arts',
    kind: '',
    count: 1,
  };
}

/** Only a page of this site is opened (a path, or an address on this origin). */
function sameOriginUrl(self: ServiceWorkerGlobalScope, url: unknown): string {
  try {
    const parsed = new URL(typeof url === 'string' ? url : '/notifications', self.location.origin);
    return parsed.origin === self.location.origin ? parsed.href : new URL('/notifications', self.location.origin).href;
  } catch {
    return new URL('/notifications', self.location.origin).href;
  }
}

async function openPage(self: ServiceWorkerGlobalScope, url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const same = windows.find((client) => client.url === url);
  if (same) {
    await same.focus();
    return;
  }
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    // A tab of the app: taken to the page (navigate works on the tabs this worker controls).
    try {
      const moved = await open.navigate(url);
      await (moved ?? open).focus();
      return;
    } catch {
      // Not controlled by this worker: a new window below.
    }
  }
  await self.clients.openWindow(url);
}

/** The subscription the server knows (kept by the page when it subscribed). */
async function keptSubscription(): Promise<{ endpoint: string; auth: string; kinds?: string[] } | undefined> {
  try {
    const cache = await caches.open(PUSH_CACHE);
    const response = await cache.match(PUSH_SUBSCRIPTION_KEY);
    return response ? ((await response.json()) as { endpoint: string; auth: string; kinds?: string[] }) : undefined;
  } catch {
    return undefined;
  }
}

async function resubscribe(self: ServiceWorkerGlobalScope, event: Event): Promise<void> {
  const change = event as Event & {
    oldSubscription?: PushSubscription | null;
    newSubscription?: PushSubscription | null;
  };
  const previous = await keptSubscription();
  if (!previous) return;
  let next = change.newSubscription ?? null;
  if (!next) {
    const key =
      change.oldSubscription?.options.applicationServerKey ??
      (await (
        await fetch('/api/push/key')
      )
        .json()
        .then((json: { publicKey: string }) => base64UrlBytes(json.publicKey)));
    next = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  const json = next.toJSON();
  const response = await fetch('/api/push/renew', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      previous: { endpoint: previous.endpoint, auth: previous.auth },
      endpoint: json.endpoint,
      keys: json.keys,
    }),
  });
  const cache = await caches.open(PUSH_CACHE);
  if (response.ok && json.endpoint && json.keys?.auth) {
    await cache.put(
      PUSH_SUBSCRIPTION_KEY,
      new Response(JSON.stringify({ endpoint: json.endpoint, auth: json.keys.auth, kinds: previous.kinds })),
    );
  } else if (response.status === 404) {
    // The server forgot it (the session ended): nothing to push to this device any more.
    await cache.delete(PUSH_SUBSCRIPTION_KEY);
    await next.unsubscribe();
  }
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function installPushHandlers(self: ServiceWorkerGlobalScope): void {
  self.addEventListener('push', (event) => {
    const data = dataOf(event);
    const options: NotificationOptions & { image?: string; renotify?: boolean; timestamp?: number } = {
      body: data.body,
      icon: data.icon ?? ICON,
      badge: BADGE,
      tag: data.tag,
      // A newer push of the same group replaces the one shown, and is announced again.
      renotify: true,
      timestamp: Date.now(),
      data: { url: data.url },
      ...(data.image ? { image: data.image } : {}),
    };
    event.waitUntil(self.registration.showNotification(data.title, options));
  });

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const url = sameOriginUrl(self, (event.notification.data as { url?: unknown } | null)?.url);
    event.waitUntil(openPage(self, url));
  });

  self.addEventListener('pushsubscriptionchange', (event) => {
    (event as ExtendableEvent).waitUntil(resubscribe(self, event).catch(() => {}));
  });
}
