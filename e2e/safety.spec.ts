// Block and mute (issue 23): from an artist's profile and a post's menu, their posts leave Home and Explore,
// the profile says so, Settings lists them, and undoing restores everything. Axe on the new screens.
import { expect, test, type Page } from '@playwright/test';
import {
  createTextPost,
  createUser,
  expectNoAxeViolations,
  followViaApi,
  toast,
  useSession,
  useTheme,
} from './support/helpers.ts';

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

const homeCard = (page: Page, content: string) =>
  page.getByRole('feed', { name: 'Posts from you and the people you follow' }).getByRole('article').filter({
    hasText: content,
  });
const exploreWork = (page: Page, username: string) =>
  page.getByRole('grid', { name: 'Posts from everyone' }).getByRole('link', { name: new RegExp(`by @${username}`) });

test.describe('safety', () => {
  test('block from the profile hides their works everywhere; unblock restores them; mute from a post', async ({
    page,
    request,
  }) => {
    // One story across six pages, with axe four times.
    test.setTimeout(90_000);
    const [viewer, artist] = await Promise.all([createUser(request), createUser(request)]);
    const content = uniqueText('A quiet harbour');
    await createTextPost(request, artist, content);
    await followViaApi(request, viewer, artist);
    await useSession(page, viewer);

    await page.goto('/');
    await expect(homeCard(page, content)).toBeVisible();
    await page.goto('/explore');
    await expect(exploreWork(page, artist.username).first()).toBeVisible();

    // Block from the profile's "More" menu: the dialog says what blocking does.
    await page.goto(`/${artist.username}`);
    await page.getByRole('button', { name: `More options for @${artist.username}` }).click();
    await page.getByRole('menuitem', { name: 'Block' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Block @${artist.username}?` });
    await expect(dialog).toContainText("They won't see your works or be able to interact with you; they are not told.");
    await dialog.getByRole('button', { name: 'Block' }).click();
    await expect(toast(page, `You blocked @${artist.username}.`)).toBeVisible();
    await expect(page.getByRole('heading', { name: `You blocked @${artist.username}` })).toBeVisible();
    await expect(page.getByText(content)).toHaveCount(0);

    // Their post leaves Home and Explore.
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(homeCard(page, content)).toHaveCount(0);
    await page.goto('/explore');
    await expect(page.getByRole('grid', { name: 'Posts from everyone' })).toBeVisible();
    await expect(exploreWork(page, artist.username)).toHaveCount(0);

    // Settings lists them; axe on the blocked profile and on Settings, in both themes.
    await page.goto('/settings/privacy');
    const blocked = page.getByRole('region', { name: 'Blocked accounts' });
    await expect(blocked.getByRole('link', { name: `@${artist.username}` })).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await useTheme(page, theme);
      await page.goto('/settings/privacy');
      await expect(blocked.getByRole('link', { name: `@${artist.username}` })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.goto(`/${artist.username}`);
      await expect(page.getByRole('heading', { name: `You blocked @${artist.username}` })).toBeVisible();
      await expectNoAxeViolations(page);
    }

    // Unblock restores the works (the follow ended with the block: their post is on their profile and Explore).
    await page.getByRole('button', { name: 'Unblock' }).click();
    await expect(toast(page, `You unblocked @${artist.username}.`)).toBeVisible();
    await expect(page.getByRole('heading', { name: `You blocked @${artist.username}` })).toHaveCount(0);
    await page.goto('/explore');
    await expect(exploreWork(page, artist.username).first()).toBeVisible();

    // Mute from a post's menu (followed again, so the post is on Home): it leaves Home; Settings lists them.
    await followViaApi(request, viewer, artist);
    await page.goto('/');
    const card = homeCard(page, content);
    await card.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: `Mute @${artist.username}` }).click();
    await expect(toast(page, `You muted @${artist.username}.`)).toBeVisible();
    await expect(card).toHaveCount(0);
    await page.goto('/settings/privacy');
    const muted = page.getByRole('region', { name: 'Muted accounts' });
    await muted.getByRole('button', { name: `Unmute @${artist.username}` }).click();
    await expect(toast(page, `You unmuted @${artist.username}.`)).toBeVisible();
    await expect(muted.getByText('You have not muted anyone.')).toBeVisible();
  });
});
