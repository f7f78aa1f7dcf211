import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { SessionsResponse } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { WEB_ONLY_MESSAGE } from '../../plugins/auth.js';
import { publish } from '../../events/events.js';
import { createTestApp, errorOf, eventually, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { optionalScopes, requireScopes, SCOPE_ERRORS } from './index.js';
import { createOAuthService } from './oauth.service.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({
    // Two routes guarded as the Mastodon routes are, to see the scopes enforced.
    beforeReady(app) {
      app.get(
        '/api/v1/test/read-statuses',
        { preHandler: requireScopes('read', 'read:statuses') },
        async (request) => ({
          userId: request.userId,
          scopes: request.scopes ?? null,
        }),
      );
      app.post('/api/v1/test/write-statuses', { preHandler: requireScopes('write', 'write:statuses') }, async () => ({
        ok: true,
      }));
      app.get('/api/v1/test/public', { preHandler: optionalScopes('read', 'read:statuses') }, async (request) => ({
        userId: request.userId,
      }));
    },
  });
});
afterAll(() => ctx.close());

const REDIRECT = 'https://app.example/callback';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface RegisteredApp {
  id: string;
  client_id: string;
  client_secret: string;
  name: string;
  scopes: string[];
  redirect_uris: string[];
  vapid_key: string;
}

async function registerApp(fields: Record<string, unknown> = {}, form = false): Promise<RegisteredApp> {
  const body = { client_name: 'Ivory', redirect_uris: REDIRECT, scopes: 'read write follow push', ...fields };
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    ...(form
      ? {
          payload: new URLSearchParams(body as Record<string, string>).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }
      : { payload: body }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The person's Authorize on the consent page (the web app's token), answering the redirect address. */
async function authorize(
  who: SignedUp,
  app: RegisteredApp,
  params: Record<string, string> = {},
  approve = true,
): Promise<{ statusCode: number; redirectUrl?: string | null; code?: string | null; error?: string }> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/oauth/authorizations',
    headers: bearer(who.token),
    payload: {
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      scope: 'read write',
      approve,
      ...params,
    },
  });
  if (response.statusCode !== 200) return { statusCode: response.statusCode, error: errorOf(response) };
  return { statusCode: 200, ...response.json() };
}

const codeOf = (redirectUrl: string) => new URL(redirectUrl).searchParams.get('code')!;

const token = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/oauth/token', payload, headers });

/** The full flow with PKCE: an access token for `who` with `scope`. */
async function signInApp(who: SignedUp, app: RegisteredApp, scope = 'read write'): Promise<string> {
  const { verifier, challenge } = pkce();
  const answer = await authorize(who, app, { scope, code_challenge: challenge, code_challenge_method: 'S256' });
  const response = await token({
    grant_type: 'authorization_code',
    code: codeOf(answer.redirectUrl!),
    redirect_uri: REDIRECT,
    client_id: app.client_id,
    client_secret: app.client_secret,
    code_verifier: verifier,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().access_token;
}

describe('POST /api/v1/apps', () => {
  it("registers an app from JSON or a form and answers Mastodon's Application with its credentials", async () => {
    const app = await registerApp({ website: 'https://app.example' });
    expect(app).toMatchObject({
      name: 'Ivory',
      website: 'https://app.example',
      scopes: ['read', 'write', 'follow', 'push'],
      redirect_uri: REDIRECT,
      redirect_uris: [REDIRECT],
      client_secret_expires_at: 0,
    });
    // The server's VAPID public key (an uncompressed P-256 point), the one its Web Push is signed with.
    const key = await ctx.app.inject({ method: 'GET', url: '/api/push/key' });
    expect(app.vapid_key).toBe(key.json().publicKey);
    expect(Buffer.from(app.vapid_key, 'base64url')).toHaveLength(65);
    expect(app.client_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(app.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The secret is kept only as its SHA-256.
    const [row] = await queryRows<{ client_secret_hash: string }>(
      ctx.database.db,
      sql`select client_secret_hash from oauth_apps where client_id = ${app.client_id}`,
    );
    expect(row!.client_secret_hash).toBe(createHash('sha256').update(app.client_secret).digest('hex'));
    expect(row!.client_secret_hash).not.toContain(app.client_secret);

    const fromForm = await registerApp(
      { client_name: 'Tusky', redirect_uris: `${REDIRECT}\nurn:ietf:wg:oauth:2.0:oob`, scopes: 'read+write:media' },
      true,
    );
    expect(fromForm).toMatchObject({
      name: 'Tusky',
      website: null,
      scopes: ['read', 'write:media'],
      redirect_uris: [REDIRECT, 'urn:ietf:wg:oauth:2.0:oob'],
    });
    // No scopes: read, as Mastodon.
    expect((await registerApp({ scopes: undefined })).scopes).toEqual(['read']);
  });

  it.each([
    [{ client_name: '' }, "Validation failed: Application name can't be blank"],
    [{ redirect_uris: '' }, "Validation failed: Redirect URI can't be blank"],
    [{ redirect_uris: 'not a uri' }, 'Validation failed: Redirect URI must be an absolute URI.'],
    [{ redirect_uris: 'javascript:alert(1)' }, 'Validation failed: Redirect URI must be an absolute URI.'],
    [{ scopes: 'read admin:everything' }, SCOPE_ERRORS.appScopes],
    [{ website: 'ftp://nope' }, 'Validation failed: Website is invalid'],
  ])("refuses %o with 422 and Mastodon's sentence", async (fields, message) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      payload: { client_name: 'App', redirect_uris: REDIRECT, ...fields },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: message });
  });
});

describe('GET /.well-known/oauth-authorization-server', () => {
  it('describes the endpoints, scopes and PKCE as Mastodon 4.3 does', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(response.statusCode).toBe(200);
    const meta = response.json();
    expect(meta.authorization_endpoint).toMatch(/\/oauth\/authorize$/);
    expect(meta.token_endpoint).toMatch(/\/oauth\/token$/);
    expect(meta.revocation_endpoint).toMatch(/\/oauth\/revoke$/);
    expect(meta.app_registration_endpoint).toMatch(/\/api\/v1\/apps$/);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.grant_types_supported).toEqual(['authorization_code', 'client_credentials']);
    expect(meta.scopes_supported).toEqual(
      expect.arrayContaining(['read', 'write', 'follow', 'push', 'read:statuses', 'write:media']),
    );
  });
});

describe('the authorization code flow with PKCE', () => {
  it('gives a token that signs in as the person, names its app, and is listed as a session', async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp({ client_name: 'Elk', website: 'https://elk.example' });
    const { verifier, challenge } = pkce();

    const preview = await ctx.app.inject({
      method: 'GET',
      url: `/api/oauth/authorizations/new?${new URLSearchParams({
        response_type: 'code',
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        scope: 'read write',
      })}`,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      app: { name: 'Elk', website: 'https://elk.example' },
      scopes: ['read', 'write'],
      redirectUri: REDIRECT,
      outOfBand: false,
    });

    const answer = await authorize(ana, app, {
      state: 'xyz 1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const redirect = new URL(answer.redirectUrl!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe('xyz 1');

    const response = await token({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code'),
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: app.client_secret,
      code_verifier: verifier,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'Bearer',
      scope: 'read write',
      created_at: expect.any(Number),
    });
    const accessToken = body.access_token as string;

    // The token works on the app's routes and the web API's ordinary ones, as the person.
    const scoped = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/test/read-statuses',
      headers: bearer(accessToken),
    });
    expect(scoped.json()).toEqual({ userId: ana.user._id, scopes: ['read', 'write'] });
    const verify = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/apps/verify_credentials',
      headers: bearer(accessToken),
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toMatchObject({
      name: 'Elk',
      website: 'https://elk.example',
      scopes: ['read', 'write', 'follow', 'push'],
    });
    expect(verify.json().client_secret).toBeUndefined();
    const feed = await ctx.app.inject({ method: 'GET', url: '/api/feed', headers: bearer(accessToken) });
    expect(feed.statusCode).toBe(200);

    // Stored as a hash, and as a session the person sees in "Where you're signed in", named by the app.
    const [stored] = await queryRows<{ oauth_token_hash: string; oauth_scopes: string }>(
      ctx.database.db,
      sql`select oauth_token_hash, oauth_scopes from sessions where oauth_app_id = ${app.id}::uuid`,
    );
    expect(stored).toEqual({
      oauth_token_hash: createHash('sha256').update(accessToken).digest('hex'),
      oauth_scopes: 'read write',
    });
    const listed = (
      await ctx.app.inject({ method: 'GET', url: '/api/sessions', headers: bearer(ana.token) })
    ).json() as SessionsResponse;
    const appSession = listed.sessions.find((session) => session.app);
    expect(appSession).toMatchObject({
      device: 'Elk',
      deviceType: 'app',
      current: false,
      app: { name: 'Elk', website: 'https://elk.example', scopes: ['read', 'write'] },
    });

    // Ending it there stops the token at once.
    const end = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/sessions/${appSession!.id}`,
      headers: bearer(ana.token),
    });
    expect(end.statusCode).toBe(204);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/test/read-statuses',
      headers: bearer(accessToken),
    });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: SCOPE_ERRORS.invalidToken });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/feed', headers: bearer(accessToken) })).statusCode).toBe(
      401,
    );
  });

  it('sends the code to copy for the out-of-band address, and Deny back with access_denied', async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp({ redirect_uris: `${REDIRECT} urn:ietf:wg:oauth:2.0:oob` });
    const oob = await authorize(ana, app, { redirect_uri: 'urn:ietf:wg:oauth:2.0:oob' });
    expect(oob).toMatchObject({
      statusCode: 200,
      redirectUrl: null,
      code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const exchanged = await token({
      grant_type: 'authorization_code',
      code: oob.code,
      redirect_uri: 'urn:ietf:wg:oauth:2.0:oob',
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(exchanged.statusCode).toBe(200);

    const denied = await authorize(ana, app, { state: 's1' }, false);
    const url = new URL(denied.redirectUrl!);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('s1');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('takes the client in HTTP Basic as well as in the body', async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp();
    const answer = await authorize(ana, app);
    const basic = Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: codeOf(answer.redirectUrl!),
        redirect_uri: REDIRECT,
      }).toString(),
    });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('what the authorization refuses', () => {
  it('answers the page a sentence for a bad client_id, redirect_uri, response_type, scope or PKCE method', async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp({ scopes: 'read' });
    const cases: [Record<string, string>, RegExp][] = [
      [{ client_id: 'nope' }, /not registered/],
      [{ redirect_uri: 'https://evil.example/callback' }, /redirect_uri/],
      [{ response_type: 'token' }, /response_type/],
      [{ scope: 'write' }, /scope is invalid/],
      [{ scope: 'read:everything' }, /scope is invalid/],
      [{ code_challenge: pkce().challenge, code_challenge_method: 'plain' }, /S256/],
    ];
    for (const [params, message] of cases) {
      const answer = await authorize(ana, app, { scope: 'read', ...params });
      expect(answer.statusCode, JSON.stringify(params)).toBe(400);
      expect(answer.error).toMatch(message);
    }
    // Nothing was made to send anywhere.
    const codes = await queryRows(ctx.database.db, sql`select 1 from oauth_codes where app_id = ${app.id}::uuid`);
    expect(codes).toHaveLength(0);
  });

  it("is only for the web app signed in: no token 401, an app's token 403", async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp();
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/oauth/authorizations',
      payload: { response_type: 'code', client_id: app.client_id, redirect_uri: REDIRECT, approve: true },
    });
    expect(anonymous.statusCode).toBe(401);
    const appToken = await signInApp(ana, app);
    const byApp = await ctx.app.inject({
      method: 'POST',
      url: '/api/oauth/authorizations',
      headers: bearer(appToken),
      payload: { response_type: 'code', client_id: app.client_id, redirect_uri: REDIRECT, approve: true },
    });
    expect(byApp.statusCode).toBe(403);
  });
});

describe('POST /oauth/token refusals (RFC 6749)', () => {
  it('wrong verifier, reused code, wrong redirect_uri, wrong client, unknown grant', async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp();
    const other = await registerApp({ client_name: 'Other' });
    const client = { client_id: app.client_id, client_secret: app.client_secret };
    const invalidGrant = {
      error: 'invalid_grant',
      error_description: expect.stringContaining('authorization grant is invalid'),
    };

    const first = pkce();
    const wrongVerifier = await authorize(ana, app, { code_challenge: first.challenge });
    const refused = await token({
      grant_type: 'authorization_code',
      code: codeOf(wrongVerifier.redirectUrl!),
      redirect_uri: REDIRECT,
      ...client,
      code_verifier: pkce().verifier,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(invalidGrant);
    // Without the verifier at all.
    const second = await authorize(ana, app, { code_challenge: first.challenge });
    expect(
      (
        await token({
          grant_type: 'authorization_code',
          code: codeOf(second.redirectUrl!),
          redirect_uri: REDIRECT,
          ...client,
        })
      ).statusCode,
    ).toBe(400);

    // A code is good once.
    const once = await authorize(ana, app);
    const exchange = {
      grant_type: 'authorization_code',
      code: codeOf(once.redirectUrl!),
      redirect_uri: REDIRECT,
      ...client,
    };
    expect((await token(exchange)).statusCode).toBe(200);
    const again = await token(exchange);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalidGrant);

    // Another redirect address than the code's, another app's code.
    const wrongRedirect = await authorize(ana, app);
    const badRedirect = await token({
      grant_type: 'authorization_code',
      code: codeOf(wrongRedirect.redirectUrl!),
      redirect_uri: 'https://app.example/other',
      ...client,
    });
    expect(badRedirect.json()).toEqual(invalidGrant);
    const stolen = await authorize(ana, app);
    const byOther = await token({
      grant_type: 'authorization_code',
      code: codeOf(stolen.redirectUrl!),
      redirect_uri: REDIRECT,
      client_id: other.client_id,
      client_secret: other.client_secret,
    });
    expect(byOther.statusCode).toBe(400);
    expect(byOther.json()).toEqual(invalidGrant);

    // The client must authenticate.
    const wrongSecret = await token({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: 'x' });
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.json().error).toBe('invalid_client');
    expect((await token({ grant_type: 'client_credentials' })).statusCode).toBe(401);

    // Grants Share Arts does not give.
    for (const grantType of ['password', 'refresh_token', 'implicit']) {
      const response = await token({ grant_type: grantType, ...client });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('unsupported_grant_type');
    }
    const none = await token({ ...client });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('invalid_request');
    // A body that is not even a form or JSON is a clear 4xx, never a 500.
    const garbage = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(garbage.statusCode).toBe(400);
  });

  it("client_credentials gives an app's own token within its scopes, which verify_credentials knows", async () => {
    const app = await registerApp({ scopes: 'read write' });
    const client = { client_id: app.client_id, client_secret: app.client_secret };
    const response = await token({ grant_type: 'client_credentials', scope: 'read', ...client });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ token_type: 'Bearer', scope: 'read' });
    const appToken = response.json().access_token as string;
    const verify = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/apps/verify_credentials',
      headers: bearer(appToken),
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().name).toBe('Ivory');
    expect(verify.json().vapid_key).toBe(app.vapid_key);
    expect(verify.json().vapid_key).not.toBe('');
    // It is nobody: a route that needs a person refuses it.
    const asPerson = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/test/read-statuses',
      headers: bearer(appToken),
    });
    expect(asPerson.statusCode).toBe(401);

    const beyond = await token({ grant_type: 'client_credentials', scope: 'push', ...client });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().error).toBe('invalid_scope');
    const unknown = await token({ grant_type: 'client_credentials', scope: 'read:nothing', ...client });
    expect(unknown.json().error).toBe('invalid_scope');

    // Revoked, it is gone.
    const revoke = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { token: appToken, ...client },
    });
    expect(revoke.statusCode).toBe(200);
    const gone = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/apps/verify_credentials',
      headers: bearer(appToken),
    });
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toEqual({ error: SCOPE_ERRORS.invalidToken });
  });
});

describe('scopes', () => {
  it('are enforced as Mastodon does: the granular form of a granted scope passes, others are 403', async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp();
    const readOnly = await signInApp(ana, app, 'read:statuses');
    const read = await ctx.app.inject({ method: 'GET', url: '/api/v1/test/read-statuses', headers: bearer(readOnly) });
    expect(read.statusCode).toBe(200);
    const write = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/test/write-statuses',
      headers: bearer(readOnly),
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ error: SCOPE_ERRORS.outside });

    // `write` grants write:statuses; `follow` grants no statuses.
    const writer = await signInApp(ana, app, 'write');
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/v1/test/write-statuses', headers: bearer(writer) }))
        .statusCode,
    ).toBe(200);
    const follower = await signInApp(ana, app, 'follow');
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/test/read-statuses', headers: bearer(follower) }))
        .statusCode,
    ).toBe(403);

    // The web app's own token counts as every scope.
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/v1/test/write-statuses', headers: bearer(ana.token) }))
        .statusCode,
    ).toBe(200);

    // A route anyone may read: no token is fine, a bad one is 401, a token without the scope 403.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/test/public' })).json()).toEqual({ userId: null });
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/v1/test/public', headers: bearer('x'.repeat(43)) });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ error: SCOPE_ERRORS.invalidToken });
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/test/public', headers: bearer(follower) })).statusCode,
    ).toBe(403);
  });

  it("an app's token is refused on the web app's own account routes", async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp();
    const appToken = await signInApp(ana, app, 'read write follow push');
    const attempts: [string, string, Record<string, unknown> | undefined][] = [
      ['POST', '/api/auth/password', { currentPassword: ana.password, newPassword: 'a much newer password 1' }],
      ['GET', '/api/sessions', undefined],
      ['POST', '/api/sessions/end-others', undefined],
      ['POST', '/api/account/delete', { password: ana.password }],
      ['POST', '/api/account/email', { email: 'new@example.com' }],
      ['POST', '/api/auth/reauthenticate', { password: ana.password }],
      ['POST', '/api/two-factor/totp/setup', undefined],
      ['POST', '/api/account/export', undefined],
    ];
    for (const [method, url, payload] of attempts) {
      const response = await ctx.app.inject({
        method: method as 'GET' | 'POST',
        url,
        headers: bearer(appToken),
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(errorOf(response), `${method} ${url}`).toBe(WEB_ONLY_MESSAGE);
    }
    // The password is unchanged: the web app still signs in with it.
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ana.user.username, password: ana.password },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe("ending an app's access", () => {
  it("POST /oauth/revoke ends the session at once; an unknown token is 200 {} too; another app's is refused", async () => {
    const ana = await signUp(ctx.app);
    const app = await registerApp();
    const other = await registerApp({ client_name: 'Other' });
    const accessToken = await signInApp(ana, app);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/test/read-statuses', headers: bearer(accessToken) }))
        .statusCode,
    ).toBe(200);

    const byOther = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { token: accessToken, client_id: other.client_id, client_secret: other.client_secret },
    });
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().error).toBe('unauthorized_client');

    const client = { client_id: app.client_id, client_secret: app.client_secret };
    const revoke = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { token: accessToken, ...client },
    });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json()).toEqual({});
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/test/read-statuses', headers: bearer(accessToken) }))
        .statusCode,
    ).toBe(401);
    const rows = await queryRows(ctx.database.db, sql`select 1 from sessions where oauth_app_id = ${app.id}::uuid`);
    expect(rows).toHaveLength(0);

    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { token: 'nothing', ...client },
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({});
    const wrongClient = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { token: 'nothing', client_id: app.client_id, client_secret: 'wrong' },
    });
    expect(wrongClient.statusCode).toBe(401);
  });

  it("LOG OUT with the app's token, a suspension, or the app deleted stop its token at once", async () => {
    const [ana, bo] = [await signUp(ctx.app), await signUp(ctx.app)];
    const app = await registerApp();
    const read = (accessToken: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/v1/test/read-statuses', headers: bearer(accessToken) });

    const first = await signInApp(ana, app);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(first) })).statusCode).toBe(
      204,
    );
    expect((await read(first)).statusCode).toBe(401);

    // A suspension (as the moderators' action writes it, with its event).
    const second = await signInApp(bo, app);
    expect((await read(second)).statusCode).toBe(200);
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`update users set suspended_until = 'infinity' where id = ${bo.user._id}::uuid`);
      await publish(tx, { type: 'author-changed', userId: bo.user._id });
    });
    await eventually(async () => {
      const suspended = await read(second);
      expect(suspended.statusCode).toBe(403);
      expect(suspended.json()).toEqual({ error: SCOPE_ERRORS.disabled });
    }, 5_000);

    // The app deleted: every session it holds ends with it.
    const third = await signInApp(ana, app);
    expect((await read(third)).statusCode).toBe(200);
    await createOAuthService({ db: ctx.database.db }).deleteApp(app.id);
    expect((await read(third)).statusCode).toBe(401);
  });
});
