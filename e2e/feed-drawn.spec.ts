// The signed-in Home drawn on the server (issue 22): signing in sets a session cookie beside the token, and `/`
// for that cookie is the viewer's feed in the HTML, its first picture painted before any script; the app takes
// it over without errors, a Like pressed before it did is not lost, and after LOG OUT `/` draws no feed.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SEEDED_USERNAMES, createUser, followViaApi, mainNav, useSession } from './support/helpers.ts';

interface FeedPost {
  _id: string;
  username: string;
  picture: { url: string } | null;
}

/** A new account following the sample artists (so its feed has pictures), signed in in `page`'s browser. */
async function signedInReader(page: Page, request: APIRequestContext) {
  const reader = await createUser(request);
  for (const username of SEEDED_USERNAMES.slice(0, 3)) await followViaApi(request, reader, { username });
  // Signed in as the login page does: the answer sets the session cookie in this browser.
  const login = await page.request.post('/api/auth/login', {
    data: { username: reader.username, password: reader.password },
  });
  expect(login.status()).toBe(200);
  const token = ((await login.json()) as { encodedToken: string }).encodedToken;
  const feed = await page.request.get('/api/feed?limit=12&sort=latest', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { posts } = (await feed.json()) as { posts: FeedPost[] };
  const pictured = posts.find((post) => post.picture);
  expect(pictured, 'a post with a picture in the feed').toBeTruthy();
  return { reader, token, posts, pictured: pictured! };
}

test.describe('Home drawn on the server', () => {
  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test("signed in, / shows the feed's first picture from the HTML alone", async ({ page, request }) => {
      const { posts, pictured } = await signedInReader(page, request);
      await page.goto('/');
      const first = page.getByRole('article').first();
      await expect(first.getByRole('link', { name: posts[0]!.username, exact: true })).toBeVisible();
      const picture = page.locator(`article img[src="${pictured.picture!.url}"]`).first();
      await expect(picture).toBeVisible();
      // Drawn at its size, not a zero-height box waiting for a script.
      expect((await picture.boundingBox())!.height).toBeGreaterThan(100);
    });
  });

  test("the app takes the viewer's Home over without errors, and a Like pressed before it did counts", async ({
    page,
    request,
  }) => {
    const { token, posts } = await signedInReader(page, request);
    await useSession(page, { token });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // The app's entry is held back, so the server's markup is on screen without the app for a while.
    const { promise: held, resolve: release } = Promise.withResolvers<void>();
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    const card = page.getByRole('article').first();
    await expect(card.getByRole('link', { name: posts[0]!.username, exact: true })).toBeVisible();
    await page.waitForFunction(() => '__shareArtsBoot' in window);
    await card.getByRole('button', { name: 'Like' }).click();
    // Still the server's markup: nothing has handled the press yet.
    await expect(page.locator('.server-drawn')).toHaveCount(1);
    release();
    await expect(page.locator('.server-drawn')).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Unlike' })).toBeVisible();
    // The like was sent: after a reload the post is liked.
    await page.unroute(/\/assets\/index-[^/]+\.js$/);
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('article').first().getByRole('button', { name: 'Unlike' })).toBeVisible();
    await expect(mainNav(page)).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("someone else's session in the browser never sees the cookie's feed", async ({ page, request }) => {
    const { posts } = await signedInReader(page, request);
    // The cookie is the reader's; the stored token another account's (signed in since in another way).
    const other = await createUser(request);
    await useSession(page, other);
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => route.abort());
    await page.goto('/', { waitUntil: 'commit' });
    // Drawn for the reader, hidden before the first paint: without the app nothing of it shows.
    await expect(page.locator('.server-drawn[data-viewer]')).toHaveCount(1);
    await expect(page.locator('.server-drawn[data-viewer]')).toBeHidden();
    await expect(page.getByRole('link', { name: posts[0]!.username, exact: true })).toHaveCount(0);
  });

  test('after LOG OUT, / draws no feed', async ({ page, request }) => {
    const { token, posts } = await signedInReader(page, request);
    await useSession(page, { token });
    await page.goto('/');
    await expect(page.getByRole('article').first().getByRole('link', { name: posts[0]!.username })).toBeVisible();
    await page.goto('/settings');
    await page.getByRole('button', { name: 'LOG OUT', exact: true }).click();
    await expect(page).toHaveURL('/landing');
    const response = await page.goto('/');
    const html = await response!.text();
    expect(html).not.toContain('id="page-data"');
    expect(html).not.toContain('data-viewer');
    await expect(page).toHaveURL('/landing');
    await expect(page.getByRole('article')).toHaveCount(0);
  });
});
