import { expect, test, type Page } from '@playwright/test';
import {
  TEST_ACCOUNT,
  createUser,
  logIn,
  mainNav,
  recordToasts,
  signUp,
  toast,
  uniqueUser,
  useSession,
} from './support/helpers.ts';

test.describe('signing up, in and out', () => {
  test('sign up lands on the feed; log out, then log in again', async ({ page }) => {
    const user = uniqueUser();
    await signUp(page, user);
    await expect(page).toHaveURL('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    await expect(toast(page, 'SignIn Successful')).toBeVisible();

    await mainNav(page).getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page).toHaveURL('/settings');
    await page.getByRole('button', { name: 'LOG OUT', exact: true }).click();
    await expect(toast(page, 'Successfully Logged Out')).toBeVisible();
    await expect(page).toHaveURL('/landing');
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL('/login');
    await logIn(page, user);
    await expect(page).toHaveURL('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    await expect(toast(page, 'Login Successful')).toBeVisible();
  });

  test('"Login with Test Credential" signs in as the seeded test account', async ({ page }) => {
    await page.goto('/login');
    const login = page.waitForResponse((r) => r.url().endsWith('/api/auth/login') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Login with Test Credential' }).click();
    const response = await login;
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { foundUser?: { username?: string } };
    expect(body.foundUser?.username).toBe(TEST_ACCOUNT.username);
    await expect(page).toHaveURL('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toEqual(expect.any(String));
  });

  test('the seeded test account can log in with its username and password', async ({ page }) => {
    // Its Home is the fullest: on a loaded host the 2 s toast can close before a look at the page catches it.
    const toastsShown = await recordToasts(page);
    await page.goto('/login');
    await logIn(page, TEST_ACCOUNT);
    await expect(page).toHaveURL('/');
    await expect.poll(async () => (await toastsShown()).some((text) => text.includes('Login Successful'))).toBe(true);
  });

  test('a guarded deep link sends a visitor to /landing and back after login', async ({ page, request }) => {
    const user = await createUser(request);
    await page.goto('/settings');
    await expect(page).toHaveURL('/landing');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL('/login');
    await logIn(page, user);
    await expect(page).toHaveURL('/settings');
    await expect(page).toHaveTitle('Settings | Share Arts');
    await expect(page.getByRole('button', { name: 'Update Profile' })).toBeVisible();
  });

  test('a reload keeps the session', async ({ page, request }) => {
    const user = await createUser(request);
    await page.goto('/login');
    await logIn(page, user);
    await expect(page).toHaveURL('/');
    await page.goto('/settings');
    await expect(page.getByRole('button', { name: 'LOG OUT' })).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL('/settings');
    await expect(page.getByRole('button', { name: 'LOG OUT' })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  });

  test('signed-in users who open /login or /signup are sent back to the feed', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    await page.goto('/login');
    await expect(page).toHaveURL('/');
    await page.goto('/signup');
    await expect(page).toHaveURL('/');
  });
});

test.describe('form errors, beside the fields they are about', () => {
  /** The field's state: invalid, with `message` as (the start of) its description. */
  async function expectFieldError(page: Page, label: string, message: string) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  }

  test('signup with different passwords says so beside Re-Enter Password and stays on the page', async ({ page }) => {
    await signUp(page, { ...uniqueUser(), confirmPassword: 'something-else' });
    await expectFieldError(page, 'Re-Enter Password', 'Password do not match');
    await expect(page.getByLabel('Re-Enter Password', { exact: true })).toBeFocused();
    await expect(page).toHaveURL('/signup');
  });

  test('signup names every problem at once', async ({ page }) => {
    await signUp(page, { ...uniqueUser(), fullname: '', email: '', confirmPassword: 'something-else' });
    await expectFieldError(page, 'Fullname', 'Please Enter Alll the field');
    await expectFieldError(page, 'Email', 'Please Enter Alll the field');
    await expectFieldError(page, 'Re-Enter Password', 'Password do not match');
    await expect(page.getByLabel('Username', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Fullname', { exact: true })).toBeFocused();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page).toHaveURL('/signup');
  });

  test('a taken username is marked on Username; once corrected, sign-up succeeds and no stale error stays', async ({
    page,
  }) => {
    const user = uniqueUser();
    await signUp(page, { ...user, username: TEST_ACCOUNT.username });
    await expectFieldError(page, 'Username', 'Unprocessable Entity. Username Already Exists.');
    await expect(page).toHaveURL('/signup');

    await page.getByLabel('Username', { exact: true }).fill(user.username);
    await expect(page.getByLabel('Username', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Username Already Exists')).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page).toHaveURL('/');
    await expect(toast(page, 'SignIn Successful')).toBeVisible();
    await expect(page.getByText('Username Already Exists')).toHaveCount(0);
  });

  test('a wrong password shows the server message beside Password', async ({ page, request }) => {
    const user = await createUser(request);
    await page.goto('/login');
    await logIn(page, { username: user.username, password: `${user.password}-wrong` });
    await expectFieldError(page, 'Password', 'The credentials you entered are invalid. Unauthorized access error.');
    await expect(page).toHaveURL('/login');
  });

  test('an unknown username shows the server message beside Username', async ({ page }) => {
    await page.goto('/login');
    await logIn(page, { username: uniqueUser().username, password: 'whatever-it-is' });
    await expectFieldError(page, 'Username', 'The username you entered is not Registered. Not Found error');
    await expect(page).toHaveURL('/login');
  });

  test('login with both fields empty marks both', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectFieldError(page, 'Username', 'Please Enter Alll the field');
    await expectFieldError(page, 'Password', 'Please Enter Alll the field');
  });
});
