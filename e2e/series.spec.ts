// Series (issue 41): an artist gathers works into a series, orders them by keyboard, and readers page through
// them: the series page (signed out too, with its Atom feed), and the previous and next work on a work's page.
// At a phone's width in the light theme and a wide screen's in the dark one.
import { expect, test, type Page } from '@playwright/test';
import { createTextPost, createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

/** On a work's page, its author adds it to `title` (and a chapter) with the "Add to series" dialog. */
async function addToSeries(page: Page, postId: string, title: string, chapter?: string): Promise<void> {
  await page.goto(`/posts/${postId}`);
  await page.getByRole('button', { name: 'Add to series', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to series' });
  await dialog.getByRole('radio', { name: new RegExp(`^${title}`) }).check();
  if (chapter) await dialog.getByRole('textbox', { name: 'Chapter (optional)' }).fill(chapter);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: `Series ${title}` })).toBeVisible();
}

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`a series is made, filled, reordered by keyboard and read, on ${name}`, async ({ page, request, browser }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    const artist = await createUser(request);
    const first = await createTextPost(request, artist, 'Moth study one at dusk');
    const second = await createTextPost(request, artist, 'Moth study two at night');
    await useSession(page, artist);

    // The profile offers the owner "New series"; the new series opens on its own page, empty.
    await page.goto(`/${artist.username}`);
    const row = page.getByRole('region', { name: 'Series', exact: true });
    await row.getByRole('button', { name: 'New series' }).focus();
    await page.keyboard.press('Enter');
    const create = page.getByRole('dialog', { name: 'New series' });
    await create.getByRole('textbox', { name: 'Title' }).fill('Moth diaries');
    await create.getByRole('textbox', { name: 'Description (optional)' }).fill('Night studies, one a week.');
    await create.getByRole('button', { name: 'Create series' }).click();
    await expect(page).toHaveURL(new RegExp(`/${artist.username}/series/moth-diaries$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Moth diaries' })).toBeVisible();
    await expect(page.getByText('This series has no works yet.')).toBeVisible();

    // Two works go in, the first opening a chapter.
    await addToSeries(page, first._id, 'Moth diaries', 'Spring');
    await addToSeries(page, second._id, 'Moth diaries');

    await page.goto(`/${artist.username}/series/moth-diaries`);
    await expect(page.getByText('2 works')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Spring' })).toBeVisible();
    const works = page.getByRole('grid').getByRole('link');
    await expect(works).toHaveCount(2);
    await expect(works.nth(0)).toHaveAccessibleName(/^Moth study one at dusk/);
    await expect(works.nth(1)).toHaveAccessibleName(/^Moth study two at night/);
    await expectNoAxeViolations(page);

    // Reorder by keyboard: the second work's handle, Alt+↑; the move is announced and focus stays on it.
    await page.getByRole('button', { name: 'Reorder', exact: true }).click();
    const handle = page.getByRole('button', { name: /^Moth study two at night, place 2 of 2$/ });
    await handle.focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(page.getByRole('status').filter({ hasText: 'moved to place' })).toHaveText(
      'Moth study two at night moved to place 1 of 2.',
    );
    await expect(page.getByRole('button', { name: /^Moth study two at night, place 1 of 2$/ })).toBeFocused();
    // The Move buttons say the same: the first cannot go earlier.
    await expect(page.getByRole('button', { name: 'Move “Moth study two at night” earlier' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Done reordering' }).click();
    // The grid reads the order back from the server: the move was saved.
    await expect(works.nth(0)).toHaveAccessibleName(/^Moth study two at night/);
    await expect(works.nth(1)).toHaveAccessibleName(/^Moth study one at dusk/);

    // A visitor who is not signed in reads the series, with its Atom feed in the head and no Follow.
    const visitor = await browser.newPage({ viewport });
    await visitor.goto(`/${artist.username}/series/moth-diaries`);
    await expect(visitor.getByRole('heading', { level: 1, name: 'Moth diaries' })).toBeVisible();
    await expect(visitor.getByText('Night studies, one a week.')).toBeVisible();
    const visitorWorks = visitor.getByRole('grid').getByRole('link');
    await expect(visitorWorks).toHaveCount(2);
    await expect(visitorWorks.nth(0)).toHaveAccessibleName(/^Moth study two at night/);
    await expect(visitor.getByRole('button', { name: 'Follow series' })).toHaveCount(0);
    // In the head the server draws (absolute) and in the app's (React's): each names the series' feed.
    const feeds = visitor.locator('head link[rel="alternate"][type="application/atom+xml"]');
    await expect(feeds.first()).toBeAttached();
    const hrefs = await feeds.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    for (const href of hrefs) {
      expect(href).toMatch(new RegExp(`/api/users/${artist.username}/series/moth-diaries/feed\\.atom$`));
    }

    // A work's page leads to the work before and after it in the series, and to the series.
    await visitor.goto(`/posts/${second._id}`);
    const bar = visitor.getByRole('navigation', { name: 'Series Moth diaries' });
    await expect(bar.getByRole('link', { name: 'Moth diaries', exact: true })).toBeVisible();
    await expect(bar.getByText('First work')).toBeVisible();
    await bar.getByRole('link', { name: 'Next work in Moth diaries' }).click();
    await expect(visitor).toHaveURL(new RegExp(`/posts/${first._id}$`));
    const nextBar = visitor.getByRole('navigation', { name: 'Series Moth diaries' });
    await expect(nextBar.getByText('Last work')).toBeVisible();
    await nextBar.getByRole('link', { name: 'Previous work in Moth diaries' }).click();
    await expect(visitor).toHaveURL(new RegExp(`/posts/${second._id}$`));
    await visitor
      .getByRole('navigation', { name: 'Series Moth diaries' })
      .getByRole('link', { name: 'Moth diaries', exact: true })
      .click();
    await expect(visitor).toHaveURL(new RegExp(`/${artist.username}/series/moth-diaries$`));
    await visitor.close();
  });
}

test('a reader follows a series alone, and its owner is not offered to', async ({ page, request }) => {
  const artist = await createUser(request);
  const created = await request.post('/api/series', {
    headers: { authorization: `Bearer ${artist.token}` },
    data: { title: 'Harbour comic' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const reader = await createUser(request);
  await useSession(page, reader);
  await page.goto(`/${artist.username}/series/harbour-comic`);
  const follow = page.getByRole('button', { name: 'Follow series' });
  await follow.focus();
  await page.keyboard.press('Enter');
  const following = page.getByRole('button', { name: 'Following series' });
  await expect(following).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();
  // Kept by the server: still followed after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Following series' })).toBeVisible();
  // The profile lists it as a card for everyone; the reader gets no "New series" there.
  await page.goto(`/${artist.username}`);
  const row = page.getByRole('region', { name: 'Series', exact: true });
  await expect(row.getByRole('link', { name: /Harbour comic/ })).toBeVisible();
  await expect(row.getByRole('button', { name: 'New series' })).toHaveCount(0);
});
