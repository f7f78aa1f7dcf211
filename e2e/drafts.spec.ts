// Drafts and scheduled posts (issue 41): what the composer holds is kept on the server as the artist works, so a
// reload loses nothing; the draft is resumed from the drafts page, scheduled in the artist's own time zone (named),
// listed with that time, and its schedule cancelled. At a phone's width in the light theme and a wide screen's in
// the dark one.
import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { authOf, createUser, expectNoAxeViolations, toast, useSession, useTheme } from './support/helpers.ts';

// The browser's zone is the artist's: the times are shown in it, named.
test.use({ timezoneId: 'Europe/Paris' });

const smallPicture = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#6a9a5a' } })
    .png()
    .toBuffer();

/** GET /api/drafts's entries, as far as the spec reads them (the contract's DraftSummary). */
interface DraftSummary {
  excerpt: string;
  pictureCount: number;
}

async function draftsOf(request: APIRequestContext, user: { token: string }): Promise<DraftSummary[]> {
  const response = await request.get('/api/drafts', { headers: authOf(user) });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { drafts: DraftSummary[] }).drafts;
}

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`a draft survives a reload, is scheduled in its zone and cancelled, on ${name}`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    const artist = await createUser(request);
    await useSession(page, artist);
    const words = `Half a moth, ${Date.now().toString(36)}`;

    // Type and add a picture: the draft is saved as the artist works.
    await page.goto('/');
    await page.getByRole('button', { name: 'Add Post' }).click();
    const composer = page.getByRole('dialog', { name: 'Add Post' });
    await composer.getByLabel('What are you thinking?').fill(words);
    await composer.getByLabel('Add pictures').setInputFiles({
      name: 'moth.png',
      mimeType: 'image/png',
      buffer: await smallPicture(),
    });
    await expect(composer.getByText('Uploaded')).toBeVisible({ timeout: 30_000 });
    await expect(composer.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible({ timeout: 15_000 });
    await expect
      .poll(async () => (await draftsOf(request, artist)).map((draft) => [draft.excerpt, draft.pictureCount]), {
        timeout: 15_000,
      })
      .toEqual([[words, 1]]);

    // A reload (or another device): the draft is there, and resumes with its words and picture.
    await page.reload();
    await page.goto('/drafts');
    await expect(page.getByRole('heading', { level: 1, name: 'Drafts' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Your drafts' });
    const item = list.getByRole('listitem').filter({ hasText: words });
    await expect(item).toBeVisible();
    await expectNoAxeViolations(page);
    await item.getByRole('button', { name: `Resume: ${words}` }).click();
    const resumed = page.getByRole('dialog', { name: 'Add Post' });
    await expect(resumed.getByLabel('What are you thinking?')).toHaveValue(words);
    await expect(resumed.getByRole('button', { name: /^Picture 1 of 1/ })).toBeVisible();

    // Schedule it for tomorrow at 09:00, in the artist's zone, which the dialog names.
    await resumed.getByRole('button', { name: 'Schedule', exact: true }).click();
    const schedule = page.getByRole('dialog', { name: 'Schedule this post' });
    await expect(schedule.getByText('Time zone: Europe/Paris')).toBeVisible();
    const tomorrow = await page.evaluate(() => {
      const date = new Date();
      date.setDate(date.getDate() + 1);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T09:00`;
    });
    await schedule.getByLabel('Publish on').fill(tomorrow);
    await schedule.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(toast(page, 'Scheduled: publishes')).toBeVisible();
    await expect(resumed).toHaveCount(0);

    // Listed with its time and zone; then the schedule is cancelled and it stays a draft.
    const when = item.getByText(/^Publishes \w{3} \d{1,2} \w{3}( \d{4})?, 09:00 \(Europe\/Paris\)$/);
    await expect(when).toBeVisible();
    await item.getByRole('button', { name: 'Cancel schedule' }).click();
    await expect(toast(page, 'Schedule cancelled')).toBeVisible();
    await expect(when).toHaveCount(0);
    await expect(item).toBeVisible();
  });
}
