// Insights (issue 42): an artist's work is seen by another account and by a signed-out visitor; the artist's own
// insights count 2 views (written by the server's next batch, within 10 s), and the charts read as a table.
// At a phone's width in the light theme and a wide screen's in the dark one.
import { expect, test, type Page } from '@playwright/test';
import { createTextPost, createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

/** The figure under a total's label (the totals are a description list). */
const total = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`an artist sees how many saw their work, on ${name}`, async ({ page, request, browser }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    const artist = await createUser(request);
    const reader = await createUser(request);
    const work = await createTextPost(request, artist, 'Herons over the estuary at low tide');

    // Another account, then a visitor who is not signed in, open the work's page (each counts once).
    const readerPage = await (await browser.newContext({ viewport })).newPage();
    await useSession(readerPage, reader);
    // Each page reports its view once it is shown (a beacon): waited for before the page closes.
    const readerBeacon = readerPage.waitForResponse((response) => response.url().endsWith('/api/views'));
    await readerPage.goto(`/posts/${work._id}`);
    await readerBeacon;
    await expect(readerPage.getByText('Herons over the estuary at low tide')).toBeVisible();
    await readerPage.reload();
    await expect(readerPage.getByText('Herons over the estuary at low tide')).toBeVisible();
    await readerPage.close();
    const visitor = await (await browser.newContext({ viewport })).newPage();
    const visitorBeacon = visitor.waitForResponse((response) => response.url().endsWith('/api/views'));
    await visitor.goto(`/posts/${work._id}`);
    await expect(visitor.getByText('Herons over the estuary at low tide')).toBeVisible();
    await visitorBeacon;
    await visitor.close();

    // The artist's own visit does not count; their work's page leads to its insights.
    await useSession(page, artist);
    await page.goto(`/posts/${work._id}`);
    await page.getByRole('main').getByRole('link', { name: 'Insights', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Work insights' })).toBeVisible();
    // The views arrive with the server's next batch (every 10 s).
    await expect(async () => {
      await page.reload();
      await expect(total(page, 'Views')).toHaveText('2', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });

    // The chart's numbers, as a table: today's row says 2 views.
    await page.getByRole('button', { name: 'Show as a table' }).click();
    const table = page.getByRole('table', { name: 'Per day, the last 30 days (UTC)' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Views' })).toBeVisible();
    await expect(table.getByRole('row').last().getByRole('cell').first()).toHaveText('2');
    await expect(page.getByRole('table', { name: 'Where its views came from' })).toContainText('Direct or unknown');
    await page.getByRole('button', { name: '7 days' }).click();
    await expect(page.getByRole('table', { name: 'Per day, the last 7 days (UTC)' })).toBeVisible();
    await expectNoAxeViolations(page);

    // The artist's insights page: their works' views, and the work among those seen most.
    await page.getByRole('link', { name: 'All insights' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();
    await expect(total(page, 'Views of works')).toHaveText('2');
    await expect(page.getByRole('link', { name: /Herons over the estuary at low tide/ })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}
