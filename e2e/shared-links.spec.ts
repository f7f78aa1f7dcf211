// Shared links (issue 22): a post, a profile and a tag page open for a visitor without an account, read-only;
// an action that needs an account sends them to sign in and back to the same page; and each page's HTML
// carries its link-preview tags, for robots that never run the app.
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  TEST_ACCOUNT,
  authOf,
  createPost,
  createUser,
  expectNoAxeViolations,
  logIn,
  mainNav,
  useSession,
  useTheme,
} from './support/helpers.ts';

interface PicturedPost {
  _id: string;
  username: string;
  picture: { alt: string; url: string; sources: { srcset: string }[] } | null;
  media: unknown[];
}

/** A sample post with exactly one picture (the sample data has several). */
async function picturedPost(request: APIRequestContext): Promise<PicturedPost> {
  const response = await request.get('/api/posts?limit=50');
  const { posts } = (await response.json()) as { posts: PicturedPost[] };
  const post = posts.find((candidate) => candidate.picture && candidate.media.length === 1);
  if (!post) throw new Error('The sample data has no post with one picture.');
  return post;
}

/** The content of `<meta property|name=key>` in a page's HTML, decoded as a browser would. */
function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/:/g, '\\:')}" content="([^"]*)">`).exec(html);
  return match?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

test.describe('shared links, signed out', () => {
  test('a visitor opens a post, sees the art, likes it after signing in, and is back on the post', async ({
    page,
    request,
  }) => {
    const post = await picturedPost(request);
    const liker = await createUser(request);
    // Every request for the picture's files: the HTML's preload and the page's <picture> must be one fetch.
    const pictureId = /\/media\/([0-9a-f-]{36})/.exec(post.picture!.url)![1]!;
    const pictureRequests: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes(`/media/${pictureId}-`)) pictureRequests.push(sent.url());
    });

    // A visitor's page asks the API only what it answers without a token.
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/') && response.status() >= 400) refused.push(response.url());
    });
    await page.goto(`/posts/${post._id}`);
    await expect(page).toHaveURL(`/posts/${post._id}`);
    const card = page.getByRole('article').first();
    const picture = card.getByRole('img', { name: post.picture!.alt });
    await expect(picture).toBeVisible();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(new Set(pictureRequests).size, pictureRequests.join('\n')).toBe(1);
    expect(refused).toEqual([]);
    await expectNoAxeViolations(page);
    // The visitor's header: a way in, no signed-in navigation.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(mainNav(page)).toHaveCount(0);

    await card.getByRole('button', { name: 'Like' }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/posts/${post._id}`)}`);
    await logIn(page, liker);
    await expect(page).toHaveURL(`/posts/${post._id}`);
    const like = page.getByRole('article').first().getByRole('button', { name: 'Like' });
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    await expect(page.getByRole('article').first().getByRole('button', { name: 'Unlike' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  test('comments ask a visitor to sign up, and come back to the post', async ({ page, request }) => {
    const post = await picturedPost(request);
    // On a phone, in the dark theme: the header keeps its way in, and the page stays accessible.
    await useTheme(page, 'dark');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/posts/${post._id}`);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign up' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('main').getByRole('link', { name: 'sign up', exact: true }).click();
    await expect(page).toHaveURL(`/signup?next=${encodeURIComponent(`/posts/${post._id}`)}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('a profile and a tag page open signed out', async ({ page, request }) => {
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/') && response.status() >= 400) refused.push(response.url());
    });
    await page.goto(`/${TEST_ACCOUNT.username}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(`/${TEST_ACCOUNT.username}`);

    const author = await createUser(request);
    const tag = `shared${Date.now().toString(36)}`;
    await createPost(request, author, `A study for a tag page #${tag}`);
    await page.goto(`/tags/${tag}`);
    await expect(page).toHaveURL(`/tags/${tag}`);
    await expect(page.getByRole('heading', { name: `#${tag}`, level: 1 })).toBeVisible();
    expect(refused).toEqual([]);
    // Following the tag needs an account: sign in, and come back to the tag.
    await page.getByRole('main').getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/tags/${tag}`)}`);
  });

  test('the other pages still send a visitor to /landing', async ({ page }) => {
    for (const path of ['/', '/explore', '/settings', '/notifications', '/profile']) {
      await page.goto(path);
      await expect(page).toHaveURL('/landing');
    }
  });

  test('a sign-in link never leads off the site', async ({ page, request }) => {
    const user = await createUser(request);
    await page.goto('/login?next=//evil.example/steal');
    await logIn(page, user);
    await expect(page).toHaveURL('/');
  });
});

test.describe('works shown to signed-in people only', () => {
  test('the option in Settings hides the works from visitors, whose link asks them to sign in', async ({
    page,
    browser,
    request,
  }) => {
    const artist = await createUser(request);
    const { _id: postId } = await createPost(request, artist, 'For members only');
    await useSession(page, artist);
    await page.goto('/settings/privacy');
    const option = page.getByRole('checkbox', { name: 'Show my works to signed-in people only' });
    await expect(option).not.toBeChecked();
    await option.check();
    await expect(option).toBeChecked();
    // The toast first: it may be gone once axe has scanned the page.
    await expect(page.getByText('Your works are now shown to signed-in people only.')).toBeVisible();
    await expectNoAxeViolations(page);
    expect((await request.get(`/api/posts/${postId}`)).status()).toBe(404);

    const visitor = await browser.newPage();
    const reader = await createUser(request);
    await visitor.goto(`/posts/${postId}`);
    await expect(visitor.getByRole('heading', { name: 'Post not found' })).toBeVisible();
    await visitor.getByRole('link', { name: 'sign in', exact: true }).click();
    await logIn(visitor, reader);
    await expect(visitor).toHaveURL(`/posts/${postId}`);
    await expect(visitor.getByText('For members only')).toBeVisible();
    await visitor.close();
  });

  test("a visitor on such an artist's profile is told the works are for signed-in people, and signs in to them", async ({
    page,
    request,
  }) => {
    const artist = await createUser(request);
    const { _id: postId } = await createPost(request, artist, 'Members see this one');
    const edit = await request.post('/api/users/edit', {
      headers: authOf(artist),
      data: { userData: { worksSignedInOnly: true } },
    });
    expect(edit.status(), await edit.text()).toBe(201);
    const reader = await createUser(request);

    await page.goto(`/${artist.username}`);
    const notice = page.getByText(`@${artist.username} shows their works to signed-in people only.`);
    await expect(notice).toBeVisible();
    await expect(page.getByText('has not posted yet')).toHaveCount(0);
    await expectNoAxeViolations(page);
    await notice.getByRole('link', { name: 'Sign in', exact: true }).click();
    await logIn(page, reader);
    await expect(page).toHaveURL(`/${artist.username}`);
    await expect(
      page
        .getByRole('grid', { name: `Posts by @${artist.username}` })
        .getByRole('link', { name: /^Members see this one,/ }),
    ).toHaveAttribute('href', `/posts/${postId}`);
  });
});

test.describe('link previews in the HTML', () => {
  test("each route's HTML has its preview tags, for any Accept", async ({ request }) => {
    const post = await picturedPost(request);
    const author = await createUser(request);
    const tag = `preview${Date.now().toString(36)}`;
    await createPost(request, author, `Preview me #${tag}`);
    for (const [path, type] of [
      [`/posts/${post._id}`, 'article'],
      [`/${TEST_ACCOUNT.username}`, 'profile'],
      [`/tags/${tag}`, 'website'],
    ] as const) {
      for (const accept of ['text/html', '*/*', '']) {
        const response = await request.get(path, { headers: accept ? { accept } : { accept: '' } });
        expect(response.status(), `${path} (${accept || 'no Accept'})`).toBe(200);
        const html = await response.text();
        expect(metaOf(html, 'og:type')).toBe(type);
        expect(metaOf(html, 'og:title')).toBeTruthy();
        expect(metaOf(html, 'og:url')).toMatch(new RegExp(`^https?://[^/]+${path}$`));
        // A large card wherever there is a picture (the tag's only post here is text).
        expect(metaOf(html, 'twitter:card')).toBe(metaOf(html, 'og:image') ? 'summary_large_image' : 'summary');
      }
    }
    const html = await (await request.get(`/posts/${post._id}`)).text();
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaOf(html, 'og:image:alt')).toBe(post.picture!.alt);
    expect(metaOf(html, 'og:image')).toMatch(/^https?:\/\/.+\.jpg$/);
    // The picture's file may be shown by other sites.
    const file = await request.get(post.picture!.url);
    expect(file.headers()['cross-origin-resource-policy']).toBe('cross-origin');
  });
});

// The first paint shows the art (issue 22): the server draws a shared page with the app's own components, so
// its picture is in the HTML itself; the app's first render then takes the page over.
test.describe('shared pages drawn on the server', () => {
  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test("a visitor's post page, profile and tag page show their art from the HTML alone", async ({
      page,
      request,
    }) => {
      const post = await picturedPost(request);
      await page.goto(`/posts/${post._id}`);
      const picture = page.getByRole('article').first().getByRole('img', { name: post.picture!.alt });
      await expect(picture).toBeVisible();
      await expect(picture).toHaveAttribute('src', post.picture!.url);
      // Drawn at its size, not a zero-height box waiting for a script.
      expect((await picture.boundingBox())!.height).toBeGreaterThan(100);
      await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();

      await page.goto(`/${post.username}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const works = page.getByRole('grid', { name: `Posts by @${post.username}` });
      await expect(works.getByRole('gridcell').first().locator('img')).toBeVisible();

      // A tag of the sample data (every sample post has one; the oldest posts are the sample's, whatever
      // other tests have posted since).
      const { posts: oldest } = (await (await request.get('/api/posts?sort=oldest&limit=20')).json()) as {
        posts: { content: string; picture: unknown }[];
      };
      const tag = oldest
        .filter((candidate) => candidate.picture)
        .map((candidate) => /#([\p{L}\p{N}_]+)/u.exec(candidate.content)?.[1]?.toLowerCase())
        .find(Boolean);
      expect(tag, 'a sample post with a picture and a #tag').toBeTruthy();
      await page.goto(`/tags/${tag}`);
      await expect(page.getByRole('heading', { name: `#${tag}` })).toBeVisible();
      await expect(page.getByRole('grid').getByRole('gridcell').first().locator('img')).toBeVisible();
    });
  });

  test("the app takes the visitor's page over: no errors, and liking asks to sign in", async ({ page, request }) => {
    const post = await picturedPost(request);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/posts/${post._id}`);
    const card = page.getByRole('article').first();
    await expect(card.getByRole('img', { name: post.picture!.alt })).toBeVisible();
    // Once the app's files have come and gone, its first render has replaced the server's markup.
    await page.waitForLoadState('networkidle');
    await card.getByRole('button', { name: 'Like' }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/posts/${post._id}`)}`);
    expect(errors).toEqual([]);
  });

  test('a signed-in person opening a shared page gets their own page, without errors', async ({ page, request }) => {
    const post = await picturedPost(request);
    const reader = await createUser(request);
    await useSession(page, reader);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    for (const url of [`/posts/${post._id}`, `/${post.username}`]) {
      await page.goto(url);
      await expect(mainNav(page)).toBeVisible();
      await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toHaveCount(0);
    }
    await page.goto(`/posts/${post._id}`);
    await page.getByRole('article').first().getByRole('button', { name: 'Like' }).click();
    await expect(page.getByRole('article').first().getByRole('button', { name: 'Unlike' })).toBeVisible();
    expect(errors).toEqual([]);
  });
});
