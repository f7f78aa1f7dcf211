import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthAPIClient, createRestAPIClient } from 'masto';
import { createTestApp, signUp, type TestContext } from '../../test/helpers.js';

/**
 * masto.js (the registry's `masto`, a client nobody here wrote) against a real listening server: it registers an
 * app, a person authorizes it with PKCE (through the consent API the web page calls), and it exchanges the code,
 * checks its token and revokes it, each through its own code paths (JSON for apps, multipart for the token).
 */
let ctx: TestContext;
let url: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

const REDIRECT = 'https://masto.example/callback';

describe('masto.js signs in to Share Arts', () => {
  it('registers an app, is authorized with PKCE, gets a token that works, and revokes it', async () => {
    const anonymous = createRestAPIClient({ url });
    const app = await anonymous.v1.apps.create({
      clientName: 'masto.js test',
      redirectUris: REDIRECT,
      scopes: 'read write follow',
      website: 'https://masto.example',
    });
    expect(app).toMatchObject({ name: 'masto.js test', scopes: ['read', 'write', 'follow'] });
    expect(app.clientId).toBeTruthy();
    expect(app.clientSecret).toBeTruthy();

    // The person, signed in to the web app, authorizes it on the consent page.
    const ana = await signUp(ctx.app);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const decision = await fetch(`${url}/api/oauth/authorizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: REDIRECT,
        scope: 'read write',
        state: 'masto',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        approve: true,
      }),
    });
    expect(decision.status).toBe(200);
    const redirect = new URL(((await decision.json()) as { redirectUrl: string }).redirectUrl);
    expect(redirect.searchParams.get('state')).toBe('masto');

    const oauth = createOAuthAPIClient({ url });
    const token = await oauth.token.create({
      grantType: 'authorization_code',
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri: REDIRECT,
      code: redirect.searchParams.get('code')!,
      // masto passes what it is given, in snake_case: code_verifier.
      ...({ codeVerifier: verifier } as object),
    });
    expect(token).toMatchObject({ tokenType: 'Bearer', scope: 'read write' });

    const signedIn = createRestAPIClient({ url, accessToken: token.accessToken });
    const verified = await signedIn.v1.apps.verifyCredentials();
    expect(verified.name).toBe('masto.js test');

    await oauth.revoke({ clientId: app.clientId!, clientSecret: app.clientSecret!, token: token.accessToken });
    await expect(signedIn.v1.apps.verifyCredentials()).rejects.toMatchObject({ statusCode: 401 });

    // An app's own token.
    const appToken = await oauth.token.create({
      grantType: 'client_credentials',
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri: REDIRECT,
      scope: 'read',
    });
    const asApp = createRestAPIClient({ url, accessToken: appToken.accessToken });
    expect((await asApp.v1.apps.verifyCredentials()).name).toBe('masto.js test');
  });

  it("reads a refusal as Mastodon's error", async () => {
    const oauth = createOAuthAPIClient({ url });
    await expect(
      oauth.token.create({
        grantType: 'client_credentials',
        clientId: 'nobody',
        clientSecret: 'nothing',
        redirectUri: REDIRECT,
      }),
    ).rejects.toMatchObject({ statusCode: 401 });
  });
});
