// OAuth as Mastodon apps use it (issue 45): a person on a phone (375 px) follows an app's link to /oauth/authorize,
// signs in, sees the consent with the app's name and what it asks, authorizes, and lands on the app's registered
// address with a code, which the app (here the spec) exchanges at /oauth/token for a token that works. A bad
// link is said on the page and sends nobody anywhere; Deny goes back with error=access_denied.
import { createHash, randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createUser, expectNoAxeViolations, logIn, useTheme } from './support/helpers.ts';

const REDIRECT = 'https://app.example/callback';

interface RegisteredApp {
  client_id: string;
  client_secret: string;
}

async function registerApp(request: APIRequestContext): Promise<RegisteredApp> {
  const response = await request.post('/api/v1/apps', {
    form: {
      client_name: 'Pocket Gallery',
      redirect_uris: REDIRECT,
      scopes: 'read write:statuses write:media',
      website: 'https://app.example',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as RegisteredApp;
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(app: RegisteredApp, challenge: string, state: string) {
  return `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    scope: 'read write:statuses',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
}

/** The app's own address is not on this network: the browser's arrival there is answered here, and kept. */
async function catchRedirect(page: Page): Promise<() => URL | undefined> {
  let arrived: URL | undefined;
  await page.route('https://app.example/**', async (route) => {
    arrived = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back in the app</h1>' });
  });
  return () => arrived;
}

test.describe('an app signs in with OAuth', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`at 375 px (${theme}): sign in, consent, authorize, and the code becomes a token`, async ({
      page,
      request,
    }) => {
      const user = await createUser(request);
      const app = await registerApp(request);
      const { verifier, challenge } = pkce();
      await useTheme(page, theme);
      await page.setViewportSize({ width: 375, height: 812 });
      const redirected = await catchRedirect(page);

      await page.goto(authorizeUrl(app, challenge, `state-${theme}`));
      await expect(page.getByRole('heading', { name: 'Sign in to continue to Pocket Gallery' })).toBeVisible();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await logIn(page, user);

      // Back on the authorization page: the consent.
      await expect(page.getByRole('heading', { name: /Pocket Gallery wants to use your account/ })).toBeVisible();
      const scopes = page.getByRole('list', { name: 'What it asks for' }).getByRole('listitem');
      await expect(scopes).toHaveCount(2);
      await expect(scopes.nth(0)).toContainText('See everything in your account');
      await expect(scopes.nth(1)).toContainText('Post, edit and delete works');
      await expect(page.getByText(`@${user.username}`)).toBeVisible();
      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Authorize' }).click();
      await expect.poll(() => redirected()?.searchParams.get('state')).toBe(`state-${theme}`);
      const code = redirected()!.searchParams.get('code');
      expect(code).toBeTruthy();

      const token = await request.post('/oauth/token', {
        form: {
          grant_type: 'authorization_code',
          code: code!,
          redirect_uri: REDIRECT,
          client_id: app.client_id,
          client_secret: app.client_secret,
          code_verifier: verifier,
        },
      });
      expect(token.status(), await token.text()).toBe(200);
      const { access_token: accessToken, scope } = (await token.json()) as { access_token: string; scope: string };
      expect(scope).toBe('read write:statuses');
      const verified = await request.get('/api/v1/apps/verify_credentials', {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(verified.status()).toBe(200);
      expect(((await verified.json()) as { name: string }).name).toBe('Pocket Gallery');
    });
  }

  test('a bad link is said on the page, and Deny goes back with access_denied', async ({ page, request }) => {
    const user = await createUser(request);
    const app = await registerApp(request);
    await page.setViewportSize({ width: 375, height: 812 });
    const redirected = await catchRedirect(page);

    await page.goto(
      `/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: app.client_id,
        redirect_uri: 'https://evil.example/steal',
      })}`,
    );
    await expect(page.getByRole('heading', { name: 'This sign-in link does not work' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('redirect_uri');
    expect(redirected()).toBeUndefined();

    await page.goto(authorizeUrl(app, pkce().challenge, 'deny-me'));
    await page.getByRole('link', { name: 'Sign in' }).click();
    await logIn(page, user);
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => redirected()?.searchParams.get('error')).toBe('access_denied');
    expect(redirected()!.searchParams.get('state')).toBe('deny-me');
    expect(redirected()!.searchParams.get('code')).toBeNull();
  });
});
