// Open for commissions (issue 42): an artist opens in Settings with kinds of work, slots and prices; a visitor sees
// the panel on the profile and the "Open" badge in search, and narrows the people to artists who are open.
// At a phone's width in the light theme and a wide screen's in the dark one.
import { expect, test } from '@playwright/test';
import { authOf, createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`an artist opens for commissions and a visitor finds them, on ${name}`, async ({ page, request, browser }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    // Two artists named by one word no other test uses: one opens, the other stays closed.
    const word = `Quill${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
    const artist = await createUser(request, { fullname: `${word} Okafor` });
    const closed = await createUser(request, { fullname: `${word} Moreau` });
    const saved = await request.put('/api/commissions', { headers: authOf(closed), data: { open: false } });
    expect(saved.status(), await saved.text()).toBe(200);

    // The artist opens in Settings: kinds of work, slots, a price range.
    await useSession(page, artist);
    await page.goto('/settings');
    const card = page.getByRole('region', { name: 'Open for commissions' });
    await expect(card).toBeVisible();
    await card.getByRole('checkbox', { name: 'I am open for commissions' }).check();
    await card.getByRole('checkbox', { name: 'Portrait', exact: true }).check();
    await card.getByRole('checkbox', { name: 'Character design', exact: true }).check();
    await card.getByLabel('Slots offered').fill('5');
    await card.getByLabel('Slots taken').fill('3');
    await card.getByLabel('Currency', { exact: true }).selectOption('EUR');
    await card.getByLabel('Lowest price').fill('40');
    await card.getByLabel('Highest price').fill('250');
    await card.getByLabel('Languages you work in').fill('en, pt-br');
    await card.getByRole('button', { name: 'Save commission panel' }).click();
    await expect(page.getByText('You are open for commissions.')).toBeVisible();
    await expectNoAxeViolations(page);

    // A visitor (signed out) sees the panel on the profile.
    const visitor = await (await browser.newContext({ viewport })).newPage();
    await useTheme(visitor, theme);
    await visitor.goto(`/${artist.username}`);
    const panel = visitor.getByRole('region', { name: 'Open for commissions' });
    await expect(panel).toBeVisible();
    await expect(panel.getByText('3 of 5 taken')).toBeVisible();
    await expect(panel.getByText('Character design')).toBeVisible();
    await expect(panel.getByText('Portrait')).toBeVisible();
    await expect(panel.getByText('€40–€250')).toBeVisible();
    await expect(panel.getByText('English, Brazilian Portuguese')).toBeVisible();
    await expectNoAxeViolations(visitor);

    // In search (for signed-in people), the open artist carries the badge; the filter leaves the closed one out.
    await useSession(visitor, await createUser(request));
    await visitor.goto(`/search?q=${encodeURIComponent(word)}`);
    const people = visitor.getByRole('region', { name: 'People' });
    await expect(people.getByRole('link', { name: `${word} Okafor` })).toBeVisible();
    await expect(people.getByRole('link', { name: `${word} Moreau` })).toBeVisible();
    const openRow = people.getByRole('listitem').filter({ hasText: `${word} Okafor` });
    await expect(openRow.getByText('Open', { exact: true })).toBeVisible();
    const closedRow = people.getByRole('listitem').filter({ hasText: `${word} Moreau` });
    await expect(closedRow.getByText('Open', { exact: true })).toHaveCount(0);

    const filter = visitor.getByRole('form', { name: 'People: open for commissions' });
    await filter.getByRole('checkbox', { name: 'Open for commissions' }).check();
    await filter.getByLabel('Kind of work').selectOption('portrait');
    await filter.getByRole('button', { name: 'Apply' }).click();
    await expect(visitor).toHaveURL(/open=true/);
    await expect(people.getByRole('link', { name: `${word} Okafor` })).toBeVisible();
    await expect(people.getByRole('link', { name: `${word} Moreau` })).toHaveCount(0);
    await expectNoAxeViolations(visitor);
    await visitor.close();
  });
}
