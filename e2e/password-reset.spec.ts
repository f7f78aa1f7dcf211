import { expect, test } from '@playwright/test';
import { createUser, logIn, useSession } from './support/helpers.ts';
import { linkInMail, mailCount } from './support/mails.ts';

const CONFIRM = 'Confirm your email address';
const RESET = 'Choose a new password';

test.describe('mail: confirmation and password reset (issue 24)', () => {
  test('a new address is confirmed by its link; a forgotten password is reset through the mail, once', async ({
    page,
    request,
  }) => {
    const user = await createUser(request);

    // Settings shows the address as unconfirmed until its link is opened.
    await useSession(page, user);
    await page.goto('/settings/account');
    const card = page.getByRole('region', { name: 'Email address' });
    await expect(card.getByText(user.email)).toBeVisible();
    await expect(card.getByText('Unconfirmed', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Resend confirmation' })).toBeVisible();

    await page.goto(await linkInMail(user.email, CONFIRM));
    await expect(page.getByText('Thank you: your email address is confirmed.')).toBeVisible();
    await page.getByRole('link', { name: 'Go to your account settings' }).click();
    await expect(
      page.getByRole('region', { name: 'Email address' }).getByText('Confirmed', { exact: true }),
    ).toBeVisible();

    // Signed out: "Forgot password?" on the login page.
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await page.getByLabel('Email or username').fill(user.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account with a confirmed email address matches');

    const resetLink = await linkInMail(user.email, RESET);
    expect(mailCount(user.email, RESET)).toBe(1);
    await page.goto(resetLink);
    const newPassword = `${user.password}-renewed`;
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password, again').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('The two passwords are not the same')).toBeVisible();
    await page.getByLabel('New password, again').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('status')).toContainText('Your password has been changed');

    await page.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/login');
    await logIn(page, { username: user.username, password: newPassword });
    await expect(page).toHaveURL('/');

    // The link worked once.
    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto(resetLink);
    await page.getByLabel('New password', { exact: true }).fill('yet another new secret');
    await page.getByLabel('New password, again').fill('yet another new secret');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toContainText('This password reset link has already been used.');
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  });

  test('an unknown name gets the same sentence as a real one, and no mail', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByLabel('Email or username').fill('nobody-at-all@example.test');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account with a confirmed email address matches');
    expect(mailCount('nobody-at-all@example.test', RESET)).toBe(0);
  });
});
