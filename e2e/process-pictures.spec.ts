// Process pictures (issue 41): an artist posts a work with its sketch and its lines, each described, from the
// composer's folded "Process pictures" section; the work's page shows them as a "Process" strip under the work, in
// order, and each opens the viewer, where the process is a strip of its own to step through. At a phone's width in
// the light theme and a wide screen's in the dark one.
import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { authOf, createUser, expectNoAxeViolations, toast, useSession, useTheme } from './support/helpers.ts';

/** A small PNG of one colour. */
async function png(name: string, colour: string, width = 64, height = 48) {
  const buffer = await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/** The newest work of `username`, as the API answers it. */
async function newestWork(request: APIRequestContext, user: { token: string; username: string }) {
  const response = await request.get(`/api/posts/user/${user.username}`, { headers: authOf(user) });
  expect(response.status()).toBe(200);
  const { posts } = (await response.json()) as {
    posts: { _id: string; media: { alt: string }[]; process: { alt: string }[] }[];
  };
  return posts[0]!;
}

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`a work posted with two process pictures shows them on its page and in the viewer, on ${name}`, async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    const artist = await createUser(request);
    await useSession(page, artist);

    // The composer: the finished picture, the words, then the process pictures, folded away until opened.
    await page.goto('/');
    await page.getByRole('button', { name: 'Add Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Post' });
    await dialog.getByLabel('Add pictures', { exact: true }).setInputFiles(await png('heron.png', '#2b4c7e', 96, 64));
    await dialog.getByLabel('Alt text for picture 1', { exact: true }).fill('A grey heron standing in reeds');
    await dialog.getByLabel('What are you thinking?').fill(`Heron, start to finish ${Date.now().toString(36)}`);

    const addProcess = dialog.getByLabel('Add process pictures');
    await expect(addProcess).toBeHidden();
    await dialog.getByText('Process pictures', { exact: true }).click();
    await addProcess.setInputFiles([await png('sketch.png', '#d9d4c7'), await png('lines.png', '#28231d')]);
    const process = dialog.getByRole('list', { name: /^Process pictures, in order/ });
    await expect(process.getByRole('button', { name: /^Process picture \d of 2: / })).toHaveCount(2);
    await dialog.getByLabel('Alt text for process picture 1', { exact: true }).fill('The first pencil sketch');
    await dialog.getByLabel('Alt text for process picture 2', { exact: true }).fill('The inked lines');
    await expect(dialog.getByText('(2 of 10)')).toBeVisible();
    await expectNoAxeViolations(page);

    // Post waits for the uploads (the alt texts typed meanwhile are saved with it), then publishes.
    await expect(dialog.getByText('Uploaded')).toHaveCount(3, { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toast(page, 'Posted Successfully')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const work = await newestWork(request, artist);
    expect(work.media.map((picture) => picture.alt)).toEqual(['A grey heron standing in reeds']);
    expect(work.process.map((picture) => picture.alt)).toEqual(['The first pencil sketch', 'The inked lines']);

    // The work's page: "Process" under the work, in order.
    await page.goto(`/posts/${work._id}`);
    const strip = page.getByRole('region', { name: 'Process' });
    await expect(strip.getByRole('img')).toHaveCount(2);
    await expect(strip.getByRole('img').nth(0)).toHaveAccessibleName('The first pencil sketch');
    await expect(strip.getByRole('img').nth(1)).toHaveAccessibleName('The inked lines');
    await expectNoAxeViolations(page);

    // The second opens the viewer there; ← steps back through the process, then to the work.
    await strip.getByRole('button').nth(1).click();
    const viewer = page.getByRole('dialog', { name: /^Picture viewer/ });
    await expect(viewer).toHaveAccessibleName('Picture viewer: Process picture 2 of 2');
    await expect(viewer.getByRole('img', { name: 'The inked lines' })).toBeVisible();
    const steps = viewer.getByRole('navigation', { name: 'Process' });
    await expect(steps.getByRole('button')).toHaveCount(2);
    await expect(steps.getByRole('button', { name: /^Process picture 2: / })).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(viewer).toHaveAccessibleName('Picture viewer: Process picture 1 of 2');
    await expect(viewer.getByRole('img', { name: 'The first pencil sketch' })).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(viewer).toHaveAccessibleName('Picture viewer: one picture');
    await expect(viewer.getByRole('img', { name: 'A grey heron standing in reeds' })).toBeVisible();
    // The strip goes straight to a step.
    await steps.getByRole('button', { name: /^Process picture 2: / }).click();
    await expect(viewer.getByRole('img', { name: 'The inked lines' })).toBeVisible();

    // Escape closes it; focus comes back to the process picture it showed.
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(strip.getByRole('button').nth(1)).toBeFocused();
  });
}
