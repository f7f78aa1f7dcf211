// Sessions (issue 24): Settings lists where the account is signed in ("This device" for this one) and ends
// any other; changing the password signs every other browser out and keeps this one; LOG OUT ends the
// session on the server, so its token stops working. Two browser contexts are two devices of one account.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createUser, expectNoAxeViolations, toast, useSession, useTheme, type CreatedUser } from './support/helpers.ts';

/** A second device: a new browser context signed in with its own log-in (its own session). */
async function anotherDevice(browser: Browser, baseURL: string, user: CreatedUser): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });
  const login = await context.request.post('/api/auth/login', {
    data: { username: user.username, password: user.password },
  });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  await useSession(page, { token: ((await login.json()) as { encodedToken: string }).encodedToken });
  return page;
}

/** Whether the page's browser is signed out: its stored token was refused and cleared at the next load. */
async function expectSignedOut(page: Page) {
  await page.reload();
  await expect(page).not.toHaveURL(/\/settings$/);
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
}

test.describe('sessions', () => {
  test('end another device from "Where you\'re signed in"', async ({ page, browser, baseURL, request }) => {
    const user = await createUser(request);
    await useSession(page, user);
    const phone = await anotherDevice(browser, baseURL!, user);
    await phone.goto('/settings');
    await expect(phone.getByRole('heading', { name: 'Settings' })).toBeVisible();

    await page.goto('/settings/account');
    const card = page.getByRole('region', { name: "Where you're signed in" });
    const rows = card.getByRole('list', { name: 'Your sessions' }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
    const phoneRow = rows.filter({ hasText: 'iPhone' });
    await expect(phoneRow).toContainText('Last active');
    await expectNoAxeViolations(page);

    await phoneRow.getByRole('button', { name: /^End the session of/ }).click();
    await expect(card.getByRole('status')).toContainText('is signed out.');
    await expect(rows).toHaveCount(1);
    await expectSignedOut(phone);
    await phone.context().close();
  });

  test('changing the password signs the other browser out and keeps this one', async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    const user = await createUser(request);
    await useSession(page, user);
    const laptop = await anotherDevice(browser, baseURL!, user);
    await laptop.goto('/settings');
    await expect(laptop.getByRole('heading', { name: 'Settings' })).toBeVisible();

    await page.goto('/settings/account');
    const card = page.getByRole('region', { name: 'Change password' });
    await card.getByLabel('Current password').fill('not my password');
    await card.getByLabel('New password').fill('a fresh sheet of paper');
    await card.getByRole('button', { name: 'Change password' }).click();
    await expect(card.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
    await expect(card).toContainText('Your current password is not right');

    await card.getByLabel('Current password').fill(user.password);
    await card.getByRole('button', { name: 'Change password' }).click();
    await expect(card.getByRole('status')).toContainText(
      'Your password is changed. You stay signed in here; one other session was signed out.',
    );
    await expectSignedOut(laptop);
    await laptop.context().close();

    // This one stays signed in, and the new password signs in.
    await page.reload();
    await expect(page.getByRole('region', { name: "Where you're signed in" }).getByRole('listitem')).toHaveCount(1);
    const login = await request.post('/api/auth/login', {
      data: { username: user.username, password: 'a fresh sheet of paper' },
    });
    expect(login.status()).toBe(200);
  });

  test('LOG OUT ends the session on the server', async ({ page, request }) => {
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto('/settings');
    await page.getByRole('button', { name: 'LOG OUT' }).click();
    await expect(page).toHaveURL(/\/landing$/);
    // The toast comes once the server has answered.
    await expect(toast(page, 'Successfully Logged Out')).toBeVisible();
    const verify = await request.post('/api/auth/verify', { data: { encodedToken: user.token } });
    expect(verify.status()).toBe(401);
  });

  for (const [theme, width] of [
    ['light', 375],
    ['dark', 1280],
  ] as const) {
    test(`the sessions and password cards at ${width} px, ${theme}`, async ({ page, request }) => {
      const user = await createUser(request);
      await useTheme(page, theme);
      await useSession(page, user);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/settings/account');
      const card = page.getByRole('region', { name: "Where you're signed in" });
      await expect(card.getByText('This device')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Change password' })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
});
