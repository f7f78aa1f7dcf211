import { PUSH_CACHE, PUSH_SUBSCRIPTION_KEY } from './protocol';

/**
 * This device's Web Push subscription, from the page (issue 44, docs/push.md): whether the browser can be pushed,
 * subscribing with the server's key, and forgetting the subscription here (unsubscribe, and the copy the service
 * worker keeps for `pushsubscriptionchange`). The server's side is the notifications feature's (api/push.ts).
 */

/** Whether this browser can be pushed at all: a service worker, the Push API and notifications. */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    typeof caches !== 'undefined'
  );
}

/** The service worker's registration, if one is active (never waits for one that will not come). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!pushSupported()) return undefined;
  return (await navigator.serviceWorker.getRegistration()) ?? undefined;
}

/** The browser's current subscription of this site, if any. */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  try {
    return (await (await registration())?.pushManager.getSubscription()) ?? null;
  } catch {
    return null;
  }
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Asks the browser for a push subscription with the server's VAPID key (after the permission was granted). Throws
 * an Error whose message a person can act on.
 */
export async function subscribeThisDevice(publicKey: string): Promise<PushSubscriptionJSON> {
  const found = await registration();
  if (!found)
    throw new Error(
      'Notifications need the app’s service worker, which is not running: reload the page and try again.',
    );
  const ready = await navigator.serviceWorker.ready;
  const existing = await ready.pushManager.getSubscription();
  const key = keyBytes(publicKey);
  // A subscription made with another key (the server's keys changed) cannot be pushed by this server.
  if (existing) {
    const existingKey = existing.options.applicationServerKey;
    const same = existingKey && new Uint8Array(existingKey).every((byte, index) => byte === key[index]);
    if (same) return existing.toJSON();
    await existing.unsubscribe();
  }
  const subscription = await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return subscription.toJSON();
}

/** Keeps the subscription the server knows, for the worker's `pushsubscriptionchange`. */
export async function keepPushSubscription(subscription: PushSubscriptionJSON, kinds: string[]): Promise<void> {
  if (!subscription.endpoint || !subscription.keys?.auth) return;
  try {
    const cache = await caches.open(PUSH_CACHE);
    await cache.put(
      PUSH_SUBSCRIPTION_KEY,
      new Response(JSON.stringify({ endpoint: subscription.endpoint, auth: subscription.keys.auth, kinds })),
    );
  } catch {
    // No Cache Storage: a replaced subscription is taken up on the next visit of the notifications page.
  }
}

/**
 * Stops this browser's pushes here: the subscription is unsubscribed and the worker's copy deleted. Logging out
 * calls it (the server forgets the subscription with the session); never throws.
 */
export async function forgetThisDevice(): Promise<void> {
  try {
    if (typeof caches !== 'undefined') await caches.delete(PUSH_CACHE);
    await (await currentPushSubscription())?.unsubscribe();
  } catch {
    // Nothing was subscribed, or the browser refuses: the server has forgotten it with the session anyway.
  }
}
