// Deleting an account (issue 24): Settings' last card opens a dialog that says what goes and asks for the
// password; a wrong one is refused with the server's sentence, the right one signs out and lands on
// /landing with a sentence that it is done. The account's post and profile are gone, its token answers 404
// and its name is held back from sign-ups. Axe on the card and the dialog.
import { expect, test } from '@playwright/test';
import {
  authOf,
  createTextPost,
  createUser,
  expectNoAxeViolations,
  toast,
  useSession,
  useTheme,
} from './support/helpers.ts';

test.describe('account deletion', () => {
  test('delete your account from Settings with your password', async ({ page, request }) => {
    test.setTimeout(60_000);
    const user = await createUser(request);
    const post = await createTextPost(request, user, `A last painting ${Date.now().toString(36)}`);
    await useSession(page, user);

    await page.goto('/settings/account');
    const card = page.getByRole('region', { name: 'Delete your account' });
    await expect(card).toContainText('To keep a copy, download your data first.');
    await expectNoAxeViolations(page);

    // Cancel keeps everything.
    await card.getByRole('button', { name: 'Delete your account…' }).click();
    let dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog).toContainText(`This deletes @${user.username} for good`);
    await expect(dialog).toContainText('It cannot be undone.');
    await expect(dialog.getByRole('button', { name: 'Keep my account' })).toBeFocused();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Keep my account' }).click();
    await expect(dialog).toHaveCount(0);

    // A wrong password: the server's sentence under the field, the account still there.
    await card.getByRole('button', { name: 'Delete your account…' }).click();
    dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Your password').fill('not the password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog).toContainText('The password is not right');
    await expect(dialog.getByLabel('Your password')).toHaveAttribute('aria-invalid', 'true');
    expect((await request.get(`/api/posts/${post._id}`)).status()).toBe(200);

    // The right one: signed out, on /landing, told it is done.
    await dialog.getByLabel('Your password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/landing$/);
    await expect(toast(page, 'Your account is deleted')).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

    // Gone from the server: its post, its profile, its token; its name held back.
    expect((await request.get(`/api/posts/${post._id}`)).status()).toBe(404);
    expect((await request.get(`/api/users/by-username/${user.username}`)).status()).toBe(404);
    expect((await request.get('/api/feed', { headers: authOf(user) })).status()).toBe(404);
    const again = await request.post('/api/auth/signup', {
      data: {
        fullname: 'Someone Else',
        email: 'else@example.test',
        username: user.username,
        password: 'a long new password',
      },
    });
    expect(again.status()).toBe(422);
    expect(((await again.json()) as { errors: string[] }).errors[0]).toContain('held back');
  });

  for (const [theme, width] of [
    ['light', 375],
    ['dark', 1280],
  ] as const) {
    test(`the card and dialog at ${width} px in the ${theme} theme`, async ({ page, request }) => {
      const user = await createUser(request);
      await useTheme(page, theme);
      await useSession(page, user);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/settings/account');
      const card = page.getByRole('region', { name: 'Delete your account' });
      await card.getByRole('button', { name: 'Delete your account…' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
      await expect(dialog.getByRole('button', { name: 'Delete my account' })).toBeVisible();
      // Nothing wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
});
