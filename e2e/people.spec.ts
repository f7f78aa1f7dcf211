// People: profiles, "Who to follow", follow state everywhere at once, Saved and Liked, the profile
// form with its photo, and the header's search. Every test makes its own users through the API.
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  createTextPost,
  createUser,
  expectNoAxeViolations,
  followViaApi,
  mainNav,
  toast,
  useSession,
  useTheme,
} from './support/helpers.ts';
import { say, sayIn, sayNumber, sayPattern } from './support/say.ts';

/** The menu's Profile (the phone bar's narrow word for it). */
const MENU_PROFILE = 'menu item: your own profile, in a narrow bar';

/** A word of letters only no other test uses (search matches words, so no digits). */
function uniqueWord(prefix: string): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let tail = '';
  for (let i = 0; i < 7; i++) tail += letters[Math.floor(Math.random() * letters.length)];
  return `${prefix}${tail}`;
}

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function postCard(page: Page, content: string): Locator {
  return page.getByRole('article').filter({ hasText: content });
}

/** A page's title: its name, in the language, and the app's ("Home | Share Arts"). */
function titleOf(page: string): string {
  return `${say(page)} | Share Arts`;
}

/** "1 follower", "2 followers". */
function followerCount(followers: number): string {
  return say('{followers, plural, one {# follower} other {# followers}}', { followers });
}

/** "1 like" under a post card. */
function likeCount(count: number): string {
  return say('{count, plural, one {{shown} like} other {{shown} likes}}', { count, shown: sayNumber(count) });
}

/** The header's search box. */
function searchBox(page: Page): Locator {
  return page.getByRole('banner').getByRole('combobox', { name: say('Search'), exact: true });
}

/** A small square JPEG, made at test time. */
function portrait(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480">
    <rect width="100%" height="100%" fill="#9db0ff"/><circle cx="240" cy="200" r="110" fill="#d6806a"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Home through the main navigation (the app's own link, as a person would go). */
async function openHome(page: Page) {
  await page.goto('/explore');
  await mainNav(page)
    .getByRole('link', { name: say('Home'), exact: true })
    .click();
  await expect(page).toHaveTitle(titleOf('Home'));
}

test.describe('people', () => {
  test('follow from "Who to follow": their posts appear on Home; unfollow from their profile', async ({
    page,
    request,
  }) => {
    const [viewer, friend, artist] = await Promise.all([
      createUser(request),
      createUser(request),
      createUser(request, { fullname: `Ines ${uniqueWord('Follow')}` }),
    ]);
    const content = uniqueText('Fresh from the studio');
    await createTextPost(request, artist, content);
    // Followed by someone I follow: the artist is a top suggestion for me.
    await followViaApi(request, viewer, friend);
    await followViaApi(request, friend, artist);

    await page.setViewportSize({ width: 1280, height: 900 });
    await useSession(page, viewer);
    await openHome(page);
    await expect(postCard(page, content)).toHaveCount(0);

    const panel = page.getByRole('complementary', { name: say('Who to follow') });
    const suggestion = panel.getByRole('listitem').filter({ hasText: `@${artist.username}` });
    await suggestion.getByRole('button', { name: say('Follow'), exact: true }).click();
    await expect(suggestion.getByRole('button', { name: say('Following'), exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // Home was refreshed: the artist's post is there, and its menu knows I follow them.
    const card = postCard(page, content);
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: say('Post options') }).click();
    await expect(page.getByRole('menuitem', { name: say('Following'), exact: true })).toBeVisible();
    await page.keyboard.press('Escape');

    // The profile agrees, and unfollowing there changes the button and the count.
    await suggestion.getByRole('link', { name: artist.fullname }).click();
    await expect(page).toHaveURL(`/${artist.username}`);
    await expect(page).toHaveTitle(titleOf('Profile'));
    const header = page.getByRole('region', { name: artist.fullname });
    // Followed by the friend and by me.
    await expect(header.getByText(followerCount(2), { exact: true })).toBeVisible();
    const following = header.getByRole('button', { name: say('Following'), exact: true });
    await expect(following).toHaveAttribute('aria-pressed', 'true');
    await following.click();
    await expect(header.getByRole('button', { name: say('Follow'), exact: true })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(header.getByText(followerCount(1), { exact: true })).toBeVisible();
    await page.reload();
    await expect(header.getByText(followerCount(1), { exact: true })).toBeVisible();
  });

  test('the follower count opens the followers, newest first, each leading to their profile', async ({
    page,
    request,
  }) => {
    const [artist, older, newer] = await Promise.all([
      createUser(request),
      createUser(request, { fullname: `Olga ${uniqueWord('Older')}` }),
      createUser(request, { fullname: `Nils ${uniqueWord('Newer')}` }),
    ]);
    await followViaApi(request, older, artist);
    await followViaApi(request, newer, artist);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/${artist.username}`);
    const header = page.getByRole('region', { name: artist.fullname });
    await header.getByRole('button', { name: followerCount(2), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: say('Followers'), exact: true });
    await expect(dialog.getByRole('listitem')).toHaveText([
      new RegExp(`@${newer.username}$`),
      new RegExp(`@${older.username}$`),
    ]);
    await dialog.getByRole('link', { name: older.fullname, exact: true }).click();
    await expect(page).toHaveURL(`/${older.username}`);
    await expect(dialog).toHaveCount(0);
  });

  test('a saved post is under Saved and a liked one under Liked (tabs work with arrow keys)', async ({
    page,
    request,
  }) => {
    const [viewer, author] = await Promise.all([createUser(request), createUser(request)]);
    const saved = uniqueText('Worth keeping');
    const liked = uniqueText('Worth a heart');
    await createTextPost(request, author, saved);
    await createTextPost(request, author, liked);
    await useSession(page, viewer);
    // The author's posts as cards (Explore is a grid of works).
    await page.goto(`/${author.username}?view=list`);

    await postCard(page, saved)
      .getByRole('button', { name: say('Save'), exact: true })
      .click();
    await expect(
      postCard(page, saved).getByRole('button', { name: say('Remove from saved'), exact: true }),
    ).toBeVisible();
    await postCard(page, liked)
      .getByRole('button', { name: say('Like'), exact: true })
      .click();
    await expect(postCard(page, liked).getByText(likeCount(1), { exact: true })).toBeVisible();

    await mainNav(page)
      .getByRole('link', { name: sayIn(MENU_PROFILE, 'Profile'), exact: true })
      .click();
    await expect(page).toHaveURL('/profile');
    const tabs = page.getByRole('tablist', { name: say('Profile sections') });
    await expect(tabs.getByRole('tab')).toHaveText([say('Posts'), say('Liked'), say('Saved'), say('Collections')]);
    await expect(
      page.getByText(say('You have not posted yet. Share your art with Add Post.'), { exact: false }),
    ).toBeVisible();

    await tabs.getByRole('tab', { name: say('Posts'), exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: say('Liked'), exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(tabs.getByRole('tab', { name: say('Liked'), exact: true })).toBeFocused();
    // Liked opens on the grid of works; as a list, the cards (the choice is kept for the next tab).
    await expect(page.getByRole('tabpanel').getByRole('grid').getByRole('link')).toHaveCount(1);
    await page
      .getByRole('group', { name: say('Show posts as') })
      .getByRole('button', { name: say('List'), exact: true })
      .click();
    await expect(page.getByRole('tabpanel').getByRole('article').filter({ hasText: liked })).toBeVisible();
    await expect(postCard(page, saved)).toHaveCount(0);

    await tabs.getByRole('tab', { name: say('Liked'), exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: say('Saved'), exact: true })).toHaveAttribute('aria-selected', 'true');
    const savedCard = page.getByRole('tabpanel').getByRole('article').filter({ hasText: saved });
    await expect(savedCard).toBeVisible();

    // Removing it from saved takes it off the tab the next time it is shown.
    await savedCard.getByRole('button', { name: say('Remove from saved'), exact: true }).click();
    await expect(savedCard.getByRole('button', { name: say('Save'), exact: true })).toBeVisible();
    await tabs.getByRole('tab', { name: say('Posts'), exact: true }).click();
    await tabs.getByRole('tab', { name: say('Saved'), exact: true }).click();
    await expect(
      page.getByText(say('Save posts to find them again here. Use the bookmark on any post.'), { exact: false }),
    ).toBeVisible();

    // Someone else's profile has no Liked or Saved tabs (their public collections, issue 41, are theirs to show).
    await page.goto(`/${author.username}`);
    await expect(page.getByRole('tablist', { name: say('Profile sections') }).getByRole('tab')).toHaveText([
      say('Posts'),
      say('Collections'),
    ]);
  });

  test('Settings: name, bio, link and photo show on the profile and on my post cards; a bad link is refused by the field', async ({
    page,
    request,
  }) => {
    const user = await createUser(request);
    const content = uniqueText('My own work');
    await createTextPost(request, user, content);
    await useSession(page, user);
    await page.goto('/settings');

    const link = page.getByLabel(say('Link'), { exact: true });
    await link.fill('javascript:alert(1)');
    await page.getByRole('button', { name: say('Update Profile') }).click();
    await expect(link).toHaveAttribute('aria-invalid', 'true');
    // The server's words, in the page's language.
    await expect(link).toHaveAccessibleDescription(
      sayPattern('link must start with http:// or https://.', {}, { match: 'start' }),
    );
    await expect(link).toBeFocused();

    const first = uniqueWord('Odile');
    await page.getByLabel(say('First name'), { exact: true }).fill(first);
    await page.getByLabel(say('Last name'), { exact: true }).fill('Marchetti');
    await page.getByLabel(say('Bio'), { exact: true }).fill('Linocuts of harbour birds.');
    // Typed as people do, without the scheme: https:// is added (issue 19).
    await link.fill('example.com/odile');
    await expect(link).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel(say('Profile photo')).setInputFiles({
      name: 'portrait.jpg',
      mimeType: 'image/jpeg',
      buffer: await portrait(),
    });
    await expect(page.getByRole('img', { name: say('Preview of your new profile photo') })).toBeVisible();
    await page.getByRole('button', { name: say('Update Profile') }).click();
    await expect(toast(page, say('User Data Updated Successfully'))).toBeVisible();
    await expect(link).toHaveValue('https://example.com/odile');
    await expect(page.getByRole('button', { name: say('Remove photo') })).toBeVisible();

    await mainNav(page)
      .getByRole('link', { name: sayIn(MENU_PROFILE, 'Profile'), exact: true })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: `${first} Marchetti` })).toBeVisible();
    await expect(page.getByText('Linocuts of harbour birds.')).toBeVisible();
    const profileLink = page.getByRole('link', { name: /example\.com\/odile/ });
    await expect(profileLink).toHaveAttribute('href', 'https://example.com/odile');
    await expect(profileLink).toHaveAttribute('target', '_blank');
    await expect(profileLink).toHaveAttribute('rel', 'noopener noreferrer');

    // The new photo (an uploaded avatar, not the default) is on my post card too (the profile as a list).
    await page
      .getByRole('group', { name: say('Show posts as') })
      .getByRole('button', { name: say('List'), exact: true })
      .click();
    const card = postCard(page, content);
    const cardPhoto = card.locator('header img').first();
    await expect(cardPhoto).toHaveAttribute('src', /\/media\/(?!defaults\/)/);
    const headerPhoto = page
      .getByRole('region', { name: `${first} Marchetti` })
      .locator('img')
      .first();
    expect(await cardPhoto.getAttribute('src')).toBe(await headerPhoto.getAttribute('src'));

    // Remove photo restores the default.
    await page.goto('/settings');
    await page.getByRole('button', { name: say('Remove photo') }).click();
    await page.getByRole('button', { name: say('Update Profile') }).click();
    await expect(toast(page, say('User Data Updated Successfully'))).toBeVisible();
    await expect(page.getByRole('button', { name: say('Remove photo') })).toHaveCount(0);
  });

  test('search by part of a name and open the profile with the keyboard only', async ({ page, request }) => {
    const surname = uniqueWord('Quill');
    const [viewer, artist] = await Promise.all([
      createUser(request),
      createUser(request, { fullname: `Noor ${surname}` }),
    ]);
    await useSession(page, viewer);
    await page.goto('/explore');

    const box = searchBox(page);
    await expect(box).toHaveAttribute('placeholder', say('Search...'));
    await box.focus();
    await page.keyboard.type(surname.slice(0, 9));
    const listbox = page.getByRole('listbox', { name: say('Search results') });
    const option = listbox.getByRole('option').filter({ hasText: `@${artist.username}` });
    await expect(option).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'true');

    await page.keyboard.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? '');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/${artist.username}`);
    await expect(page.getByRole('heading', { level: 1, name: `Noor ${surname}` })).toBeVisible();

    // Escape closes; nothing found says so; Enter with nothing highlighted opens the results page.
    await box.focus();
    await page.keyboard.type('zzqxv');
    const noResults = page
      .getByRole('banner')
      .getByRole('status')
      .filter({ hasText: say('No results for “{q}”', { q: 'zzqxv' }) });
    await expect(noResults).toHaveCount(1);
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Escape');
    await expect(noResults).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(box).toHaveValue('');
    await page.keyboard.type(surname);
    await expect(listbox).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/search?q=${surname}`);
    await expect(page).toHaveTitle(titleOf('Search'));
    const people = page.getByRole('region', { name: say('People'), exact: true });
    await expect(people.getByRole('link', { name: `Noor ${surname}` })).toBeVisible();
    await expect(page.getByRole('region', { name: say('Posts'), exact: true })).toBeVisible();
  });

  test('an unknown username shows "User not found"; app pages are not taken for usernames', async ({
    page,
    request,
  }) => {
    await useSession(page, await createUser(request));
    await page.goto(`/${uniqueWord('nobody')}`);
    await expect(page.getByRole('heading', { level: 1, name: say('User not found') })).toBeVisible();
    await page.getByRole('link', { name: say('Back to Home') }).click();
    await expect(page).toHaveTitle(titleOf('Home'));
    await page.goto('/search');
    await expect(page).toHaveTitle(titleOf('Search'));
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`no axe violations on profile, settings and search results (${theme} theme)`, async ({ page, request }) => {
      // Five pages, each scanned by axe: 27-29 s on a 2-core CI machine, too close to the default 30 s.
      test.setTimeout(60_000);
      const [viewer, author] = await Promise.all([
        createUser(request),
        createUser(request, { fullname: `Axel ${uniqueWord('Axe')}` }),
      ]);
      await createTextPost(request, author, uniqueText('Checked by axe'));
      await useTheme(page, theme);
      await useSession(page, viewer);

      await page.goto(`/${author.username}`);
      await expect(page.getByRole('button', { name: say('Follow'), exact: true })).toBeVisible();
      await expect(page.getByRole('grid').getByRole('link').first()).toBeVisible();
      await expectNoAxeViolations(page);

      await page.goto('/profile');
      await expect(page.getByRole('link', { name: say('Edit Profile') })).toBeVisible();
      await expectNoAxeViolations(page);

      await page.goto('/settings');
      await expect(page.getByLabel(say('Profile photo'))).toBeVisible();
      await expectNoAxeViolations(page);

      await page.goto(`/search?q=${encodeURIComponent(author.fullname.split(' ')[1] ?? '')}`);
      await expect(
        page
          .getByRole('region', { name: say('People'), exact: true })
          .getByRole('listitem')
          .first(),
      ).toBeVisible();
      await expectNoAxeViolations(page);

      // The dropdown open over the page, on this test's artist: every project's run of this test adds an "Axel" to
      // the one database, and with more than five of them the dropdown scrolls (a scrollable region with nothing
      // to focus in it: axe's scrollable-region-focusable, a bug of its own).
      await searchBox(page).fill(author.fullname.split(' ')[1] ?? '');
      await expect(page.getByRole('listbox', { name: say('Search results') })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});
