// "Follow from your server" (issue 39): a visitor who is not signed in follows an artist from their own
// fediverse server. This server cannot reach any other from here, so the spec follows the way a visitor takes up
// to their server's answer (the lookup itself, and the page it sends to, are federation.follows.test.ts's).
import { expect, test } from '@playwright/test';
import { createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

test.describe('follow from your server', () => {
  test('a visitor types their handle; what cannot be reached says so, with the handle to search for', async ({
    page,
    request,
  }) => {
    const artist = await createUser(request);
    await page.goto(`/${artist.username}`);
    const host = new URL(page.url()).host;

    await page.getByRole('button', { name: 'Follow from your server' }).click();
    const dialog = page.getByRole('dialog', { name: `Follow @${artist.username} from your server` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(`@${artist.username}@${host}`, { exact: true })).toBeVisible();
    const field = dialog.getByLabel('Your handle or server');
    await expect(field).toBeFocused();
    await dialog.getByRole('button', { name: 'Go to my server' }).click();
    await expect(dialog.getByText(/^Type your fediverse handle, like @you@mastodon.social/)).toBeVisible();

    await field.fill('not a handle');
    await dialog.getByRole('button', { name: 'Go to my server' }).click();
    await expect(dialog.getByText(/^Type your fediverse handle, like @you@mastodon.social/)).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    // A server with a reserved name, which no lookup finds.
    await field.fill('@bob@nowhere.invalid');
    await dialog.getByRole('button', { name: 'Go to my server' }).click();
    await expect(
      dialog.getByText(
        `We could not reach a fediverse server at nowhere.invalid. Check the address, or search for @${artist.username}@${host} on your server.`,
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${artist.username}$`));

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('signed in, the profile offers Follow only', async ({ page, request }) => {
    const artist = await createUser(request);
    const visitor = await createUser(request);
    await useSession(page, visitor);
    await page.goto(`/${artist.username}`);
    await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Follow from your server' })).toHaveCount(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the dialog passes axe in the ${theme} theme`, async ({ page, request }) => {
      const artist = await createUser(request);
      await useTheme(page, theme);
      await page.goto(`/${artist.username}`);
      await page.getByRole('button', { name: 'Follow from your server' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});
