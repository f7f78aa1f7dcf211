// The installable app (issue 44, docs/pwa.md): the manifest and Chromium's install criteria, Home offline after a
// first visit, a like made offline arriving once, pictures shared to the app arriving in the composer in order,
// and a new version of the service worker taken up only through the reload prompt. Chromium runs service
// workers on secure contexts only: the suite's 127.0.0.1 is one.
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { authOf, createTextPost, createUser, followViaApi, useSession } from './support/helpers.ts';

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Waits until the service worker is active and controls the page (the first visit ends with it in charge). */
async function swControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
    );
  });
}

/** A post's card on the page. */
const card = (page: Page, text: string): Locator => page.getByRole('article').filter({ hasText: text });

interface ManifestIcon {
  src: string;
  sizes: string;
  purpose?: string;
}

test.describe('the installable app', () => {
  test('serves a valid manifest and meets Chromium’s install criteria', async ({ page, request }) => {
    const response = await request.get('/manifest.webmanifest');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      id: string;
      display: string;
      icons: ManifestIcon[];
      shortcuts: { name: string; url: string }[];
      screenshots: { form_factor: string; src: string }[];
      share_target: { action: string; method: string; enctype: string };
    };
    expect(manifest).toMatchObject({ name: 'Share Arts', start_url: '/', scope: '/', id: '/', display: 'standalone' });
    const icon = (size: string, purpose: string) =>
      manifest.icons.find((each) => each.sizes === size && (each.purpose ?? 'any').split(' ').includes(purpose));
    for (const [size, purpose] of [
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['192x192', 'maskable'],
      ['512x512', 'maskable'],
    ] as const) {
      const found = icon(size, purpose);
      expect(found, `${size} ${purpose}`).toBeTruthy();
      const png = await request.get(found!.src);
      expect(png.status(), found!.src).toBe(200);
      const meta = await sharp(await png.body()).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(size);
    }
    expect(manifest.shortcuts.map((shortcut) => shortcut.name)).toEqual(['Add Post', 'Notifications']);
    expect(manifest.screenshots.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
    expect(manifest.share_target).toMatchObject({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
    });
    expect((await request.get('/pwa/apple-touch-icon-180.png')).status()).toBe(200);

    const sw = await request.get('/sw.js');
    expect(sw.status()).toBe(200);
    expect(sw.headers()['cache-control']).toBe('no-cache');

    await page.goto('/landing');
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    await expect(page.locator('meta[name="theme-color"][media*="dark"]')).toHaveCount(1);
    await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute('content', 'yes');
    await swControls(page);

    const cdp = await page.context().newCDPSession(page);
    const { errors } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] };
    expect(errors, JSON.stringify(errors)).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // A Playwright context is an off-the-record profile, which Chromium never installs from: that one reason aside,
    // the list must be empty.
    expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);
  });

  test('opens Home offline after a first visit, and says it is offline', async ({ page, context, request }) => {
    const user = await createUser(request);
    const content = uniqueText('Offline home');
    await createTextPost(request, user, content);
    await useSession(page, user);

    await page.goto('/');
    await expect(card(page, content)).toBeVisible();
    await swControls(page);
    // The visit the worker controls keeps the shell, the feed and the token check.
    await page.reload();
    await expect(card(page, content)).toBeVisible();

    await context.setOffline(true);
    try {
      await page.reload();
      await expect(card(page, content)).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
    await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveCount(0);
  });

  test('keeps the account’s answers in a cache of its own, which logging out deletes', async ({ page, request }) => {
    const user = await createUser(request);
    const content = uniqueText('Private cache');
    await createTextPost(request, user, content);
    await useSession(page, user);
    await page.goto('/');
    await swControls(page);
    await page.reload();
    await expect(card(page, content)).toBeVisible();
    const accountCaches = () =>
      page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('sa-api-')));
    const userId = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString()) as { sub: string };
    await expect.poll(accountCaches).toEqual([`sa-api-${userId.sub}`]);

    await page.goto('/settings');
    await page.getByRole('button', { name: 'LOG OUT', exact: true }).click();
    await expect(page).toHaveURL('/landing');
    await expect.poll(accountCaches).toEqual([]);
  });

  test('a like made offline arrives once when the network is back', async ({ page, context, request }) => {
    const [artist, fan] = await Promise.all([createUser(request), createUser(request)]);
    const content = uniqueText('Like me offline');
    const post = await createTextPost(request, artist, content);
    await followViaApi(request, fan, artist);
    await useSession(page, fan);
    const likeCount = async () => {
      const response = await request.get(`/api/posts/${post._id}`, { headers: authOf(fan) });
      const body = (await response.json()) as { post: { likes: { likeCount: number }; viewer: { liked: boolean } } };
      return { count: body.post.likes.likeCount, liked: body.post.viewer.liked };
    };

    await page.goto('/');
    await expect(card(page, content)).toBeVisible();
    await swControls(page);
    await page.reload();
    await expect(card(page, content)).toBeVisible();

    await context.setOffline(true);
    const like = card(page, content).getByRole('button', { name: /^(Like|Unlike)$/ });
    await like.click();
    // Kept as wished while offline, and not on the server yet.
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await page.waitForTimeout(300);
    expect(await likeCount()).toEqual({ count: 0, liked: false });

    await context.setOffline(false);
    await expect.poll(likeCount, { timeout: 15_000 }).toEqual({ count: 1, liked: true });
    // Sent once: a reload (which starts the worker's queue again) changes nothing.
    await page.reload();
    await expect(card(page, content).getByRole('button', { name: 'Unlike' })).toHaveAttribute('aria-pressed', 'true');
    await page.waitForTimeout(500);
    expect(await likeCount()).toEqual({ count: 1, liked: true });
  });

  test('pictures shared to the app arrive in the composer, in their order, with the shared words', async ({
    page,
    request,
  }) => {
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Add Post' })).toBeVisible();
    await swControls(page);

    const files = await Promise.all(
      ['first', 'second'].map(async (name, index) => ({
        name: `${name}.png`,
        base64: (
          await sharp({
            create: { width: 48 + index * 16, height: 40, channels: 3, background: index ? '#28507a' : '#d6806a' },
          })
            .png()
            .toBuffer()
        ).toString('base64'),
      })),
    );
    const words = uniqueText('Shared from the gallery');
    // As the phone's share sheet does: a multipart POST navigation to the manifest's share_target.
    await page.evaluate(
      ({ files, words }) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.enctype = 'multipart/form-data';
        form.action = '/share-target';
        const text = document.createElement('input');
        text.name = 'text';
        text.value = words;
        const input = document.createElement('input');
        input.type = 'file';
        input.name = 'files';
        input.multiple = true;
        const data = new DataTransfer();
        for (const file of files) {
          const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
          data.items.add(new File([bytes], file.name, { type: 'image/png' }));
        }
        input.files = data.files;
        form.append(text, input);
        document.body.append(form);
        form.submit();
      },
      { files, words },
    );

    const dialog = page.getByRole('dialog', { name: 'Add Post' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'What are you thinking?' })).toHaveValue(words);
    const shown = dialog
      .getByRole('list', { name: /^Pictures, in order/ })
      .getByRole('button', { name: /^Picture \d+ of \d+: / });
    await expect(shown).toHaveCount(2);
    expect(
      (await shown.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''))).map(
        (name) => name.replace(/^Picture \d+ of \d+: /, ''),
      ),
    ).toEqual(['first.png', 'second.png']);
    // The address no longer asks for the composer: a reload does not open it again.
    await expect(page).toHaveURL((url) => !url.search.includes('compose'));
  });

  test('a new version waits for the reload prompt, then takes over', async ({ page, request }) => {
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto('/');
    await swControls(page);
    // Asked again while the page reloads, it finds no page to ask (its context is gone): nothing yet, and asked again.
    const controller = () =>
      page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '').catch(() => '(reloading)');
    expect(await controller()).toMatch(/\/sw\.js$/);

    // A new build's worker: the same scope from a new script address is installed as a new version (a real
    // deploy changes the bytes of /sw.js instead; the browser's update check finds it the same way).
    await page.evaluate(() => navigator.serviceWorker.register('/sw.js?build=next', { scope: '/' }));
    const prompt = page.getByRole('alert').filter({ hasText: 'A new version of Share Arts is ready.' });
    await expect(prompt).toBeVisible({ timeout: 15_000 });
    // Nothing changed under the running page before the person chose.
    expect(await controller()).toMatch(/\/sw\.js$/);

    await prompt.getByRole('button', { name: 'Reload' }).click();
    await page.waitForLoadState('load');
    await expect.poll(controller, { timeout: 15_000 }).toMatch(/\/sw\.js\?build=next$/);
    await expect(page.getByRole('button', { name: 'Add Post' })).toBeVisible();
  });
});
