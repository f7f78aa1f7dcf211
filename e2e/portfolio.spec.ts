// The portfolio (issue 22): a profile opens on a grid of works, navigable by keyboard; a grid/list toggle
// kept in the URL; pinned works first; the artist's Atom feed linked from the profile's head.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { createUser, expectNoAxeViolations, useSession, useTheme, type CreatedUser } from './support/helpers.ts';

/** Posts `count` works through the API, oldest first; answers their ids in that order. */
async function postWorks(request: APIRequestContext, artist: CreatedUser, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const response = await request.post('/api/posts', {
      data: { content: `Study ${i} of the harbour at dusk` },
      headers: { authorization: `Bearer ${artist.token}`, prefer: 'return=minimal' },
    });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { post: { _id: string } }).post._id);
  }
  return ids;
}

test.describe('portfolio', () => {
  test('the profile grid is one Tab stop; the arrows move between works and Enter opens one', async ({
    page,
    request,
  }) => {
    const artist = await createUser(request);
    const ids = await postWorks(request, artist, 5);
    const visitor = await createUser(request);
    await useSession(page, visitor);
    await page.goto(`/${artist.username}`);

    const grid = page.getByRole('grid', { name: `Posts by @${artist.username}` });
    const works = grid.getByRole('link');
    await expect(works).toHaveCount(5);
    // Newest first; each work is named by its first words, author and counts.
    await expect(works.first()).toHaveAccessibleName(
      `Study 5 of the harbour at dusk, by @${artist.username}, 0 likes, 0 comments`,
    );

    // Tab reaches the grid once, on its first work.
    await page.getByRole('tab', { name: 'Posts' }).focus();
    await page.keyboard.press('Tab');
    await expect(works.first()).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(works.nth(2)).toBeFocused();
    await expect(works.nth(2)).toHaveAttribute('tabindex', '0');
    await expect(works.first()).toHaveAttribute('tabindex', '-1');
    await page.keyboard.press('ArrowLeft');
    await expect(works.nth(1)).toBeFocused();
    await page.keyboard.press('Control+End');
    await expect(works.last()).toBeFocused();
    await page.keyboard.press('Control+Home');
    await expect(works.first()).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // The focused work shows its counts; the page stays free of WCAG A/AA violations.
    await expect(works.nth(2).getByText('0', { exact: true }).first()).toBeVisible();
    await expectNoAxeViolations(page);

    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/posts/${ids[2]}$`));
    await expect(page.getByText('Study 3 of the harbour at dusk')).toBeVisible();
  });

  test('the grid/list toggle switches the view and keeps it in the URL', async ({ page, request }) => {
    const artist = await createUser(request);
    await postWorks(request, artist, 2);
    await useSession(page, artist);
    await page.goto(`/${artist.username}`);

    const toggle = page.getByRole('group', { name: 'Show posts as' });
    await expect(toggle.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('grid', { name: `Posts by @${artist.username}` })).toBeVisible();

    await toggle.getByRole('button', { name: 'List' }).click();
    await expect(page).toHaveURL(/[?&]view=list/);
    await expect(page.getByRole('feed', { name: `Posts by @${artist.username}` })).toBeVisible();
    await expect(page.getByRole('grid')).toHaveCount(0);

    // The view survives a reload, and the other tabs use it too.
    await page.reload();
    await expect(page.getByRole('feed', { name: `Posts by @${artist.username}` })).toBeVisible();
    await page.getByRole('tab', { name: 'Liked' }).click();
    await expect(page).toHaveURL(/view=list/);

    await toggle.getByRole('button', { name: 'Grid' }).click();
    await expect(page).not.toHaveURL(/view=/);
    await page.getByRole('tab', { name: 'Posts' }).click();
    await expect(page.getByRole('grid', { name: `Posts by @${artist.username}` })).toBeVisible();
  });

  test('a pinned work comes first, marked, and is not repeated below, in the grid and in the list', async ({
    page,
    request,
  }) => {
    const artist = await createUser(request);
    await postWorks(request, artist, 3);
    await useTheme(page, 'dark');
    await useSession(page, artist);
    await page.goto(`/${artist.username}?view=list`);

    // Pin the oldest work from its card's menu.
    const oldest = page.getByRole('article').filter({ hasText: 'Study 1 of the harbour at dusk' });
    await oldest.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Pin to profile' }).click();
    await expect(page.getByText('Pinned to your profile')).toBeVisible();

    await page.getByRole('group', { name: 'Show posts as' }).getByRole('button', { name: 'Grid' }).click();
    const works = page.getByRole('grid', { name: `Posts by @${artist.username}` }).getByRole('link');
    await expect(works).toHaveCount(3);
    await expect(works.first()).toHaveAccessibleName(/^Study 1 of the harbour at dusk, .*, pinned$/);
    await expect(works.nth(1)).toHaveAccessibleName(/^Study 3 /);
    await expect(works.first().getByText('Pinned')).toBeVisible();
    await page.getByText('Arrange pinned works (1)').click();
    await expect(page.getByRole('button', { name: 'Unpin “Study 1 of the harbour at dusk”' })).toBeVisible();
    await expectNoAxeViolations(page);

    // The list of cards puts it first too, marked, and only once; its menu now offers to unpin it.
    await page.goto(`/${artist.username}?view=list`);
    const cards = page.getByRole('feed', { name: `Posts by @${artist.username}` }).getByRole('article');
    await expect(cards).toHaveCount(3);
    await expect(cards.first()).toContainText('Study 1 of the harbour at dusk');
    await expect(cards.first().getByText('Pinned', { exact: true })).toBeVisible();
    await expect(cards.nth(1)).toContainText('Study 3 ');
    await expect(cards.nth(1).getByText('Pinned', { exact: true })).toHaveCount(0);
    await oldest.getByRole('button', { name: 'Post options' }).click();
    await expect(page.getByRole('menuitem', { name: 'Unpin from profile' })).toBeVisible();
  });

  test("the profile's head links the artist's Atom feed, which is well-formed XML", async ({ page, request }) => {
    const artist = await createUser(request);
    await postWorks(request, artist, 2);
    await useSession(page, artist);
    await page.goto(`/${artist.username}`);
    const link = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
    await expect(link).toHaveAttribute('href', `/api/users/${artist.username}/feed.atom`);

    const parsed = await page.evaluate(async (href) => {
      const response = await fetch(href);
      const xml = new DOMParser().parseFromString(await response.text(), 'application/xml');
      return {
        type: response.headers.get('content-type'),
        error: xml.querySelector('parsererror')?.textContent ?? null,
        root: xml.documentElement.namespaceURI,
        titles: Array.from(xml.querySelectorAll('entry > title'), (title) => title.textContent),
      };
    }, `/api/users/${artist.username}/feed.atom`);
    expect(parsed).toEqual({
      type: 'application/atom+xml; charset=utf-8',
      error: null,
      root: 'http://www.w3.org/2005/Atom',
      titles: ['Study 2 of the harbour at dusk', 'Study 1 of the harbour at dusk'],
    });
  });
});
