// Two-factor sign-in (issue 24). TOTP: Settings' card shows a QR code and the key in text; the test reads the
// key, computes the code as an authenticator app does, turns it on and gets 10 recovery codes; the log-in
// then asks for a code (a wrong one is refused with a sentence), and a recovery code works instead.
// Passkeys: Chromium's virtual authenticator (DevTools protocol) registers one in Settings, and "Sign in with
// a passkey" on the login page signs in with it alone. WebAuthn needs a domain, not an IP address: the passkey
// test opens the site as localhost. Axe on the card in each state and on the second step.
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { createUser, expectNoAxeViolations, logIn, toast, useSession } from './support/helpers.ts';

/** The code an authenticator app shows `steps` time-steps from now. */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** Ends the session in this tab (as a new visit would be), on the login page. */
async function signOutHere(page: Page) {
  await page.evaluate(() => window.localStorage.removeItem('token'));
  await page.goto('/login');
}

test.describe('two-factor sign-in', () => {
  test('turn on an authenticator app, then sign in with a code and with a recovery code', async ({ page, request }) => {
    test.setTimeout(60_000);
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto('/settings/account');
    const card = page.getByRole('region', { name: 'Two-factor sign-in' });
    await expect(card).toContainText('Off.');
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(card.getByRole('img', { name: 'QR code to add Share Arts to your authenticator app' })).toBeVisible();
    const secret = (await card.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoAxeViolations(page);

    // A wrong first code: the server's sentence, still off.
    await card.getByLabel('Code from the app').fill(codeOf(secret, 10));
    await card.getByRole('button', { name: 'Turn on' }).click();
    await expect(card).toContainText('This code is not right');
    await card.getByLabel('Code from the app').fill(codeOf(secret));
    await card.getByRole('button', { name: 'Turn on' }).click();
    await expect(card.getByRole('status')).toHaveText('Two-factor sign-in is on.');
    const codes = await card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
    expect(codes).toHaveLength(10);
    await expectNoAxeViolations(page);
    await card.getByRole('button', { name: 'I saved them' }).click();
    await expect(card).toContainText('On. 10 recovery codes are left.');

    // The password alone no longer signs in: the second step asks for a code.
    await signOutHere(page);
    await logIn(page, user);
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('This code is not right')).toBeVisible();
    await page.getByLabel('Authentication code').fill(codeOf(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(toast(page, 'Login Successful')).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);

    // A recovery code instead of the app, once.
    await signOutHere(page);
    await logIn(page, user);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto('/settings/account');
    await expect(page.getByRole('region', { name: 'Two-factor sign-in' })).toContainText(
      'On. 9 recovery codes are left.',
    );
  });

  test('register a passkey in Settings, then sign in with it alone', async ({ page, request, baseURL }) => {
    test.setTimeout(60_000);
    // WebAuthn's relying party is a domain: the same server, reached as localhost.
    const site = baseURL!.replace('127.0.0.1', 'localhost');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto(`${site}/settings/account`);
    const card = page.getByRole('region', { name: 'Two-factor sign-in' });
    await card.getByLabel('Name of the new passkey (optional)').fill('Test laptop');
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    const passkeys = card.getByRole('list', { name: 'Your passkeys' });
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    await expect(passkeys).toContainText('Test laptop');
    await expect(passkeys).toContainText('not used yet');
    await expectNoAxeViolations(page);

    await page.evaluate(() => window.localStorage.removeItem('token'));
    await page.goto(`${site}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(toast(page, 'Login Successful')).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`${site}/settings/account`);
    await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText('last used');

    // Removed, it signs no one in.
    await page
      .getByRole('region', { name: 'Two-factor sign-in' })
      .getByRole('button', { name: 'Remove the passkey Test laptop' })
      .click();
    await expect(page.getByRole('list', { name: 'Your passkeys' })).toHaveCount(0);
  });
});
