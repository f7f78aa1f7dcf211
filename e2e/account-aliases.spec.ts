// Moving here from another server (issue 40): Settings → Account's card names the artist's old accounts, each
// looked up on its own server. This server reaches no other from here, so the spec follows the way up to the
// lookup's answer: an account whose server cannot be reached is refused with a sentence in place, the text kept
// and nothing named. What a named account looks like (its handle whole, Remove) is the web app's unit test's
// (account-aliases.test.tsx), and what the server keeps federation's tests'.
import { expect, test, type Page } from '@playwright/test';
import { createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

const TITLE = 'Moving here from another server';

function card(page: Page) {
  return page.getByRole('region', { name: TITLE });
}

test.describe('Settings: moving here from another server', () => {
  test('an old account that cannot be reached is refused in place, the text kept and nothing named', async ({
    page,
    request,
  }) => {
    const artist = await createUser(request);
    await useSession(page, artist);
    await page.goto('/settings/account');
    const host = new URL(page.url()).host;

    const moving = card(page);
    await expect(moving).toBeVisible();
    // The handle to give on the old server: the artist's own, here.
    await expect(moving).toContainText(`@${artist.username}@${host}`);
    await expect(moving).toContainText('Move to a different account');
    await expect(moving.getByText('No account named yet.')).toBeVisible();

    // By keyboard: typed, then Enter.
    const box = moving.getByRole('textbox', { name: 'Your old account' });
    await box.focus();
    await page.keyboard.type('@nobody@127.0.0.1:1');
    await page.keyboard.press('Enter');

    // The lookup's sentence (nobody there, or the server did not answer), in place; the text is kept.
    const alert = moving.getByRole('alert').filter({ hasText: '127.0.0.1:1' });
    await expect(alert).toBeVisible({ timeout: 20_000 });
    await expect(moving.getByRole('button', { name: 'Adding…' })).toHaveCount(0);
    await expect(box).toHaveValue('@nobody@127.0.0.1:1');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await expect(moving.getByRole('list', { name: 'Your accounts on other servers' })).toHaveCount(0);
    await expect(moving.getByText('No account named yet.')).toBeVisible();

    // Nothing was named: the list read again after a reload is still empty.
    await page.reload();
    await expect(card(page).getByText('No account named yet.')).toBeVisible();
  });

  test('an empty box is refused before anything is sent', async ({ page, request }) => {
    const artist = await createUser(request);
    await useSession(page, artist);
    let sent = 0;
    await page.route('**/api/federation/aliases', async (route) => {
      if (route.request().method() === 'PUT') sent += 1;
      await route.fallback();
    });
    await page.goto('/settings/account');
    const moving = card(page);
    await moving.getByRole('button', { name: 'Add' }).click();
    await expect(moving.getByRole('alert')).toHaveText(
      'Type the handle of your old account, like @you@mastodon.social.',
    );
    expect(sent).toBe(0);
  });

  for (const [width, theme] of [
    [375, 'dark'],
    [1280, 'light'],
  ] as const) {
    test(`a long handle and its refusal fit at ${width} px (${theme}), and the card passes axe`, async ({
      page,
      request,
    }) => {
      const artist = await createUser(request);
      await useTheme(page, theme);
      await useSession(page, artist);
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/settings/account');
      const moving = card(page);
      // A 60-character handle on a server that does not exist.
      const handle = `@${'a'.repeat(24)}@${'long-server-name-'.repeat(2)}nowhere.invalid`;
      expect(handle.length).toBeGreaterThanOrEqual(60);
      const box = moving.getByRole('textbox', { name: 'Your old account' });
      await box.fill(handle);
      await moving.getByRole('button', { name: 'Add' }).click();
      await expect(moving.getByRole('alert').filter({ hasText: 'nowhere.invalid' })).toBeVisible({ timeout: 20_000 });
      await expect(box).toHaveValue(handle);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
});

test.describe('Settings: moving to another server', () => {
  test('the move is asked once more, and one this server cannot make is refused in place, nothing moved', async ({
    page,
    request,
  }) => {
    const artist = await createUser(request);
    const other = await createUser(request);
    await useSession(page, artist);
    await page.goto('/settings/account');
    const host = new URL(page.url()).host;
    const away = page.getByRole('region', { name: 'Moving to another server' });
    // The handle to name on the new server: the artist's own, here.
    await expect(away).toContainText(`@${artist.username}@${host}`);
    const box = away.getByRole('textbox', { name: 'Your new account' });
    await box.fill(`@${other.username}@${host}`);
    await away.getByRole('button', { name: 'Move…' }).click();
    const asked = page.getByRole('alertdialog', { name: `Move to @${other.username}@${host}?` });
    await expect(asked).toContainText('will follow');
    await asked.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(asked).toHaveCount(0);
    // An account of this site (or a site with no public address) cannot be moved to: the server's sentence.
    await expect(away.getByRole('alert')).not.toBeEmpty({ timeout: 20_000 });
    await expect(box).toHaveValue(`@${other.username}@${host}`);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Moving to another server' })).toContainText(
      'Then name your new account here',
    );
  });
});
