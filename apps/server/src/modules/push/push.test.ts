import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PushPayload } from '@share-arts/contract';
import { loadConfig } from '../../config.js';
import { queryRows } from '../../db/client.js';
import {
  createPost,
  createTestApp,
  errorOf,
  eventually,
  liveSocket,
  signUp,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { decrypt, newDevice, startPushService, verifyVapid, type Device } from '../../test/push-service.js';
import { PUSH_ERRORS } from './index.js';

/**
 * Web Push (issue 44): a push service this test runs on 127.0.0.1 takes the pushes, whose VAPID JWT is checked
 * against the server's public key and whose aes128gcm payload is decrypted with the device's private key, as a
 * browser's push service and the browser would.
 */

let ctx: TestContext;
let service: ReturnType<typeof startPushService>;
let origin: string;
let publicKey: string;

beforeAll(async () => {
  service = startPushService();
  origin = await service.start();
  ctx = await createTestApp({ config: { pushAllowPrivateAddress: true, pushGroupSeconds: 0 } });
  publicKey = (await ctx.app.inject({ method: 'GET', url: '/api/push/key' })).json().publicKey;
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await service?.close();
});
// The groups wait an hour unless a test says otherwise: each test pushes them when it means to (`pushed`).
beforeEach(() => {
  ctx.app.push.groupSeconds = 3600;
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });

async function subscribe(who: SignedUp | string, device: Device, kinds?: string[]) {
  const token = typeof who === 'string' ? who : who.token;
  const response = await call(token, 'PUT', '/api/push/subscription', { ...device.json, ...(kinds ? { kinds } : {}) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The pushes a device got, checked (VAPID signature by our key, for its push service) and decrypted. */
async function pushesOf(device: Device): Promise<PushPayload[]> {
  const payloads: PushPayload[] = [];
  for (const push of service.received.filter((received) => received.path === device.path)) {
    const authorization = String(push.headers.authorization);
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
    expect(match, authorization).not.toBeNull();
    expect(match![2]).toBe(publicKey);
    const payload = await verifyVapid(match![1]!, publicKey, origin);
    expect(payload.sub).toMatch(/^(mailto:|https:)/);
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    expect(push.headers.urgency).toMatch(/^(low|normal|high)$/);
    expect(String(push.headers.topic)).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    payloads.push(JSON.parse(decrypt(device, push.body)) as PushPayload);
  }
  return payloads;
}

/**
 * Pushes the waiting groups until `check` passes: a notification's event reaches the push module just after the
 * request that made it answered.
 */
async function pushedUntil(check: () => Promise<void>) {
  await eventually(async () => {
    await ctx.app.push.settled();
    await ctx.app.push.flush();
    await check();
  }, 10_000);
}

/** The person's push group for `groupKey`, once a notification marked it. */
async function groupOf(userId: string, groupKey: string) {
  const [row] = await queryRows<{ pending: boolean; live_seen_at: string | null }>(
    ctx.database.db,
    sql`select pending, live_seen_at from push_groups where user_id = ${userId}::uuid and group_key = ${groupKey}`,
  );
  return row;
}

const subscriptions = async (endpoint: string) =>
  (
    await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id from push_subscriptions where endpoint = ${endpoint}`,
    )
  ).length;

let counter = 0;
const person = (first: string) => signUp(ctx.app, { fullname: `${first} Lind`, email: `p${++counter}@example.com` });

describe('push subscriptions', () => {
  it('answers the VAPID public key: a P-256 point in base64url', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
  });

  it('subscribes this device, reads it back, changes its kinds and unsubscribes', async () => {
    const artist = await person('Ana');
    const device = newDevice(origin, 'settings');
    expect((await call(artist.token, 'GET', '/api/push/subscription')).json()).toEqual({
      subscribed: false,
      endpoint: null,
      kinds: ['follows', 'likes', 'comments', 'mentions', 'inquiries'],
    });
    expect(await subscribe(artist, device)).toMatchObject({ subscribed: true, endpoint: device.json.endpoint });
    const changed = await call(artist.token, 'PUT', '/api/push/subscription', { kinds: ['comments', 'likes'] });
    expect(changed.json()).toEqual({ subscribed: true, endpoint: device.json.endpoint, kinds: ['likes', 'comments'] });
    expect((await call(artist.token, 'GET', '/api/push/subscription')).json().kinds).toEqual(['likes', 'comments']);
    expect((await call(artist.token, 'DELETE', '/api/push/subscription')).statusCode).toBe(204);
    expect(await subscriptions(device.json.endpoint)).toBe(0);
  });

  it('refuses bad subscriptions with a 400 that says what is wrong', async () => {
    const artist = await person('Ana');
    const device = newDevice(origin, 'bad');
    const cases: [object, string][] = [
      [{ kinds: ['likes'] }, PUSH_ERRORS.notSubscribed],
      [{ keys: device.json.keys }, PUSH_ERRORS.endpoint],
      [{ endpoint: 'not a url', keys: device.json.keys }, 'Endpoint must be an absolute https address.'],
      [{ endpoint: 'ftp://push.example/x', keys: device.json.keys }, 'Endpoint must be an https address.'],
      [
        { endpoint: `https://push.example/${'x'.repeat(1100)}`, keys: device.json.keys },
        'Endpoint must be at most 1024 characters.',
      ],
      [
        { endpoint: 'https://user:pw@push.example/x', keys: device.json.keys },
        'Endpoint must not carry a user name or password.',
      ],
      [{ endpoint: device.json.endpoint }, PUSH_ERRORS.keys],
      [{ endpoint: device.json.endpoint, keys: { p256dh: 'abc', auth: device.json.keys.auth } }, PUSH_ERRORS.p256dh],
      [{ endpoint: device.json.endpoint, keys: { p256dh: device.json.keys.p256dh, auth: 'AAAA' } }, PUSH_ERRORS.auth],
      [{ endpoint: device.json.endpoint, keys: { p256dh: device.json.keys.p256dh, auth: '!!!' } }, PUSH_ERRORS.auth],
      [{ ...device.json, kinds: ['likes', 'boosts'] }, PUSH_ERRORS.kinds],
    ];
    for (const [body, message] of cases) {
      const response = await call(artist.token, 'PUT', '/api/push/subscription', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response)).toBe(message);
    }
    const notJson = await call(artist.token, 'PUT', '/api/push/subscription', { endpoint: 42 });
    expect(notJson.statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ method: 'PUT', url: '/api/push/subscription', payload: device.json })).statusCode,
    ).toBe(401);
    expect(await subscriptions(device.json.endpoint)).toBe(0);
  });

  it('refuses push services on private addresses where the config does not allow them (SSRF)', async () => {
    const strict = await createTestApp();
    try {
      const artist = await signUp(strict.app);
      for (const endpoint of [
        'http://push.example/x',
        'https://127.0.0.1/x',
        'https://10.1.2.3/x',
        'https://[::1]/x',
        'https://169.254.169.254/latest',
        'https://localhost/x',
      ]) {
        const response = await strict.app.inject({
          method: 'PUT',
          url: '/api/push/subscription',
          headers: auth(artist.token),
          payload: { ...newDevice(origin, 'x').json, endpoint },
        });
        expect(response.statusCode, endpoint).toBe(400);
        expect(errorOf(response)).toMatch(/^Endpoint must be (an https address|a push service on a public address)\.$/);
      }
    } finally {
      await strict.close();
    }
  });

  it('renews a subscription the browser replaced, proved by the old endpoint and secret (no token)', async () => {
    const artist = await person('Ana');
    const old = newDevice(origin, 'renew-old');
    await subscribe(artist, old, ['likes']);
    const next = newDevice(origin, 'renew-new');
    const renew = (secret: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/push/renew',
        payload: { previous: { endpoint: old.json.endpoint, auth: secret }, ...next.json },
      });
    const wrong = await renew(randomBytes(16).toString('base64url'));
    expect(wrong.statusCode).toBe(404);
    expect(errorOf(wrong)).toBe(PUSH_ERRORS.unknownPrevious);
    expect((await renew(old.json.keys.auth)).statusCode).toBe(204);
    expect(await subscriptions(old.json.endpoint)).toBe(0);
    expect((await call(artist.token, 'GET', '/api/push/subscription')).json()).toEqual({
      subscribed: true,
      endpoint: next.json.endpoint,
      kinds: ['likes'],
    });
  });

  it('logging out and ending a session remove that device’s subscription', async () => {
    const artist = await person('Ana');
    const phone = newDevice(origin, 'logout-phone');
    await subscribe(artist, phone);
    expect((await call(artist.token, 'POST', '/api/auth/logout')).statusCode).toBeLessThan(300);
    expect(await subscriptions(phone.json.endpoint)).toBe(0);

    const other = await person('Bo');
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: other.user.username, password: other.password },
    });
    const tablet = newDevice(origin, 'ended-tablet');
    await subscribe(login.json().encodedToken as string, tablet);
    const [row] = await queryRows<{ session_id: string }>(
      ctx.database.db,
      sql`select session_id from push_subscriptions where endpoint = ${tablet.json.endpoint}`,
    );
    expect((await call(other.token, 'DELETE', `/api/sessions/${row!.session_id}`)).statusCode).toBeLessThan(300);
    expect(await subscriptions(tablet.json.endpoint)).toBe(0);
  });
});

describe('pushes', () => {
  it('pushes a like by another person through the queue: the right words, the work’s picture and page', async () => {
    ctx.app.push.groupSeconds = 1;
    const artist = await person('Ana');
    const fan = await person('Bo');
    const picture = await uploadPicture(ctx.app, artist, 'Dusk over the bay');
    const postId = await createPost(ctx.app, artist, 'Dusk study\nOil on linen', [picture._id]);
    const device = newDevice(origin, 'like-one');
    await subscribe(artist, device);
    expect((await call(fan.token, 'POST', `/api/posts/like/${postId}`)).statusCode).toBe(201);
    await eventually(async () => expect(await pushesOf(device)).toHaveLength(1), 30_000);
    const [push] = await pushesOf(device);
    expect(push).toMatchObject({
      title: 'Bo Lind liked “Dusk study”',
      url: `/posts/${postId}`,
      tag: `like:${postId}`,
      kind: 'likes',
      count: 1,
    });
    expect(push!.image).toMatch(/^\/media\/.+\.jpe?g$/);
    const [row] = await queryRows<{ last_success_at: string | null; failures: number }>(
      ctx.database.db,
      sql`select last_success_at, failures from push_subscriptions where endpoint = ${device.json.endpoint}`,
    );
    expect(row!.last_success_at).not.toBeNull();
    expect(row!.failures).toBe(0);
  });

  it('groups five likes within the window into one push that replaces the earlier one (one tag)', async () => {
    ctx.app.push.groupSeconds = 3600;
    const artist = await person('Ana');
    const fans: SignedUp[] = [];
    for (const name of ['Bo', 'Cy', 'Di', 'Ed', 'Fa']) fans.push(await person(name));
    const postId = await createPost(ctx.app, artist, 'Harbour at night');
    const device = newDevice(origin, 'like-five');
    await subscribe(artist, device);
    for (const fan of fans) await call(fan.token, 'POST', `/api/posts/like/${postId}`);
    // The five are marked in one group, still waiting out its window.
    await eventually(async () => {
      await ctx.app.push.settled();
      const [row] = await queryRows<{ count: number }>(
        ctx.database.db,
        sql`select count(*)::int as count from notifications where recipient_id = ${artist.user._id}::uuid`,
      );
      expect(row!.count).toBe(5);
      expect(await groupOf(artist.user._id, `like:${postId}`)).toMatchObject({ pending: true });
    }, 10_000);
    let pushes: PushPayload[] = [];
    await pushedUntil(async () => {
      pushes = await pushesOf(device);
      expect(pushes).toHaveLength(1);
    });
    expect(pushes[0]).toMatchObject({
      title: 'Fa Lind and 4 others liked “Harbour at night”',
      count: 5,
      tag: `like:${postId}`,
    });
    expect(pushes[0]!.image).toBeUndefined();
    // Nothing new: the group's job finds nothing to push.
    await ctx.app.push.flush();
    expect(await pushesOf(device)).toHaveLength(1);
  });

  it('words the push in the language the person chose (Arabic): the group and the work’s name', async () => {
    const artist = await person('Ana');
    const chosen = await call(artist.token, 'POST', '/api/users/edit', { userData: { settings: { language: 'ar' } } });
    expect(chosen.statusCode, chosen.body).toBe(201);
    const fans: SignedUp[] = [];
    for (const name of ['Bo', 'Cy', 'Di']) fans.push(await person(name));
    const postId = await createPost(ctx.app, artist, 'Harbour at night');
    const device = newDevice(origin, 'arabic');
    await subscribe(artist, device);
    for (const fan of fans) await call(fan.token, 'POST', `/api/posts/like/${postId}`);
    await call(fans[0]!.token, 'POST', `/api/users/follow/${artist.user._id}`);
    let pushes: PushPayload[] = [];
    await pushedUntil(async () => {
      pushes = await pushesOf(device);
      expect(pushes).toHaveLength(2);
    });
    // "Di Lind and two others liked “Harbour at night”"; "Bo Lind followed you".
    expect(pushes.find((push) => push.kind === 'likes')).toMatchObject({
      title: 'نال «Harbour at night» إعجاب Di Lind وشخصين آخرين',
      count: 3,
    });
    expect(pushes.find((push) => push.kind === 'follows')).toMatchObject({ title: 'بدأ Bo Lind متابعتك' });
  });

  it('forgets a subscription its push service says is gone (410)', async () => {
    const artist = await person('Ana');
    const fan = await person('Bo');
    const device = newDevice(origin, 'gone');
    await subscribe(artist, device);
    service.answer.set(device.path, 410);
    await call(fan.token, 'POST', `/api/users/follow/${artist.user._id}`);
    await pushedUntil(async () => {
      expect(service.received.filter((received) => received.path === device.path)).toHaveLength(1);
      expect(await subscriptions(device.json.endpoint)).toBe(0);
    });
  });

  it('pushes only the kinds left on', async () => {
    const artist = await person('Ana');
    const fan = await person('Bo');
    const device = newDevice(origin, 'kinds');
    await subscribe(artist, device, ['comments']);
    const postId = await createPost(ctx.app, artist, 'Sketchbook page');
    await call(fan.token, 'POST', `/api/users/follow/${artist.user._id}`);
    await call(fan.token, 'POST', `/api/posts/like/${postId}`);
    await call(fan.token, 'POST', `/api/posts/${postId}/comment`, { commentData: { content: 'The linework!' } });
    // The comment's push arrives (its event came after the follow's and the like's), and it alone.
    await pushedUntil(async () =>
      expect(await pushesOf(device)).toMatchObject([
        {
          title: 'Bo Lind commented on “Sketchbook page”',
          body: 'The linework!',
          kind: 'comments',
          url: `/posts/${postId}`,
        },
      ]),
    );
    expect(await groupOf(artist.user._id, 'follow')).toBeUndefined();
    expect(await groupOf(artist.user._id, `like:${postId}`)).toBeUndefined();
  });

  it('does not push to someone with a tab open (a live socket)', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const artist = await person('Ana');
    const fan = await person('Bo');
    const device = newDevice(origin, 'live');
    await subscribe(artist, device);
    const tab = await liveSocket(ctx.app, artist.token);
    await call(fan.token, 'POST', `/api/users/follow/${artist.user._id}`);
    // Seen live: the group is marked so, and not pending.
    await eventually(async () => {
      await ctx.app.push.settled();
      const group = await groupOf(artist.user._id, 'follow');
      expect(group?.live_seen_at).toBeTruthy();
      expect(group?.pending).toBe(false);
    }, 10_000);
    await ctx.app.push.flush();
    expect(await pushesOf(device)).toHaveLength(0);
    // The tab closed: the next one is pushed.
    tab.socket.close();
    await tab.closed;
    await eventually(async () => expect(ctx.app.push.online(artist.user._id)).toBe(false), 5000);
    const other = await person('Cy');
    await call(other.token, 'POST', `/api/users/follow/${artist.user._id}`);
    await pushedUntil(async () =>
      expect(await pushesOf(device)).toMatchObject([{ title: 'Cy Lind followed you', kind: 'follows', count: 1 }]),
    );
  });
});

describe('push settings', () => {
  it('reads VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT and PUSH_GROUP_SECONDS, and says what is wrong', () => {
    const publicKey = Buffer.alloc(65, 4).toString('base64url');
    const privateKey = Buffer.alloc(32, 7).toString('base64url');
    expect(loadConfig({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey }).vapidKeys).toEqual({
      publicKey,
      privateKey,
    });
    expect(loadConfig({}).vapidKeys).toBeUndefined();
    expect(loadConfig({}).pushGroupSeconds).toBe(10);
    expect(loadConfig({ PUSH_GROUP_SECONDS: '30' }).pushGroupSeconds).toBe(30);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://share.example' }).vapidSubject).toBe('https://share.example');
    expect(loadConfig({ MAIL_FROM: 'Share Arts <hello@share.example>' }).vapidSubject).toBe(
      'mailto:hello@share.example',
    );
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:ops@share.example' }).vapidSubject).toBe('mailto:ops@share.example');
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: publicKey })).toThrow(
      /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together/,
    );
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: privateKey })).toThrow(
      /VAPID_PUBLIC_KEY must be/,
    );
    expect(() => loadConfig({ VAPID_SUBJECT: 'ops@share.example' })).toThrow(
      /VAPID_SUBJECT must be a mailto: or https: address/,
    );
    expect(() => loadConfig({ PUSH_GROUP_SECONDS: 'soon' })).toThrow(/PUSH_GROUP_SECONDS must be/);
    // The end-to-end tests' push service runs on 127.0.0.1: only they set PUSH_ALLOW_PRIVATE_ADDRESS.
    expect(loadConfig({}).pushAllowPrivateAddress).toBeUndefined();
    expect(loadConfig({ PUSH_ALLOW_PRIVATE_ADDRESS: '1' }).pushAllowPrivateAddress).toBe(true);
    expect(() => loadConfig({ PUSH_ALLOW_PRIVATE_ADDRESS: 'yes' })).toThrow(
      /PUSH_ALLOW_PRIVATE_ADDRESS must be 1 or 0/,
    );
  });
});
