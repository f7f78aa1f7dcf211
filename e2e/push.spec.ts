// Web Push end to end (issue 44's "a push subscription receiving a notification from a push endpoint the test runs
// (VAPID-signed, payload encrypted)"). Headless Chromium cannot subscribe to a real push service, so the page's
// PushManager answers a subscription whose endpoint is a push service this test runs and whose keys the test made;
// everything else is real: the opt-in through the notifications page, the server's subscription, the like from a
// second account, the server's grouped push through its queue (VAPID-signed with its key, aes128gcm-encrypted for
// the device's keys), decrypted here as the browser would, then handed to the real service worker as the browser's
// push (CDP's ServiceWorker.deliverPushMessage), whose notification is read back (registration.getNotifications()).
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { authOf, createTextPost, createUser, useSession } from './support/helpers.ts';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The push service: takes every POST (201) and keeps it. */
async function startPushService() {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8291: one aes128gcm record decrypted with the device's private key and secret. */
function decrypt(device: ReturnType<typeof createECDH>, secret: Buffer, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  const shared = device.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, secret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const padded = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  expect(padded[end], 'the last record ends with the delimiter 2').toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: the VAPID JWT is ES256-signed by the server's key, for this push service, not expired. */
function checkVapid(authorization: string, serverKey: string, audience: string): void {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  expect(match, authorization).not.toBeNull();
  expect(match![2]).toBe(serverKey);
  const [header, claims, signature] = match![1]!.split('.');
  const point = Buffer.from(serverKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  expect(signed, 'the JWT is signed by the server’s VAPID key').toBe(true);
  const body = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as { aud: string; exp: number };
  expect(body.aud).toBe(audience);
  expect(body.exp * 1000).toBeGreaterThan(Date.now());
}

/** Waits until the service worker is active and controls the page. */
async function swControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
    );
  });
}

test('a device opted in on the notifications page is pushed a like, and the service worker shows it', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const service = await startPushService();
  try {
    // The device: its own P-256 key pair and secret, as a browser's push subscription has.
    const device = createECDH('prime256v1');
    device.generateKeys();
    const secret = randomBytes(16);
    const endpoint = `${service.origin}/push/${randomBytes(6).toString('hex')}`;
    const subscription = {
      endpoint,
      p256dh: device.getPublicKey().toString('base64url'),
      auth: secret.toString('base64url'),
    };

    const [artist, fan] = await Promise.all([createUser(request), createUser(request, { fullname: 'Fa Lind' })]);
    const title = `Harbour ${randomBytes(3).toString('hex')}`;
    const post = await createTextPost(request, artist, title);
    const serverKey = ((await (await request.get('/api/push/key')).json()) as { publicKey: string }).publicKey;

    await context.grantPermissions(['notifications']);
    // The browser's PushManager answers the test's subscription (headless Chromium has no push service).
    await page.addInitScript((given) => {
      const bytes = (text: string) =>
        Uint8Array.from(
          atob(
            text
              .replace(/-/g, '+')
              .replace(/_/g, '/')
              .padEnd(Math.ceil(text.length / 4) * 4, '='),
          ),
          (c) => c.charCodeAt(0),
        ).buffer;
      let current: PushSubscription | null = null;
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        current = {
          endpoint: given.endpoint,
          expirationTime: null,
          options: {
            userVisibleOnly: true,
            applicationServerKey: (options?.applicationServerKey as ArrayBuffer) ?? null,
          },
          getKey: (name: PushEncryptionKeyName) => bytes(name === 'p256dh' ? given.p256dh : given.auth),
          toJSON: () => ({
            endpoint: given.endpoint,
            expirationTime: null,
            keys: { p256dh: given.p256dh, auth: given.auth },
          }),
          unsubscribe: async () => {
            current = null;
            return true;
          },
        } as unknown as PushSubscription;
        return current;
      };
      PushManager.prototype.getSubscription = async () => current;
      PushManager.prototype.permissionState = async () => 'granted';
      // Headless Chromium answers Notification.permission "denied" even once granted (the Permissions API says
      // "granted"): the page is told what the permission is.
      Object.defineProperty(Notification, 'permission', { get: () => 'granted', configurable: true });
      Notification.requestPermission = async () => 'granted';
    }, subscription);
    await useSession(page, artist);

    // Opted in through the notifications page.
    await page.goto('/notifications');
    await swControls(page);
    await page.getByRole('button', { name: 'Turn on notifications' }).click();
    await expect(page.getByRole('button', { name: 'Turn off on this device' })).toBeVisible();
    const state = await request.get('/api/push/subscription', { headers: authOf(artist) });
    expect(await state.json()).toMatchObject({ subscribed: true, endpoint });

    // The tab leaves (its live socket closed: no tab open, so pushed), and a second account likes the work.
    await page.goto('about:blank');
    await page.close();
    const liked = await request.post(`/api/posts/like/${post._id}`, { headers: authOf(fan) });
    expect(liked.status(), await liked.text()).toBe(201);
    await expect
      .poll(() => service.received.filter((each) => each.path === new URL(endpoint).pathname).length, {
        timeout: 30_000,
      })
      .toBe(1);
    const [push] = service.received;
    checkVapid(String(push!.headers.authorization), serverKey, service.origin);
    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    const payload = decrypt(device, secret, push!.body);
    expect(JSON.parse(payload)).toMatchObject({
      title: `Fa Lind liked “${title}”`,
      url: `/posts/${post._id}`,
      tag: `like:${post._id}`,
      kind: 'likes',
      count: 1,
    });

    // The browser hands the decrypted push to the app's service worker, which shows it.
    const tab = await context.newPage();
    await tab.goto('/');
    await swControls(tab);
    const cdp = await context.newCDPSession(tab);
    const registrations = new Map<string, string>();
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const each of updated) if (!each.isDeleted) registrations.set(each.scopeURL, each.registrationId);
    });
    await cdp.send('ServiceWorker.enable');
    const scope = new URL('/', baseURL!).href;
    await expect.poll(() => registrations.get(scope)).toBeTruthy();
    // chromium-headless-shell has no notification platform: its worker is refused every notification ("No
    // notification permission has been granted"), whatever was granted. There, and only there, the worker's
    // registration keeps what the app's push handler asks to show, and answers it from getNotifications(); a full
    // Chromium shows and answers them itself.
    const worker = context.serviceWorkers().find((each) => new URL(each.url()).pathname === '/sw.js');
    expect(worker, 'the app’s service worker runs').toBeTruthy();
    const platform = await worker!.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration };
      try {
        await scope.registration.showNotification('probe', { tag: 'probe' });
        for (const each of await scope.registration.getNotifications({ tag: 'probe' })) each.close();
        return 'real';
      } catch {
        const kept: { title: string; body: string; tag: string; data: unknown; close: () => void }[] = [];
        scope.registration.showNotification = async (title: string, options: NotificationOptions = {}) => {
          const index = kept.findIndex((each) => each.tag === (options.tag ?? ''));
          const shown = {
            title,
            body: options.body ?? '',
            tag: options.tag ?? '',
            data: options.data as unknown,
            close: () => kept.splice(kept.indexOf(shown), 1),
          };
          if (index >= 0) kept.splice(index, 1, shown);
          else kept.push(shown);
        };
        scope.registration.getNotifications = async () => [...kept] as unknown as Notification[];
        return 'kept by the test';
      }
    });
    test.info().annotations.push({ type: 'notifications', description: platform });

    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(baseURL!).origin,
      registrationId: registrations.get(scope)!,
      data: payload,
    });
    await expect
      .poll(() =>
        worker!.evaluate(async () =>
          (await (self as unknown as { registration: ServiceWorkerRegistration }).registration.getNotifications()).map(
            (each) => ({
              title: each.title,
              body: each.body,
              tag: each.tag,
              data: each.data as unknown,
            }),
          ),
        ),
      )
      .toEqual([
        { title: `Fa Lind liked “${title}”`, body: '', tag: `like:${post._id}`, data: { url: `/posts/${post._id}` } },
      ]);
  } finally {
    await service.close();
  }
});
