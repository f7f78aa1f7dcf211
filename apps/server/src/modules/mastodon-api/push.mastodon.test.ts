import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { createPost, createTestApp, eventually, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { decrypt, newDevice, startPushService, verifyVapid, type Device } from '../../test/push-service.js';

/**
 * The Mastodon API's push subscriptions (issue 45, https://docs.joinmastodon.org/methods/push/): an app signed in by
 * OAuth subscribes its token's device; its pushes, taken by a push service this test runs, carry Mastodon's payload,
 * VAPID-signed with the server's key and encrypted for the device.
 */

const REDIRECT = 'https://app.example/callback';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let ctx: TestContext;
let service: ReturnType<typeof startPushService>;
let origin: string;
let serverKey: string;
let client: { client_id: string; client_secret: string };

beforeAll(async () => {
  service = startPushService();
  origin = await service.start();
  ctx = await createTestApp({ config: { pushAllowPrivateAddress: true, pushGroupSeconds: 3600 } });
  serverKey = (await ctx.app.inject({ method: 'GET', url: '/api/push/key' })).json().publicKey;
  const registered = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    payload: { client_name: 'Ivory', redirect_uris: REDIRECT, scopes: 'read write follow push' },
  });
  client = registered.json();
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await service?.close();
});

/** An app's access token for `who` with `scope` (authorization code with PKCE). */
async function appToken(who: SignedUp, scope = 'read push'): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const authorized = await ctx.app.inject({
    method: 'POST',
    url: '/api/oauth/authorizations',
    headers: bearer(who.token),
    payload: {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope,
      approve: true,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    },
  });
  expect(authorized.statusCode, authorized.body).toBe(200);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: {
      grant_type: 'authorization_code',
      code: new URL(authorized.json().redirectUrl).searchParams.get('code'),
      redirect_uri: REDIRECT,
      ...client,
      code_verifier: verifier,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().access_token;
}

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

let counter = 0;
const person = (first: string) => signUp(ctx.app, { fullname: `${first} Lind`, email: `m${++counter}@example.com` });

const receivedBy = (device: Device) => service.received.filter((received) => received.path === device.path);

/** Pushes the waiting groups until `check` passes. */
async function pushedUntil(check: () => Promise<void> | void) {
  await eventually(async () => {
    await ctx.app.push.settled();
    await ctx.app.push.flush();
    await check();
  }, 15_000);
}

const rows = async (endpoint: string) =>
  queryRows<{ client: string; policy: string; encoding: string; app_token: string | null }>(
    ctx.database.db,
    sql`select client, policy, encoding, app_token from push_subscriptions where endpoint = ${endpoint}`,
  );

describe('/api/v1/push/subscription', () => {
  it('subscribes, answers the WebPushSubscription, and pushes Mastodon’s payload (aes128gcm, VAPID)', async () => {
    const artist = await person('Ana');
    const fan = await person('Bo');
    const token = await appToken(artist);
    const device = newDevice(origin, 'masto-standard');
    expect((await call(token, 'GET', '/api/v1/push/subscription')).json()).toEqual({ error: 'Record not found' });

    const created = await call(token, 'POST', '/api/v1/push/subscription', {
      subscription: { ...device.json, standard: true },
      data: { alerts: { favourite: true, follow: 'true', mention: false }, policy: 'all' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const entity = created.json();
    expect(entity).toEqual({
      id: expect.any(String),
      endpoint: device.json.endpoint,
      standard: true,
      alerts: {
        mention: false,
        status: false,
        reblog: false,
        follow: true,
        follow_request: false,
        favourite: true,
        poll: false,
        update: false,
        'admin.sign_up': false,
        'admin.report': false,
      },
      policy: 'all',
      server_key: serverKey,
    });
    expect((await call(token, 'GET', '/api/v1/push/subscription')).json()).toEqual(entity);
    // The token is kept sealed, not as it is.
    const [row] = await rows(device.json.endpoint);
    expect(row).toMatchObject({ client: 'mastodon', encoding: 'aes128gcm' });
    expect(row!.app_token).not.toContain(token);

    const postId = await createPost(ctx.app, artist, 'Dusk study\nOil on linen');
    expect((await call(fan.token, 'POST', `/api/posts/like/${postId}`)).statusCode).toBe(201);
    await pushedUntil(() => expect(receivedBy(device)).toHaveLength(1));
    const [push] = receivedBy(device);
    const authorization = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(push!.headers.authorization));
    expect(authorization?.[2]).toBe(serverKey);
    await verifyVapid(authorization![1]!, serverKey, origin);
    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    const [notification] = (await call(token, 'GET', '/api/v1/notifications')).json();
    expect(JSON.parse(decrypt(device, push!.body))).toEqual({
      access_token: token,
      preferred_locale: 'en',
      notification_id: notification.id,
      notification_type: 'favourite',
      icon: expect.stringMatching(/^https?:\/\//),
      title: 'Bo Lind liked “Dusk study”',
      body: 'Dusk study Oil on linen',
    });
  });

  it('changes alerts and policy (PUT): a follow from someone the person does not follow is not pushed', async () => {
    const artist = await person('Ana');
    const stranger = await person('Cy');
    const friend = await person('Di');
    const token = await appToken(artist);
    const device = newDevice(origin, 'masto-policy');
    await call(token, 'POST', '/api/v1/push/subscription', {
      subscription: { ...device.json, standard: true },
      data: { alerts: { follow: true } },
    });
    const changed = await call(token, 'PUT', '/api/v1/push/subscription', {
      data: { alerts: { mention: true }, policy: 'followed' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      policy: 'followed',
      alerts: { follow: true, mention: true, favourite: false },
    });
    const wrong = await call(token, 'PUT', '/api/v1/push/subscription', { data: { policy: 'friends' } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toBe('Validation failed: data[policy] must be one of all, followed, follower, none');

    // The artist follows Di, not Cy: Cy's follow is passed over, Di's is pushed.
    await call(artist.token, 'POST', `/api/users/follow/${friend.user._id}`);
    await call(stranger.token, 'POST', `/api/users/follow/${artist.user._id}`);
    await eventually(async () => {
      await ctx.app.push.settled();
      const [group] = await queryRows<{ pending: boolean }>(
        ctx.database.db,
        sql`select pending from push_groups where user_id = ${artist.user._id}::uuid and group_key = 'follow'`,
      );
      expect(group?.pending).toBe(true);
    }, 10_000);
    await ctx.app.push.flush();
    expect(receivedBy(device)).toHaveLength(0);
    await call(friend.token, 'POST', `/api/users/follow/${artist.user._id}`);
    await pushedUntil(() => expect(receivedBy(device)).toHaveLength(1));
    expect(JSON.parse(decrypt(device, receivedBy(device)[0]!.body))).toMatchObject({
      notification_type: 'follow',
      title: 'Di Lind followed you',
    });
  });

  it('takes the older aesgcm coding unless the app says standard, with VAPID as WebPush and Crypto-Key', async () => {
    const artist = await person('Ana');
    const fan = await person('Bo');
    const token = await appToken(artist);
    const device = newDevice(origin, 'masto-legacy');
    const created = await call(token, 'POST', '/api/v1/push/subscription', {
      subscription: device.json,
      data: { alerts: { follow: true } },
    });
    expect(created.json().standard).toBe(false);
    await call(fan.token, 'POST', `/api/users/follow/${artist.user._id}`);
    await pushedUntil(() => expect(receivedBy(device)).toHaveLength(1));
    const [push] = receivedBy(device);
    expect(push!.headers['content-encoding']).toBe('aesgcm');
    expect(String(push!.headers['crypto-key'])).toContain(`p256ecdsa=${serverKey}`);
    expect(String(push!.headers.encryption)).toMatch(/^salt=/);
    const jwt = /^WebPush (\S+)$/.exec(String(push!.headers.authorization))?.[1];
    await verifyVapid(jwt!, serverKey, origin);
  });

  it('needs the push scope, refuses a bad subscription, and goes with DELETE or with its token', async () => {
    const artist = await person('Ana');
    const readOnly = await appToken(artist, 'read');
    const device = newDevice(origin, 'masto-gone');
    const refused = await call(readOnly, 'POST', '/api/v1/push/subscription', { subscription: device.json });
    expect(refused.statusCode).toBe(403);

    const token = await appToken(artist);
    const missing = await call(token, 'POST', '/api/v1/push/subscription', { data: { policy: 'all' } });
    // Mastodon answers 400; this API's refusals that a client may correct are 422 (errors.ts).
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({
      error: 'Validation failed: param is missing or the value is empty: subscription',
    });
    const badKey = await call(token, 'POST', '/api/v1/push/subscription', {
      subscription: { endpoint: device.json.endpoint, keys: { p256dh: 'abc', auth: device.json.keys.auth } },
    });
    expect(badKey.statusCode).toBeGreaterThanOrEqual(400);
    expect(badKey.json().error).toMatch(/p256dh/);
    expect((await call(token, 'PUT', '/api/v1/push/subscription', { data: { policy: 'all' } })).statusCode).toBe(404);

    await call(token, 'POST', '/api/v1/push/subscription', { subscription: device.json });
    const deleted = await call(token, 'DELETE', '/api/v1/push/subscription');
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({});
    expect(await rows(device.json.endpoint)).toHaveLength(0);

    // Revoking the token ends its session, and its subscription with it.
    await call(token, 'POST', '/api/v1/push/subscription', { subscription: device.json });
    expect(await rows(device.json.endpoint)).toHaveLength(1);
    const revoke = await ctx.app.inject({ method: 'POST', url: '/oauth/revoke', payload: { token, ...client } });
    expect(revoke.statusCode).toBe(200);
    expect(await rows(device.json.endpoint)).toHaveLength(0);
  });
});
