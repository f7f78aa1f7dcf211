// Collections (issue 41): someone gathers another artist's works into a collection of their own, with a note, orders
// them by keyboard, and shares it: the public page opens signed out; a private collection is not found by anyone
// else. At a phone's width in the light theme and a wide screen's in the dark one.
import { expect, test } from '@playwright/test';
import { authOf, createTextPost, createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`a collection is made, filled with a note, reordered by keyboard and shared, on ${name}`, async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    const artist = await createUser(request);
    const collector = await createUser(request);
    const first = await createTextPost(request, artist, 'Gesture study of hands at dusk');
    const second = await createTextPost(request, artist, 'Foreshortened feet in charcoal');
    await useSession(page, collector);

    // The profile's Collections tab offers "New collection"; a public one opens on its own page, empty.
    await page.goto(`/${collector.username}?tab=collections`);
    await page.getByRole('button', { name: 'New collection' }).click();
    const create = page.getByRole('dialog', { name: 'New collection' });
    await create.getByRole('textbox', { name: 'Title' }).fill('Figure references');
    await create.getByRole('radio', { name: /^Public/ }).check();
    await create.getByRole('button', { name: 'Create collection' }).click();
    await expect(page).toHaveURL(new RegExp(`/${collector.username}/collections/figure-references$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Figure references' })).toBeVisible();
    await expect(page.getByText('Nothing here yet.', { exact: false })).toBeVisible();

    // Someone else's work goes in from its page: "Save to…" beside the bookmark, with a note.
    await page.goto(`/posts/${first._id}`);
    await page.getByRole('button', { name: 'Save to…' }).click();
    const saveTo = page.getByRole('dialog', { name: 'Save to…' });
    await saveTo.getByRole('textbox', { name: 'Note (optional)' }).fill('The thumb’s foreshortening.');
    await saveTo.getByRole('checkbox', { name: /^Figure references/ }).check();
    await expect(saveTo.getByRole('checkbox', { name: /^Figure references/ })).toBeChecked();
    await expect(page.getByText('Added to Figure references')).toBeVisible();
    await saveTo.getByRole('button', { name: 'Done' }).click();
    await expect(saveTo).toHaveCount(0);

    // The second through the API, as another client would.
    const collections = await request.get(`/api/users/${collector.username}/collections`, {
      headers: authOf(collector),
    });
    const board = ((await collections.json()) as { collections: { _id: string; slug: string }[] }).collections.find(
      (collection) => collection.slug === 'figure-references',
    )!;
    const added = await request.post(`/api/collections/${board._id}/works`, {
      headers: authOf(collector),
      data: { postId: second._id },
    });
    expect(added.status(), await added.text()).toBe(201);

    await page.goto(`/${collector.username}/collections/figure-references`);
    const works = page.getByRole('list', { name: 'Works in Figure references' }).getByRole('listitem');
    await expect(works).toHaveCount(2);
    await expect(works.nth(0)).toContainText('Gesture study of hands at dusk');
    await expect(works.nth(0)).toContainText('The thumb’s foreshortening.');
    await expectNoAxeViolations(page);

    // Reorder by keyboard: the second work's handle, Alt+↑; the move is announced and focus stays on it.
    await page.getByRole('button', { name: 'Reorder', exact: true }).click();
    const handle = page.getByRole('button', { name: /^Foreshortened feet in charcoal, place 2 of 2$/ });
    await handle.focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(page.getByRole('status').filter({ hasText: 'moved to place' })).toHaveText(
      'Foreshortened feet in charcoal moved to place 1 of 2.',
    );
    await expect(page.getByRole('button', { name: /^Foreshortened feet in charcoal, place 1 of 2$/ })).toBeFocused();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Done reordering' }).click();
    // Read back from the server: the move was saved.
    await expect(works.nth(0)).toContainText('Foreshortened feet in charcoal');
    await expect(works.nth(1)).toContainText('Gesture study of hands at dusk');

    // A visitor who is not signed in opens the public page, notes and all.
    const visitor = await browser.newPage({ viewport });
    await visitor.goto(`/${collector.username}/collections/figure-references`);
    await expect(visitor.getByRole('heading', { level: 1, name: 'Figure references' })).toBeVisible();
    const visitorWorks = visitor.getByRole('list', { name: 'Works in Figure references' }).getByRole('listitem');
    await expect(visitorWorks).toHaveCount(2);
    await expect(visitorWorks.nth(0)).toContainText('Foreshortened feet in charcoal');
    await expect(visitor.getByText('The thumb’s foreshortening.')).toBeVisible();
    await visitor.close();
  });
}

test('a private collection is found by its owner alone', async ({ page, request, browser }) => {
  const owner = await createUser(request);
  const made = await request.post('/api/collections', {
    headers: authOf(owner),
    data: { title: 'Secret moodboard' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const address = `/${owner.username}/collections/secret-moodboard`;

  await useSession(page, owner);
  await page.goto(address);
  await expect(page.getByRole('heading', { level: 1, name: 'Secret moodboard' })).toBeVisible();
  await expect(page.getByText('Private collection')).toBeVisible();

  const someone = await createUser(request);
  const other = await browser.newPage();
  await useSession(other, someone);
  await other.goto(address);
  await expect(other.getByRole('heading', { name: 'Collection not found' })).toBeVisible();
  await other.close();

  const visitor = await browser.newPage();
  const response = await visitor.goto(address);
  expect(response?.status()).toBe(404);
  await expect(visitor.getByRole('heading', { name: 'Collection not found' })).toBeVisible();
  await visitor.close();
});
