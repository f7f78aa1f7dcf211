// The Add Post dialog with a picture that cannot be used, and closing it with work in it (issues 19 and 21).
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createUser, toast, useSession } from './support/helpers.ts';

async function openComposer(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Add Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Post' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Counts the requests that would upload a picture or publish a post. */
function countWrites(page: Page) {
  const counts = { uploads: 0, posts: 0 };
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const { pathname } = new URL(request.url());
    if (pathname === '/api/media') counts.uploads += 1;
    if (pathname === '/api/posts') counts.posts += 1;
  });
  return counts;
}

/** A small PNG of more pixels than the server takes (8000 × 5100 = 40.8 megapixels). */
const tooManyPixels = () =>
  sharp({ create: { width: 8000, height: 5100, channels: 3, background: '#d6806a' } })
    .png()
    .toBuffer();

const smallPicture = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#28231d' } })
    .png()
    .toBuffer();

test.describe('a picture that cannot be used keeps the post from going', () => {
  for (const [what, file, message] of [
    [
      'a file of more than 20 MB',
      () => ({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(21 * 1024 * 1024, 1) }),
      /the limit is 20 MB\. Choose a smaller file\./,
    ],
    [
      'a file that is not a picture',
      () => ({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') }),
      /not a picture we can use\. Choose a JPEG/,
    ],
    [
      'a picture of more than 40 megapixels, found before any upload',
      async () => ({ name: 'mural.png', mimeType: 'image/png', buffer: await tooManyPixels() }),
      /8000 × 5100 pixels \(41 megapixels\); the limit is 40 megapixels\. Choose a smaller picture\./,
    ],
  ] as const) {
    test(what, async ({ page, request }) => {
      // The 21 MB file goes to the page through the DevTools protocol, as base64: half a minute on a loaded CI host.
      test.setTimeout(90_000);
      await useSession(page, await createUser(request));
      const writes = countWrites(page);
      const dialog = await openComposer(page);
      await dialog.getByLabel('What are you thinking?').fill('A mural, in progress');
      await dialog.getByLabel('Add pictures').setInputFiles(await file());

      // Said on the picture itself, and by Post, which waits.
      await expect(dialog.getByRole('listitem')).toContainText(message);
      const post = dialog.getByRole('button', { name: 'Post', exact: true });
      await expect(post).toBeDisabled();
      await expect(post).toHaveAccessibleDescription(message);
      await post.click({ force: true });
      await expect(dialog).toBeVisible();

      // Going on without it is a choice the person makes.
      await dialog.getByRole('button', { name: 'Remove picture 1' }).click();
      await expect(dialog.getByRole('listitem')).toHaveCount(0);
      await expect(dialog.getByLabel('Add pictures')).toBeFocused();
      await expect(post).toBeEnabled();
      expect(writes, 'nothing was uploaded or published').toEqual({ uploads: 0, posts: 0 });
    });
  }

  test('an upload the server refuses blocks Post until the picture is removed', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const writes = countWrites(page);
    const dialog = await openComposer(page);
    await dialog.getByLabel('What are you thinking?').fill('A damaged file');
    // PNG by its type, but not by its content: the browser cannot read it, so the server judges.
    await dialog.getByLabel('Add pictures').setInputFiles({
      name: 'damaged.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not really a PNG file at all'),
    });
    const post = dialog.getByRole('button', { name: 'Post', exact: true });
    await expect(dialog.getByRole('listitem')).toContainText('Not uploaded:');
    await expect(dialog.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(post).toBeDisabled();
    await expect(post).toHaveAccessibleDescription(/^Picture 1 did not upload: retry or remove it\. Not uploaded: /);
    await post.click({ force: true });
    expect(writes.posts, 'the post was not published without its picture').toBe(0);

    await dialog.getByRole('button', { name: 'Remove picture 1' }).click();
    await expect(post).toBeEnabled();
    await dialog.getByLabel('Add pictures').setInputFiles({
      name: 'small.png',
      mimeType: 'image/png',
      buffer: await smallPicture(),
    });
    await expect(dialog.getByRole('button', { name: 'Picture 1 of 1: small.png' })).toBeVisible();
    // Post waits for the upload (seconds of CPU on a loaded host), then goes.
    await expect(dialog.getByText('Uploaded')).toBeVisible({ timeout: 30_000 });
    await expect(post).toBeEnabled();
    await post.click();
    await expect(toast(page, 'Posted Successfully')).toBeVisible();
    expect(writes.posts).toBe(1);
  });
});

test.describe('closing the composer', () => {
  test('with a picture in it, Escape asks before throwing it away', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const dialog = await openComposer(page);
    await dialog.getByLabel('What are you thinking?').fill('Half a thought');
    await dialog.getByLabel('Add pictures').setInputFiles({
      name: 'small.png',
      mimeType: 'image/png',
      buffer: await smallPicture(),
    });
    const picture = dialog.getByRole('button', { name: 'Picture 1 of 1: small.png' });
    await expect(picture).toBeVisible();

    await page.keyboard.press('Escape');
    const ask = page.getByRole('alertdialog', { name: 'Discard this post?' });
    await expect(ask).toBeVisible();
    await expect(ask).toContainText('Your text and the picture you chose will be lost.');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await expect(ask).toBeHidden();
    await expect(dialog.getByLabel('What are you thinking?')).toHaveValue('Half a thought');
    await expect(picture).toBeVisible();

    // Escape in the question closes the question, not the composer.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();
    await expect(dialog).toBeVisible();

    await page.keyboard.press('Escape');
    await ask.getByRole('button', { name: 'Discard' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Add Post' })).toBeFocused();
  });

  test('an untouched composer closes on Escape without a question', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const dialog = await openComposer(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
});
