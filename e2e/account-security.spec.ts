// Account security (issue 38): a change of address is saved unconfirmed, listed in "Security activity" and
// undone from the old address's mail (which signs the account out everywhere). A fresh sign-in may make such
// changes without "Confirm it's you"; the dialog an older session is shown is the web unit tests' (its logic,
// features/account/lib/reauth.test.ts) and was looked at by hand: no spec here fakes the server's answer.
import { expect, test } from '@playwright/test';
import {
  createUser,
  expectNoAxeViolations,
  logIn,
  signUp,
  toast,
  uniqueUser,
  useSession,
  useTheme,
} from './support/helpers.ts';
import { linkInMail } from './support/mails.ts';

const EMAIL_CHANGED = 'Your new address is saved. Please open the link we mailed to it to confirm it';

const newAddress = (username: string) => `${username}.new@example.test`;

test.describe('account security', () => {
  test('sign up, change the address in Settings, see it in the security activity, undo it from the old address', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const user = uniqueUser();
    await signUp(page, user);
    await expect(page).toHaveURL('/');
    // Only a confirmed old address is mailed the link that puts it back.
    await page.goto(await linkInMail(user.email, 'Confirm your email address'));
    await expect(page.getByText('Thank you: your email address is confirmed.')).toBeVisible();

    // Right after signing up the session may change it without "Confirm it's you".
    await page.goto('/settings/account');
    const card = page.getByRole('region', { name: 'Email address' });
    await card.getByRole('button', { name: 'Change address' }).click();
    await expect(card.getByLabel('New email address')).toBeFocused();
    await card.getByLabel('New email address').fill(newAddress(user.username));
    await card.getByRole('button', { name: 'Change address' }).click();
    await expect(card.getByRole('status')).toContainText(EMAIL_CHANGED);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(card.getByText(newAddress(user.username))).toBeVisible();
    await expect(card.getByText('Unconfirmed', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Change address' })).toBeFocused();

    const log = page.getByRole('region', { name: 'Security activity' });
    const entries = log.getByRole('list', { name: 'Your security activity' }).getByRole('listitem');
    await expect(entries.first()).toContainText('Email address changed');
    await expectNoAxeViolations(page);

    // "This was not me": the old address comes back, and every session ends, this one too.
    await page.goto(await linkInMail(user.email, 'The email address of your'));
    await expect(page.getByRole('status')).toContainText('Your email address has been put back and confirmed');
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    await page.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/login');
    await logIn(page, user);
    await expect(page).toHaveURL('/');
    await page.goto('/settings/account');
    await expect(card.getByText(user.email, { exact: true })).toBeVisible();
    await expect(card.getByText('Confirmed', { exact: true })).toBeVisible();
    await expect(entries.first()).toContainText('Email address change undone from the old address');
  });

  test('Profile: a changed email is changed first, then the rest is saved', async ({ page, request }) => {
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto('/settings');
    const email = page.getByLabel('Email', { exact: true });
    const bio = page.getByLabel('Bio', { exact: true });
    await email.fill(newAddress(user.username));
    await bio.fill('Woodcuts of lighthouses.');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(toast(page, 'User Data Updated Successfully')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: EMAIL_CHANGED })).toBeVisible();
    const saved = await request.post('/api/auth/verify', { data: { encodedToken: user.token } });
    const { user: now } = (await saved.json()) as { user: { email: string; bio: string } };
    expect(now).toMatchObject({ email: newAddress(user.username), bio: 'Woodcuts of lighthouses.' });
    await page.goto('/settings/account');
    await expect(page.getByRole('region', { name: 'Email address' })).toContainText(newAddress(user.username));
  });

  for (const [theme, width] of [
    ['light', 375],
    ['dark', 1280],
  ] as const) {
    test(`the email and security activity at ${width} px, ${theme}`, async ({ page, request }) => {
      const user = await createUser(request);
      await useTheme(page, theme);
      await useSession(page, user);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/settings/account');
      await expect(page.getByRole('region', { name: 'Security activity' })).toContainText(
        'Nothing has changed since you signed up.',
      );
      const card = page.getByRole('region', { name: 'Email address' });
      await card.getByRole('button', { name: 'Change address' }).click();
      await card.getByLabel('New email address').fill(newAddress(user.username));
      await card.getByRole('button', { name: 'Change address' }).click();
      await expect(card.getByRole('status')).toContainText(EMAIL_CHANGED);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
});
