// The composer with several pictures (issue 21): dropped on the drop zone, checked before any upload,
// reordered with the keyboard, posted in that order, and edited (added, removed, reordered) later.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { authOf, createUser, toast, useSession } from './support/helpers.ts';
import { localeDirection } from '@share-arts/contract';
import { ANY, say, sayNumber, sayPattern, sayList, testLocale } from './support/say.ts';

/** A file to drop: bytes made here, or `size` bytes of zeros made in the page (a 21 MB file need not cross). */
interface DropFile {
  name: string;
  type: string;
  bytes?: Buffer;
  size?: number;
}

interface PostMedia {
  _id: string;
  alt: string;
  originalName: string;
}

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Small PNGs of different shapes and colours, named by their letter. */
async function pictures(letters: string): Promise<DropFile[]> {
  const colours = ['#d6806a', '#28507a', '#6a9a5a', '#c2a03a', '#7a4a8a', '#3a8a8a'];
  return Promise.all(
    [...letters].map(async (letter, index) => ({
      name: `${letter}.png`,
      type: 'image/png',
      bytes: await sharp({
        create: { width: 40 + index * 12, height: 60 - index * 6, channels: 3, background: colours[index % 6]! },
      })
        .png()
        .toBuffer(),
    })),
  );
}

/** The label of a picture's alt text field (its place is said to screen readers only). */
function altTextLabel(position: number): string {
  return say('Alt text<0> for picture {position}</0>', { position });
}

async function openComposer(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: say('Add Post') }).click();
  const dialog = page.getByRole('dialog', { name: say('Add Post') });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * Drops files on `target` as a person dragging them from their desktop would: dragenter, dragover and drop
 * events carrying a DataTransfer of File objects, built in the page.
 */
async function dropFiles(target: Locator, files: DropFile[]) {
  const payload = files.map(({ name, type, bytes, size }) => ({ name, type, base64: bytes?.toString('base64'), size }));
  await target.evaluate((element, list) => {
    const data = new DataTransfer();
    for (const file of list) {
      const bytes = file.base64
        ? Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0))
        : new Uint8Array(file.size ?? 0);
      data.items.add(new File([bytes], file.name, { type: file.type }));
    }
    for (const type of ['dragenter', 'dragover', 'drop']) {
      element.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    }
  }, payload);
}

/** The list of the pictures, whatever it holds. */
function pictureList(dialog: Locator): Locator {
  return dialog.getByRole('list', {
    name: sayPattern('Pictures, in order ({total} of {max})', { total: ANY, max: ANY }),
  });
}

/** A picture's handle, named by its place and file. */
function handle(dialog: Locator, position: number, total: number, name: string): Locator {
  return dialog.getByRole('button', { name: say('Picture {position} of {total}: {name}', { position, total, name }) });
}

/** The pictures' handles, in the order shown: their accessible names say place and file. */
async function shownOrder(dialog: Locator): Promise<string[]> {
  const named = sayPattern('Picture {position} of {total}: {name}', { position: ANY, total: ANY, name: ANY });
  const names = await pictureList(dialog)
    .getByRole('button', { name: named })
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));
  return names.map((name) => named.exec(name)?.groups?.name ?? name);
}

/** Counts the requests that upload a picture or write a post. */
function countWrites(page: Page) {
  const counts = { uploads: 0, posts: 0 };
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const { pathname } = new URL(request.url());
    if (pathname === '/api/media') counts.uploads += 1;
    if (pathname === '/api/posts' || pathname.startsWith('/api/posts/edit/')) counts.posts += 1;
  });
  return counts;
}

async function mediaOf(request: APIRequestContext, postId: string): Promise<PostMedia[]> {
  const response = await request.get(`/api/posts/${postId}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { post: { media: PostMedia[] } }).post.media;
}

test('five pictures dropped, described, reordered by keyboard and posted in that order', async ({ page, request }) => {
  test.setTimeout(90_000);
  const user = await createUser(request);
  await useSession(page, user);
  const writes = countWrites(page);
  const dialog = await openComposer(page);
  const content = uniqueText('Five evenings');
  await dialog.getByLabel(say('What are you thinking?')).fill(content);

  await dropFiles(dialog.getByRole('group', { name: say('Drop pictures here') }), await pictures('abcde'));
  expect(await shownOrder(dialog)).toEqual(['a.png', 'b.png', 'c.png', 'd.png', 'e.png']);
  const post = dialog.getByRole('button', { name: say('Post'), exact: true });
  // Each is uploaded in turn; Post waits for all of them.
  await expect(dialog.getByText(say('Uploaded'))).toHaveCount(5, { timeout: 60_000 });
  await expect(post).toBeEnabled();
  expect(writes.uploads).toBe(5);

  // A gentle reminder under each empty alt text, gone once it is written.
  const reminder = dialog.getByText(say('Describe it for people who cannot see it: a few words are enough.'));
  await expect(reminder).toHaveCount(5);
  for (const letter of 'abcde') {
    const position = 'abcde'.indexOf(letter) + 1;
    await dialog.getByLabel(altTextLabel(position), { exact: true }).fill(`Study ${letter.toUpperCase()}`);
  }
  await expect(reminder).toHaveCount(0);

  // The keyboard: Alt+↑ moves the focused picture up, and the new place is announced.
  // The pictures' announcements (the text field has a status of its own, for its suggestions).
  const announcements = [
    'Picture moved to position {position} of {count}.',
    'Picture dropped at position {position} of {count}.',
    'Picture back at position {position} of {count}.',
    'Picture {position} of {total} picked up. Move it with the arrow keys, put it down with Space, or press Escape to put it back.',
  ].map((english) => sayPattern(english, { position: ANY, count: ANY, total: ANY }).source);
  const status = dialog.getByRole('status').filter({ hasText: new RegExp(announcements.join('|')) });
  await handle(dialog, 5, 5, 'e.png').focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(status).toHaveText(say('Picture moved to position {position} of {count}.', { position: 4, count: 5 }));
  // ← and → go along the line: the one that points to its start moves earlier (→ in Arabic, right to left).
  const towardsStart = localeDirection(testLocale()) === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
  await page.keyboard.press(`Alt+${towardsStart}`);
  await expect(status).toHaveText(say('Picture moved to position {position} of {count}.', { position: 3, count: 5 }));
  await expect(handle(dialog, 3, 5, 'e.png')).toBeFocused();
  // Or picked up with Space, moved with the arrows and put down with Space.
  await handle(dialog, 1, 5, 'a.png').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(status).toHaveText(say('Picture dropped at position {position} of {count}.', { position: 2, count: 5 }));
  // Escape puts a picked-up picture back, and leaves the dialog open.
  await handle(dialog, 5, 5, 'd.png').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Escape');
  await expect(status).toHaveText(say('Picture back at position {position} of {count}.', { position: 5, count: 5 }));
  await expect(dialog).toBeVisible();
  // And the buttons.
  await dialog.getByRole('button', { name: say('Move picture {position} up', { position: 4 }) }).click();
  await dialog.getByRole('button', { name: say('Move picture {position} down', { position: 3 }) }).click();
  expect(await shownOrder(dialog)).toEqual(['b.png', 'a.png', 'e.png', 'c.png', 'd.png']);

  const written = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/posts',
  );
  await post.click();
  await expect(toast(page, say('Posted Successfully'))).toBeVisible();
  const body = (await (await written).json()) as { post: { _id: string } };
  const sent = (await written).request().postDataJSON() as { mediaIds: string[] };
  expect(sent.mediaIds).toHaveLength(5);

  // The server keeps the order and the alt texts.
  const media = await mediaOf(request, body.post._id);
  expect(media.map((picture) => picture._id)).toEqual(sent.mediaIds);
  expect(media.map((picture) => picture.alt)).toEqual(['Study B', 'Study A', 'Study E', 'Study C', 'Study D']);
  expect(media.map((picture) => picture.originalName)).toEqual(['b.png', 'a.png', 'e.png', 'c.png', 'd.png']);

  // The feed shows the post with its first picture first.
  const card = page.getByRole('article').filter({ hasText: content });
  await expect(card.getByRole('img', { name: 'Study B' })).toBeVisible();
});

test('a too large or wrong-type file is refused before any upload, and Post waits until it is removed', async ({
  page,
  request,
}) => {
  await useSession(page, await createUser(request));
  const writes = countWrites(page);
  const dialog = await openComposer(page);
  await dialog.getByLabel(say('What are you thinking?')).fill(uniqueText('Refused'));

  const [good] = await pictures('g');
  await dropFiles(dialog.getByRole('group', { name: say('Drop pictures here') }), [
    { name: 'huge.jpg', type: 'image/jpeg', size: 21 * 1024 * 1024 },
    { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('not a picture') },
    good!,
  ]);
  const list = pictureList(dialog);
  const tooLarge = 'That picture is {size} MB; the limit is {limit} MB. Choose a smaller file.';
  const notAPicture = 'That file is not a picture we can use. Choose a {formats} file.';
  await expect(list.getByRole('listitem').nth(0)).toContainText(
    sayPattern(
      tooLarge,
      { size: sayNumber(21, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), limit: 20 },
      {
        match: 'anywhere',
      },
    ),
  );
  await expect(list.getByRole('listitem').nth(1)).toContainText(
    sayPattern(notAPicture, { formats: ANY }, { match: 'anywhere' }),
  );
  await expect(list.getByRole('listitem').nth(2)).toContainText(say('Uploaded'));

  const post = dialog.getByRole('button', { name: say('Post'), exact: true });
  await expect(post).toBeDisabled();
  await expect(post).toHaveAccessibleDescription(
    say(
      '{count, plural, one {# picture cannot be used: remove it to post.} other {# pictures cannot be used: remove them to post.}}',
      { count: 2 },
    ),
  );
  await post.click({ force: true });
  await expect(dialog).toBeVisible();

  const removeFirst = dialog.getByRole('button', { name: say('Remove picture {position}', { position: 1 }) });
  await removeFirst.click();
  await expect(post).toHaveAccessibleDescription(
    new RegExp(
      `^${sayPattern('Picture {n} cannot be used: remove it to post.', { n: 1 }, { match: 'anywhere' }).source} ${
        sayPattern(notAPicture, { formats: ANY }, { match: 'anywhere' }).source
      }`,
    ),
  );
  await removeFirst.click();
  await expect(post).toBeEnabled();
  expect(writes, 'only the good picture was uploaded, nothing published').toEqual({ uploads: 1, posts: 0 });
});

test('more files than a post holds: the first twenty are taken, the rest named as left out', async ({
  page,
  request,
}) => {
  await useSession(page, await createUser(request));
  const writes = countWrites(page);
  const dialog = await openComposer(page);
  // Text files: refused at once in the browser, so the test uploads nothing.
  const files = Array.from({ length: 22 }, (_, index) => ({
    name: `note-${index + 1}.txt`,
    type: 'text/plain',
    bytes: Buffer.from(`note ${index + 1}`),
  }));
  await dropFiles(dialog.getByRole('group', { name: say('Drop pictures here') }), files);
  await expect(
    dialog
      .getByRole('list', { name: say('Pictures, in order ({total} of {max})', { total: 20, max: 20 }) })
      .getByRole('listitem'),
  ).toHaveCount(20);
  await expect(
    dialog.getByText(
      say(
        'A post holds up to {max} pictures: {count, plural, one {# file was left out ({names}).} other {# files were left out ({names}).}}',
        // The files' names listed as the language lists them.
        { max: 20, count: 2, names: sayList(['note-21.txt', 'note-22.txt']) },
      ),
      { exact: true },
    ),
  ).toBeVisible();
  await expect(dialog.getByLabel(say('Add pictures'), { exact: true })).toBeDisabled();
  expect(writes.uploads).toBe(0);
});

test('editing a post shows its pictures, and can add, remove and reorder them', async ({ page, request }) => {
  test.setTimeout(90_000);
  const user = await createUser(request);
  // Set-up through the API: a post of three pictures.
  const ids: string[] = [];
  for (const file of await pictures('xyz')) {
    const response = await request.post('/api/media', {
      headers: authOf(user),
      multipart: {
        purpose: 'post',
        alt: `Alt ${file.name}`,
        file: { name: file.name, mimeType: file.type, buffer: file.bytes! },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    ids.push(((await response.json()) as { media: { _id: string } }).media._id);
  }
  const content = uniqueText('Three to edit');
  const created = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: { content, mediaIds: ids },
  });
  expect(created.status(), await created.text()).toBe(201);
  const postId = ((await created.json()) as { post: { _id: string } }).post._id;

  await useSession(page, user);
  await page.goto(`/posts/${postId}`);
  await page
    .getByRole('button', { name: say('Post options') })
    .first()
    .click();
  await page.getByRole('menuitem', { name: say('Edit') }).click();
  const dialog = page.getByRole('dialog', { name: say('Edit Post') });
  await expect(dialog.getByRole('listitem')).toHaveCount(3);
  expect(await shownOrder(dialog)).toEqual(['x.png', 'y.png', 'z.png']);
  await expect(dialog.getByLabel(altTextLabel(2), { exact: true })).toHaveValue('Alt y.png');

  // Remove x, move z first, add w at the end, and re-describe y.
  await dialog.getByRole('button', { name: say('Remove picture {position}', { position: 1 }) }).click();
  await handle(dialog, 2, 2, 'z.png').focus();
  await page.keyboard.press('Alt+ArrowUp');
  const [added] = await pictures('w');
  await dialog
    .getByLabel(say('Add pictures'), { exact: true })
    .setInputFiles({ name: 'w.png', mimeType: 'image/png', buffer: added!.bytes! });
  await dialog.getByLabel(altTextLabel(2), { exact: true }).fill('Y, described again');
  const save = dialog.getByRole('button', { name: say('Edit'), exact: true });
  await expect(save).toBeEnabled({ timeout: 30_000 });
  await save.click();
  await expect(dialog).toBeHidden();

  const media = await mediaOf(request, postId);
  expect(media.map((picture) => picture.originalName)).toEqual(['z.png', 'y.png', 'w.png']);
  expect(media.map((picture) => picture.alt)).toEqual(['Alt z.png', 'Y, described again', '']);
  expect(media.map((picture) => picture._id).slice(0, 2)).toEqual([ids[2], ids[1]]);
});
