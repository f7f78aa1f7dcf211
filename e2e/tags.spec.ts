import { expect, test, type Page } from '@playwright/test';
import {
  createTextPost,
  createUser,
  expectNoAxeViolations,
  followViaApi,
  logIn,
  useSession,
  useTheme,
} from './support/helpers.ts';

/** A tag no other test (or earlier run against the same database) uses, in the letter case it is written. */
function uniqueTag(stem: string): string {
  return `${stem}_${Date.now().toString(36)}${Math.floor(Math.random() * 46656).toString(36)}`;
}

function tagHeading(page: Page, tag: string) {
  return page.getByRole('heading', { level: 1, name: `#${tag}`, exact: true });
}

test.describe('tags', () => {
  test('a #tag in a post is a link to its page: heading, count, the works as a grid, the sort; axe in both themes', async ({
    page,
    request,
  }) => {
    const written = uniqueTag('Dusk');
    const tag = written.toLowerCase();
    const artist = await createUser(request, { fullname: 'Tala Painter' });
    const post = await createTextPost(request, artist, `Evening study #${written}, in oils`);
    const other = await createTextPost(request, artist, `Morning study #${written}`);
    const viewer = await createUser(request);
    await useSession(page, viewer);

    await page.goto(`/posts/${post._id}`);
    const card = page.getByRole('article', { name: `Post by ${artist.username}` });
    const link = card.getByRole('link', { name: `#${written}`, exact: true });
    await expect(link).toHaveAttribute('href', `/tags/${tag}`);
    await link.click();

    await expect(page).toHaveURL(`/tags/${tag}`);
    await expect(tagHeading(page, tag)).toBeVisible();
    await expect(page).toHaveTitle(`#${tag} | Share Arts`);
    await expect(page.getByText('2 posts', { exact: true })).toBeVisible();
    const grid = page.getByRole('grid', { name: `Works tagged #${tag}` });
    const works = grid.getByRole('link');
    await expect(works).toHaveCount(2);
    // Newest first, then Oldest First puts the first post first.
    await expect(works.first()).toHaveAttribute('href', `/posts/${other._id}`);
    await page.getByRole('combobox', { name: 'Sort posts' }).selectOption('oldest');
    await expect(page).toHaveURL(`/tags/${tag}?sort=oldest`);
    await expect(works.first()).toHaveAttribute('href', `/posts/${post._id}`);
    await expect(page.getByRole('button', { name: 'Follow', exact: true, pressed: false })).toBeVisible();
    await expectNoAxeViolations(page);

    // The same page in the dark theme, on a phone.
    await useTheme(page, 'dark');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/tags/${tag.toUpperCase()}`);
    // Any letter case is the one page, in lower case.
    await expect(page).toHaveURL(`/tags/${tag}`);
    await expect(tagHeading(page, tag)).toBeVisible();
    await expect(page.getByRole('grid', { name: `Works tagged #${tag}` }).getByRole('link')).toHaveCount(2);
    await expectNoAxeViolations(page);
  });

  test('the header search suggests tags with their count; Enter on one opens its page', async ({ page, request }) => {
    const tag = uniqueTag('charcoal').toLowerCase();
    const artist = await createUser(request);
    await createTextPost(request, artist, `Quick sketch #${tag}`);
    const viewer = await createUser(request);
    await useSession(page, viewer);
    await page.goto('/explore');
    const search = page.getByRole('combobox', { name: 'Search' });
    await search.fill(`#${tag}`);
    const option = page
      .getByRole('listbox', { name: 'Search results' })
      .getByRole('group', { name: 'Tags' })
      .getByRole('option')
      .filter({ hasText: `#${tag}` });
    await expect(option).toContainText('1 post');
    // People come first, then tags: ↓ until the tag is highlighted.
    for (let step = 0; step < 8 && (await option.getAttribute('aria-selected')) !== 'true'; step += 1) {
      await search.press('ArrowDown');
    }
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await search.press('Enter');
    await expect(page).toHaveURL(`/tags/${tag}`);
    await expect(tagHeading(page, tag)).toBeVisible();
  });

  test('a tag nobody used yet has an empty page; an address that cannot be a tag is not found', async ({
    page,
    request,
  }) => {
    const viewer = await createUser(request);
    await useSession(page, viewer);
    const tag = uniqueTag('unused').toLowerCase();
    await page.goto(`/tags/${tag}`);
    await expect(tagHeading(page, tag)).toBeVisible();
    await expect(page.getByText('0 posts', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: `No works with #${tag} yet` })).toBeVisible();

    await page.goto('/tags/not-a-tag');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });

  test('a visitor reads a shared tag page; Follow asks them to sign in and brings them back', async ({
    page,
    request,
  }) => {
    const tag = uniqueTag('shared').toLowerCase();
    const artist = await createUser(request);
    await createTextPost(request, artist, `Open to all #${tag}`);
    await page.goto(`/tags/${tag}`);
    await expect(tagHeading(page, tag)).toBeVisible();
    await expect(page.getByRole('grid', { name: `Works tagged #${tag}` }).getByRole('link')).toHaveCount(1);
    await page.getByRole('button', { name: 'Follow', exact: true, pressed: false }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/tags/${tag}`)}`);
    await logIn(page, artist);
    await expect(page).toHaveURL(`/tags/${tag}`);
    await expect(page.getByRole('button', { name: 'Follow', exact: true, pressed: false })).toBeVisible();
  });

  test('following a tag brings its posts to Home, by someone not followed, with "Because you follow #tag"', async ({
    page,
    request,
  }) => {
    const tag = uniqueTag('ink').toLowerCase();
    const viewer = await createUser(request, { fullname: 'Vera Viewer' });
    const friend = await createUser(request, { fullname: 'Finn Friend' });
    const stranger = await createUser(request, { fullname: 'Sami Stranger' });
    await followViaApi(request, viewer, friend);
    await useSession(page, viewer);

    // By keyboard: the Follow button is a toggle.
    await page.goto(`/tags/${tag}`);
    const follow = page.getByRole('button', { name: 'Follow', exact: true, pressed: false });
    await follow.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Following', exact: true, pressed: true })).toBeVisible();
    // The server holds it: a fresh page still says Following.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Following', exact: true, pressed: true })).toBeVisible();

    const tagged = `Brush and ink #${tag}`;
    await createTextPost(request, stranger, tagged);
    await createTextPost(request, stranger, 'Nothing to do with it');
    const fromFriend = `A friend's sketch #${tag}`;
    await createTextPost(request, friend, fromFriend);

    await page.goto('/');
    const card = page.getByRole('article', { name: `Post by ${stranger.username}` });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(tagged);
    await expect(card).toContainText(`Because you follow #${tag}`);
    // A friend's post is there because of the friend: no reason line.
    const friendCard = page.getByRole('article', { name: `Post by ${friend.username}` });
    await expect(friendCard).toContainText(fromFriend);
    await expect(friendCard).not.toContainText('Because you follow');
    await expectNoAxeViolations(page);

    // The line links to the tag's page.
    await card
      .getByText(`Because you follow #${tag}`)
      .getByRole('link', { name: `#${tag}` })
      .click();
    await expect(page).toHaveURL(`/tags/${tag}`);

    // Unfollowed, the stranger's post leaves Home.
    await page.getByRole('button', { name: 'Following', exact: true, pressed: true }).click();
    await expect(page.getByRole('button', { name: 'Follow', exact: true, pressed: false })).toBeVisible();
    await page.goto('/');
    await expect(page.getByRole('article', { name: `Post by ${friend.username}` })).toBeVisible();
    await expect(page.getByRole('article', { name: `Post by ${stranger.username}` })).toHaveCount(0);
  });

  test('the composer suggests tags after #, by keyboard and by mouse, and puts them in at the caret', async ({
    page,
    request,
  }) => {
    const tag = uniqueTag('gouache').toLowerCase();
    const artist = await createUser(request);
    await createTextPost(request, artist, `Swatches #${tag}`);
    const writer = await createUser(request);
    await useSession(page, writer);
    await page.goto('/');
    await page.getByRole('button', { name: 'Add Post' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Post' });
    const text = dialog.getByRole('textbox', { name: 'What are you thinking?' });
    await text.click();
    await text.pressSequentially(`Still life #${tag.slice(0, 9)}`);

    const list = dialog.getByRole('listbox', { name: 'Tags' });
    const option = list.getByRole('option').filter({ hasText: `#${tag}` });
    await expect(option).toBeVisible();
    await expect(option).toContainText('1 post');
    // A text box with a list (not a combobox, which a textarea may not be): the status says what is offered.
    await expect(dialog.getByRole('status').filter({ hasText: 'suggested' })).toHaveText(/^\d+ tags? suggested\./);
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(text).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? '');
    await expectNoAxeViolations(page);

    await page.keyboard.press('Enter');
    await expect(text).toHaveValue(`Still life #${tag} `);
    await expect(list).toBeHidden();
    await expect(text).not.toHaveAttribute('aria-activedescendant');

    // Escape closes the list and leaves the text (and the dialog) as they are.
    await text.pressSequentially(`and #${tag.slice(0, 9)}`);
    await expect(option).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(text).toHaveValue(`Still life #${tag} and #${tag.slice(0, 9)}`);

    // In the middle of the text, a click on a suggestion replaces the word at the caret.
    await text.fill(`#${tag.slice(0, 9)} in the middle`);
    await text.press('Control+Home');
    for (let i = 0; i < 4; i += 1) await text.press('ArrowRight');
    await option.click();
    await expect(text).toHaveValue(`#${tag} in the middle`);
    await expect(text).toBeFocused();
  });
});
