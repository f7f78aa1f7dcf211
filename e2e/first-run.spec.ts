// What a new visitor meets in the first minutes (issue 19): the bars over the page, the theme on first
// load, and the pages that say there is nothing here.
import { expect, test, type Page } from '@playwright/test';
import { localeDirection } from '@share-arts/contract';
import { createUser, listPosts, mainNav, useSession } from './support/helpers.ts';
import { say, testLocale } from './support/say.ts';

test("the page speaks the browser's language, laid out in its direction (right to left in Arabic)", async ({
  page,
}) => {
  await page.goto('/landing');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('lang', testLocale());
  await expect(html).toHaveAttribute('dir', localeDirection(testLocale()));
  if (test.info().project.name === 'arabic') await expect(html).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('link', { name: say('Get Started'), exact: true })).toBeVisible();
});

test.describe('the header and the bottom bar', () => {
  test('blur what scrolls under them: the served CSS keeps the standard backdrop-filter', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await useSession(page, await createUser(request));
    await page.goto('/');
    for (const bar of [page.getByRole('banner'), mainNav(page)]) {
      await expect
        .poll(() => bar.evaluate((element) => getComputedStyle(element).backdropFilter))
        .toContain('blur(14px)');
    }
    // The build once merged the two declarations into the prefixed one alone (which Chromium ignores): the
    // stylesheets the server sends keep the standard one beside every prefixed one.
    const hrefs = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'), (link) => link.href),
    );
    const css = (await Promise.all(hrefs.map(async (href) => (await request.get(href)).text()))).join('\n');
    const standard = css.match(/(?<!-webkit-)backdrop-filter:[^;}]*blur/g) ?? [];
    const prefixed = css.match(/-webkit-backdrop-filter:[^;}]*blur/g) ?? [];
    expect(standard.length, 'one standard declaration per bar').toBeGreaterThanOrEqual(2);
    expect(standard.length, 'no prefixed declaration without its standard one').toBeGreaterThanOrEqual(prefixed.length);
  });

  test('on a phone, the comment box focus moves to is not under the bottom bar', async ({ page, request }) => {
    const [post] = await listPosts(request, '?limit=1');
    if (!post) throw new Error('The sample data has no post.');
    await page.setViewportSize({ width: 375, height: 740 });
    await useSession(page, await createUser(request));
    await page.goto(`/posts/${post._id}`);
    const box = page.getByRole('textbox', { name: say('Add a comment'), exact: true });
    await expect(box).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await box.focus();
    const bar = await mainNav(page).boundingBox();
    const field = await box.boundingBox();
    expect(bar && field, 'both are on screen').toBeTruthy();
    expect(field!.y + field!.height, 'the field ends above the bar').toBeLessThanOrEqual(bar!.y + 1);
  });
});

test.describe('the theme on first load', () => {
  /** The theme the page had when its body began, before anything could be painted. */
  async function themeBeforeFirstPaint(page: Page): Promise<string | undefined> {
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        if (!document.body) return;
        (window as unknown as { themeAtBody?: string }).themeAtBody = document.documentElement.dataset.theme;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/landing');
    return page.evaluate(() => (window as unknown as { themeAtBody?: string }).themeAtBody);
  }

  test('with no saved choice, a dark system gets the dark theme from the first paint', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await themeBeforeFirstPaint(page)).toBe('dark');
  });

  test('with no saved choice, a light system gets the light theme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await themeBeforeFirstPaint(page)).toBe('light');
  });

  test('a saved choice wins over the system, from the first paint', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.addInitScript(() => window.localStorage.setItem('theme', 'light'));
    expect(await themeBeforeFirstPaint(page)).toBe('light');
  });

  test('the toggle follows the system until it is used, and then wins', async ({ page, request }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await useSession(page, await createUser(request));
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('button', { name: say('Switch to light theme') })).toBeVisible();

    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect(page.getByRole('button', { name: say('Switch to dark theme') })).toBeVisible();

    await page.getByRole('button', { name: say('Switch to dark theme') }).click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-theme', 'dark');
  });
});

test.describe('nothing here', () => {
  test('an unknown address, post and user share one design', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const seen: { address: string; classes: string; font: string }[] = [];
    for (const [address, title] of [
      ['/no/such/page', say('Page not found')],
      ['/posts/00000000-0000-4000-8000-000000000000', say('Post not found')],
      ['/nobody_is_called_this', say('User not found')],
    ] as const) {
      await page.goto(address);
      const region = page.getByRole('region', { name: title });
      await expect(region).toBeVisible();
      await expect(region.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(region.getByRole('link', { name: say('Back to Home') })).toBeVisible();
      await expect(region.getByRole('link', { name: say('Explore') })).toBeVisible();
      seen.push({
        address,
        classes: await region.evaluate((element) => element.className),
        font: await region.getByRole('heading').evaluate((element) => getComputedStyle(element).fontSize),
      });
    }
    const [first, ...rest] = seen;
    for (const other of rest) {
      expect({ classes: other.classes, font: other.font }, other.address).toEqual({
        classes: first!.classes,
        font: first!.font,
      });
    }
  });
});
