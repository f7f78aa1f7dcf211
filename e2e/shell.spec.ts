import { expect, test, type Page } from '@playwright/test';
import { createUser, expectNoAxeViolations, mainNav, useSession, useTheme } from './support/helpers.ts';

async function expectTheme(page: Page, theme: 'light' | 'dark') {
  if (theme === 'dark') {
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  } else {
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
  }
}

test.describe('document titles', () => {
  test('public pages', async ({ page }) => {
    await page.goto('/landing');
    await expect(page).toHaveTitle('Landing | Share Arts');
    await page.goto('/login');
    await expect(page).toHaveTitle('Login | Share Arts');
    await page.getByRole('link', { name: 'Create now' }).click();
    await expect(page).toHaveURL('/signup');
    await expect(page).toHaveTitle('Signup | Share Arts');
  });

  test('signed-in pages, reached through the main navigation', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    await page.goto('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    const nav = mainNav(page);
    for (const [link, path, title] of [
      ['Explore', '/explore', 'Explore | Share Arts'],
      ['Profile', '/profile', 'Profile | Share Arts'],
      ['Settings', '/settings', 'Settings | Share Arts'],
      ['Home', '/', 'Home | Share Arts'],
    ] as const) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(path);
      await expect(page).toHaveTitle(title);
    }
  });

  test('on a phone (375 px), More in the bottom bar reaches Insights, Inquiries and Settings in two taps', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await useSession(page, await createUser(request));
    await page.goto('/');
    const nav = mainNav(page);
    const more = nav.getByRole('button', { name: 'More', exact: true });
    // The bar holds five: Home, Explore, Notifications, Profile, More; the rest wait in More's sheet.
    await expect(more).toBeVisible();
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Insights', exact: true })).toBeHidden();
    for (const [link, path, title] of [
      ['Insights', '/insights', 'Insights | Share Arts'],
      ['Inquiries', '/inquiries', 'Inquiries | Share Arts'],
      ['Settings', '/settings', 'Settings | Share Arts'],
    ] as const) {
      await more.click();
      await expect(more).toHaveAttribute('aria-expanded', 'true');
      await nav.getByRole('list', { name: 'More' }).getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(path);
      await expect(page).toHaveTitle(title);
      // Taking a link closes the sheet.
      await expect(more).toHaveAttribute('aria-expanded', 'false');
    }
    // Escape closes it too, and focus goes back to More.
    await more.click();
    await page.keyboard.press('Escape');
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(more).toBeFocused();
    await expectNoAxeViolations(page);
  });

  test("Settings' parts are pages of their own, reached from its navigation", async ({ page, request }) => {
    await useSession(page, await createUser(request));
    await page.goto('/settings');
    const parts = page.getByRole('navigation', { name: 'Settings' });
    await expect(parts.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    for (const [link, path, title, card] of [
      ['Privacy and safety', '/settings/privacy', 'Privacy and safety · Settings | Share Arts', 'Blocked accounts'],
      ['Account', '/settings/account', 'Account · Settings | Share Arts', "Where you're signed in"],
      ['Profile', '/settings', 'Settings | Share Arts', 'Session'],
    ] as const) {
      await parts.getByRole('link', { name: link }).click();
      await expect(page).toHaveURL(path);
      await expect(page).toHaveTitle(title);
      await expect(parts.getByRole('link', { name: link })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('region', { name: card })).toBeVisible();
      // The menu's Settings stays the current place on every part.
      await expect(mainNav(page).getByRole('link', { name: 'Settings', exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
    }
    await page.goto('/settings/nothing-here');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});

test.describe('header', () => {
  test('has the search box and a Settings link', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    await page.goto('/');
    const search = page.getByRole('banner').getByRole('combobox', { name: 'Search' });
    await expect(search).toBeVisible();
    await expect(search).toHaveAttribute('placeholder', 'Search...');
    await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL('/settings');
  });

  test('the theme toggle switches to dark and the choice survives a reload', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    await page.goto('/');
    await expectTheme(page, 'light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expectTheme(page, 'dark');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');

    await page.reload();
    await expectTheme(page, 'dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expectTheme(page, 'light');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('light');
    await page.reload();
    await expectTheme(page, 'light');
    await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
  });
});

test.describe('layout', () => {
  test('at 375 px the main navigation is a bar fixed to the bottom and there is no side panel', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await useSession(page, await createUser(request));
    await page.goto('/');
    const nav = mainNav(page);
    await expect(nav).toBeVisible();
    for (const name of ['Home', 'Explore', 'Profile']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    // Settings, Insights and Inquiries wait in More's sheet (issue 42).
    await expect(nav.getByRole('button', { name: 'More', exact: true })).toBeVisible();
    const box = await nav.boundingBox();
    expect(box).not.toBeNull();
    expect(Math.abs(box!.y + box!.height - 740), 'bar touches the bottom edge').toBeLessThanOrEqual(1);
    expect(box!.width, 'bar spans the width').toBeGreaterThanOrEqual(375 * 0.9);
    expect(box!.height, 'bar is a bar, not a column').toBeLessThan(120);
    expect(await nav.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');

    // Stays at the bottom while the page scrolls.
    await page.mouse.wheel(0, 2000);
    const after = await nav.boundingBox();
    expect(Math.abs(after!.y + after!.height - 740)).toBeLessThanOrEqual(1);

    // No side panel: the main area starts at the left edge and takes the whole width.
    const main = await page.getByRole('main').boundingBox();
    expect(main).not.toBeNull();
    expect(main!.x).toBeLessThanOrEqual(1);
    expect(main!.width).toBeGreaterThanOrEqual(375 * 0.9);
  });

  test('on a desktop the main navigation is a side column', async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await useSession(page, await createUser(request));
    await page.goto('/');
    const nav = await mainNav(page).boundingBox();
    expect(nav).not.toBeNull();
    expect(nav!.x + nav!.width, 'the side panel is on the left').toBeLessThan(1280 / 3);
    // The links are stacked one under the other, not laid out in a row.
    const home = await mainNav(page).getByRole('link', { name: 'Home', exact: true }).boundingBox();
    const explore = await mainNav(page).getByRole('link', { name: 'Explore', exact: true }).boundingBox();
    expect(explore!.y).toBeGreaterThanOrEqual(home!.y + home!.height - 1);
    expect(Math.abs(explore!.x - home!.x)).toBeLessThanOrEqual(1);
    const main = await page.getByRole('main').boundingBox();
    expect(main!.x, 'main area sits beside the side panel').toBeGreaterThanOrEqual(nav!.x + nav!.width - 1);
  });

  test('the header and navigation are hidden on landing, login and signup', async ({ page }) => {
    for (const path of ['/landing', '/login', '/signup']) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await expect(mainNav(page)).toHaveCount(0);
      await expect(page.getByRole('button', { name: /Switch to (dark|light) theme/ })).toHaveCount(0);
    }
  });
});

test.describe('served by the production server', () => {
  test('a deep link is answered with the app (history fallback)', async ({ page, request }) => {
    const response = await request.get('/settings', { headers: { accept: 'text/html' } });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/html');

    const user = await createUser(request);
    await useSession(page, user);
    const navigation = await page.goto('/settings');
    expect(navigation?.status()).toBe(200);
    await expect(page).toHaveURL('/settings');
    await expect(page.getByRole('button', { name: 'Update Profile' })).toBeVisible();
  });

  test('an unknown API path is a JSON 404, not the app', async ({ request }) => {
    const response = await request.get('/api/no-such-thing');
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
  });
});

test.describe('accessibility (axe, WCAG 2 A and AA)', () => {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`${theme} theme`, () => {
      test.beforeEach(async ({ page }) => {
        await useTheme(page, theme);
      });

      for (const [name, path] of [
        ['landing', '/landing'],
        ['login', '/login'],
        ['signup', '/signup'],
      ] as const) {
        test(name, async ({ page }) => {
          await page.goto(path);
          await expect(page.getByRole('main')).toBeVisible();
          await expectTheme(page, theme);
          await expectNoAxeViolations(page);
        });
      }

      test('settings', async ({ page, request }) => {
        await useSession(page, await createUser(request));
        await page.goto('/settings');
        await expect(page.getByRole('button', { name: 'Update Profile' })).toBeVisible();
        await expectTheme(page, theme);
        await expectNoAxeViolations(page);
      });
    });
  }
});
