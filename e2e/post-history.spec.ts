// Fixing a published work (issue 41): the artist edits a work's words and replaces its picture; the work says
// "edited" beside its time, and "edited" opens its history, newest first, with the earlier picture as a thumbnail
// for the artist alone. Signed out, the history shows the words' change and no earlier picture. At a phone's width
// in the light theme and a wide screen's in the dark one.
import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import {
  authOf,
  createUser,
  expectNoAxeViolations,
  useSession,
  useTheme,
  type CreatedUser,
} from './support/helpers.ts';

const uniqueText = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function png(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 60, height: 40, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A work of one picture (alt `alt`), made through the API (set-up only); answers its id. */
async function createWork(request: APIRequestContext, user: CreatedUser, content: string, alt: string) {
  const upload = await request.post('/api/media', {
    headers: authOf(user),
    multipart: {
      purpose: 'post',
      alt,
      file: { name: 'first.png', mimeType: 'image/png', buffer: await png('#d6806a') },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const mediaId = ((await upload.json()) as { media: { _id: string } }).media._id;
  const created = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: { content, mediaIds: [mediaId] },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { post: { _id: string } }).post._id;
}

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`an edited work says so, and its history lists the change, on ${name}`, async ({ page, request, browser }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    const artist = await createUser(request);
    const before = uniqueText('Harbour at dawn');
    const after = uniqueText('Harbour at first light');
    const postId = await createWork(request, artist, before, 'The first harbour');
    await useSession(page, artist);

    await page.goto(`/posts/${postId}`);
    const card = page.getByRole('article').first();
    await expect(card).toContainText(before);
    // Not edited yet.
    await expect(card.getByRole('button', { name: /^edited/ })).toHaveCount(0);

    // Edit the words and replace the picture.
    await card.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Post' });
    await dialog.getByLabel('What are you thinking?').fill(after);
    await dialog.getByRole('button', { name: 'Remove picture 1' }).click();
    await dialog
      .getByLabel('Add pictures')
      .setInputFiles({ name: 'second.png', mimeType: 'image/png', buffer: await png('#28507a') });
    const save = dialog.getByRole('button', { name: 'Edit', exact: true });
    await expect(save).toBeEnabled({ timeout: 30_000 });
    await save.click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText(after);

    // "edited" beside the time opens the history: the words' change and, for the artist, the earlier picture.
    const edited = card.getByRole('button', { name: 'edited: see what changed' });
    await expect(edited).toBeVisible();
    await edited.click();
    const history = page.getByRole('dialog', { name: 'Edit history' });
    const edits = history.getByRole('list', { name: 'Edits, newest first' });
    await expect(edits.getByRole('listitem').first()).toContainText('Words changed.');
    await expect(history.getByText(before)).toBeVisible();
    await expect(history.getByText(after)).toBeVisible();
    await expect(history.getByText('Before this edit (only you see these):')).toBeVisible();
    await expect(history.getByRole('img', { name: 'The first harbour' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(history).toBeHidden();
    await expect(edited).toBeFocused();

    // Signed out: the same change of words, and no earlier picture.
    const visitor = await browser.newPage({ viewport });
    await useTheme(visitor, theme);
    await visitor.goto(`/posts/${postId}`);
    const seen = visitor.getByRole('article').first();
    await seen.getByRole('button', { name: 'edited: see what changed' }).click();
    const visitorHistory = visitor.getByRole('dialog', { name: 'Edit history' });
    await expect(visitorHistory.getByText(before)).toBeVisible();
    await expect(visitorHistory.getByText('Pictures:')).toBeVisible();
    await expect(visitorHistory.getByText('Before this edit (only you see these):')).toHaveCount(0);
    await expect(visitorHistory.getByRole('img')).toHaveCount(0);
    await visitor.close();
  });
}
