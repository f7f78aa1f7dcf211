import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  authOf,
  createUser,
  expectNoAxeViolations,
  listPosts,
  recordToasts,
  toast,
  useSession,
  useTheme,
  type CreatedUser,
} from './support/helpers.ts';

// ---- fixtures -------------------------------------------------------------------------------------

/** A JPEG like one straight from a phone: camera make and model, and where it was taken (EXIF GPS). */
async function photoWithGps(): Promise<Buffer> {
  const width = 1200;
  const height = 900;
  const art = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <rect width="100%" height="100%" fill="#f3c9a8"/>
      <circle cx="420" cy="330" r="170" fill="#d6806a"/>
      <rect x="560" y="420" width="420" height="330" rx="24" fill="#28231d"/>
    </svg>`,
  );
  return sharp(art)
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'E2E Camera', Model: 'GPS Tester' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2952/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4000/100',
      },
    })
    .toBuffer();
}

/** The tags of IFD0 of an EXIF block (as sharp's metadata().exif gives it); 0x8825 points to the GPS data. */
function exifTags(exif: Buffer): number[] {
  const start = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const tiff = exif.subarray(start);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  return Array.from({ length: u16(ifd) }, (_, index) => u16(ifd + 2 + index * 12));
}
const GPS_IFD_TAG = 0x8825;

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

// ---- API shortcuts (set-up only; what is under test goes through the UI) --------------------------

async function createPostViaApi(request: APIRequestContext, user: CreatedUser, content: string, picture?: Buffer) {
  let mediaId: string | undefined;
  if (picture) {
    const upload = await request.post('/api/media', {
      headers: authOf(user),
      multipart: {
        purpose: 'post',
        alt: 'An orange sun over a dark block, painted for a test',
        file: { name: 'phone-photo.jpg', mimeType: 'image/jpeg', buffer: picture },
      },
    });
    expect(upload.status(), await upload.text()).toBe(201);
    mediaId = ((await upload.json()) as { media: { _id: string } }).media._id;
  }
  const response = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: mediaId ? { content, mediaId } : { content },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { _id: string; userId: string } }).post;
}

async function like(request: APIRequestContext, user: CreatedUser, postId: string) {
  const response = await request.post(`/api/posts/like/${postId}`, { headers: authOf(user) });
  expect(response.status(), await response.text()).toBe(201);
}

// ---- UI shortcuts ---------------------------------------------------------------------------------

function postCard(page: Page, text: string): Locator {
  return page.getByRole('article').filter({ hasText: text });
}

/** Explore's grid of works; each work is a link named after what it shows, by whom, and its counts. */
function exploreWorks(page: Page, name?: string): Locator {
  return page.getByRole('grid', { name: 'Posts from everyone' }).getByRole('link', name ? { name } : {});
}

async function openPostMenu(card: Locator) {
  await card.getByRole('button', { name: 'Post options' }).click();
}

// ---- the flow of the issue ------------------------------------------------------------------------

test.describe('posts', () => {
  test('create with a picture and alt text, see it on Home and Explore, open, edit, like, unlike, delete', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto('/');
    await expect(page).toHaveTitle('Home | Share Arts');

    // An empty post is refused on the client, with the spec's words.
    await page.getByRole('button', { name: 'Add Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Post' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toast(page, 'Please write about what are you thinking')).toBeVisible();

    const content = uniqueText('Sunrise study');
    const alt = 'An orange sun over a dark block';
    await dialog.getByLabel('What are you thinking?').fill(`${content}\nsecond line #painting`);
    await dialog.getByLabel('Add pictures').setInputFiles({
      name: 'phone-photo.jpg',
      mimeType: 'image/jpeg',
      buffer: await photoWithGps(),
    });
    await dialog.getByLabel('Alt text').fill(alt);
    // Post waits for the picture's upload (issue 21): its renditions take seconds of CPU, over the 7 s an
    // expectation waits by default when the host is loaded (it failed there once).
    await expect(dialog.getByText('Uploaded')).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByRole('button', { name: 'Post', exact: true })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(toast(page, 'Posted Successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Add Post' })).toBeFocused();

    // Home shows it, picture with its alt text, line breaks kept.
    const card = postCard(page, content);
    await expect(card).toBeVisible();
    await expect(card).toHaveAccessibleName(`Post by ${user.username}`);
    await expect(card.getByRole('img', { name: alt })).toBeVisible();
    expect(await card.locator('p', { hasText: content }).innerText()).toContain('\nsecond line #painting');
    await expect(card.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
    await expect(card.getByText('0 likes')).toBeVisible();

    // Explore shows it too: a work of the grid, named by its alt text and author, its picture drawn.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Explore' }).click();
    await expect(page).toHaveURL('/explore');
    const tile = exploreWorks(page, `${alt}, by @${user.username}, 0 likes`);
    await expect(tile).toHaveCount(1);
    await expect(tile.locator('img')).toBeVisible();

    // Its page, a tap on the work away (the picture there opens the viewer, issue 21).
    await tile.click();
    await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
    await expect(page).toHaveTitle('Post | Share Arts');
    await expect(page.getByRole('article')).toContainText(content);
    // In the viewer, View original opens the file itself in a new tab.
    await page.getByRole('article').getByRole('button', { name: alt }).click();
    const viewer = page.getByRole('dialog', { name: /Picture viewer/ });
    const original = viewer.getByRole('link', { name: 'View original' });
    await expect(original).toHaveAttribute('target', '_blank');
    await expect(original).toHaveAttribute('rel', 'noopener noreferrer');
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Comments' })).toBeVisible();

    // Edit: the dialog is prefilled; the new text replaces the old everywhere.
    const edited = uniqueText('Sunset study');
    const pageCard = page.getByRole('article');
    await openPostMenu(pageCard);
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Post' });
    await expect(editDialog.getByLabel('What are you thinking?')).toHaveValue(new RegExp(content));
    await expect(editDialog.getByLabel('Alt text')).toHaveValue(alt);
    await editDialog.getByLabel('What are you thinking?').fill(edited);
    await editDialog.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(editDialog).toBeHidden();
    await expect(pageCard).toContainText(edited);
    await expect(pageCard).not.toContainText(content);

    // Like and unlike: count and state change at once, and are what the server keeps.
    await pageCard.getByRole('button', { name: 'Like' }).click();
    await expect(pageCard.getByRole('button', { name: 'Unlike' })).toHaveAttribute('aria-pressed', 'true');
    await expect(pageCard.getByText('1 like', { exact: true })).toBeVisible();
    await page.reload();
    await expect(pageCard.getByRole('button', { name: 'Unlike' })).toHaveAttribute('aria-pressed', 'true');
    await expect(pageCard.getByText('1 like', { exact: true })).toBeVisible();

    await pageCard.getByRole('button', { name: 'Unlike' }).click();
    await expect(pageCard.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
    await expect(pageCard.getByText('0 likes')).toBeVisible();
    await page.reload();
    await expect(pageCard.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
    await expect(pageCard.getByText('0 likes')).toBeVisible();

    // Delete from Home, after the confirmation step.
    await page.goto('/');
    const homeCard = postCard(page, edited);
    await openPostMenu(homeCard);
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete post?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Deleted Successfully')).toBeVisible();
    await expect(homeCard).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
    await expect(postCard(page, edited)).toHaveCount(0);
  });

  test('Trending puts the most liked post first', async ({ page, request }) => {
    const [viewer, fan1, fan2] = await Promise.all([createUser(request), createUser(request), createUser(request)]);
    // The sample data's most liked post (it leads by one like), liked by two more people, stays first
    // however the other tests of this run like their own posts.
    const seeded = (await listPosts(request, '?sort=trending&limit=1'))[0]!;
    await Promise.all([like(request, fan1, seeded._id), like(request, fan2, seeded._id)]);

    await useSession(page, viewer);
    await page.goto('/explore');
    const sort = page.getByLabel('Sort posts');
    await expect(sort).toHaveValue('latest');
    await sort.selectOption({ label: 'Trending' });
    await expect(page).toHaveURL('/explore?sort=trending');
    // The first work is that post, and says its likes.
    const first = exploreWorks(page).first();
    await expect(first).toHaveAttribute('href', `/posts/${seeded._id}`);
    await expect(first).toHaveAccessibleName(
      new RegExp(
        `, by @${seeded.username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, ${seeded.likes.likeCount + 2} likes, `,
      ),
    );

    await sort.selectOption({ label: 'Oldest First' });
    await expect(page).toHaveURL('/explore?sort=oldest');
    await expect(exploreWorks(page).first()).toBeVisible();
  });

  test('rapid clicks on the heart send one request at a time and end in the state clicked last', async ({
    page,
    request,
  }) => {
    const user = await createUser(request);
    const post = await createPostViaApi(request, user, uniqueText('Rapid hearts'));
    await useSession(page, user);

    // Hold the requests until all five clicks are in, so the clicks overtake them however slow the
    // machine (a fixed delay lost that race on a loaded CI machine).
    let inFlight = 0;
    let maxInFlight = 0;
    let sent = 0;
    const { promise: clicksDone, resolve: releaseRequests } = Promise.withResolvers<void>();
    await page.route(/\/api\/posts\/(like|dislike)\//, async (route) => {
      sent += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await clicksDone;
      const response = await route.fetch();
      inFlight -= 1;
      await route.fulfill({ response });
    });

    await page.goto(`/posts/${post._id}`);
    const card = page.getByRole('article');
    const heart = card.getByRole('button', { name: /^(Like|Unlike)$/ });
    for (let i = 0; i < 5; i += 1) await heart.click();
    releaseRequests();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(card.getByText('1 like', { exact: true })).toBeVisible();
    expect(maxInFlight, 'never two like requests of one post at once').toBe(1);
    expect(sent, 'five clicks are merged into fewer requests').toBeLessThan(5);

    await page.reload();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(card.getByText('1 like', { exact: true })).toBeVisible();
  });

  test('save, follow, and a refused like rolls back with the server message', async ({ page, request }) => {
    const [viewer, author] = await Promise.all([createUser(request), createUser(request)]);
    const content = uniqueText('Someone else’s post');
    const post = await createPostViaApi(request, author, content);
    await useSession(page, viewer);
    const toastsShown = await recordToasts(page);
    // Someone else's post as a card in a list (Explore is a grid of works: the author's profile as a list).
    await page.goto(`/${author.username}?view=list`);
    const card = postCard(page, content);

    // The heart, the count and the Save button show what happened: no toast for those (issue 19).
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(card.getByRole('button', { name: 'Remove from saved' })).toHaveAttribute('aria-pressed', 'true');
    await card.getByRole('button', { name: 'Remove from saved' }).click();
    await expect(card.getByRole('button', { name: 'Save', exact: true })).toHaveAttribute('aria-pressed', 'false');
    await card.getByRole('button', { name: 'Like' }).click();
    await expect(card.getByText('1 like', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Unlike' }).click();
    await expect(card.getByText('0 likes', { exact: true })).toBeVisible();

    // A follow from the post's menu shows nowhere else once the menu closes: that one keeps its toasts.
    await openPostMenu(card);
    await expect(page.getByRole('menuitem', { name: 'Edit' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Follow' }).click();
    await expect(toast(page, 'Started Following')).toBeVisible();
    await openPostMenu(card);
    await page.getByRole('menuitem', { name: 'Following' }).click();
    await expect(toast(page, 'Removed from Following')).toBeVisible();
    const shown = await toastsShown();
    for (const text of ['Added to bookmark', 'Removed from Bookmark', 'Liked Successful', 'disliked  successfully']) {
      expect(
        shown.filter((toastText) => toastText.includes(text)),
        text,
      ).toEqual([]);
    }

    // Liked elsewhere meanwhile: the server refuses, the heart rolls back to the truth, the message shows.
    await like(request, viewer, post._id);
    await card.getByRole('button', { name: 'Like' }).click();
    await expect(toast(page, 'Cannot like a post that is already liked.')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Unlike' })).toHaveAttribute('aria-pressed', 'true');
    await expect(card.getByText('1 like', { exact: true })).toBeVisible();
  });

  test('post page: loading, not found, and the empty Home', async ({ page, request }) => {
    const user = await createUser(request);
    await useSession(page, user);

    // The answer waits until the loading state was seen (a fixed delay could end before a slow
    // machine first painted the page).
    const { promise: loadingSeen, resolve: answer } = Promise.withResolvers<void>();
    await page.route(/\/api\/posts\/[0-9a-f-]{36}$/, async (route) => {
      await loadingSeen;
      await route.continue();
    });
    await page.goto('/posts/00000000-0000-4000-8000-000000000000');
    await expect(page.getByText('Loading.....', { exact: true })).toBeVisible();
    answer();
    await expect(page.getByRole('heading', { name: 'Post not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL('/');

    // A new account follows nobody and has no posts: Home points to Explore.
    await expect(page.getByRole('link', { name: 'Explore posts' })).toBeVisible();
    await page.getByRole('link', { name: 'Explore posts' }).click();
    await expect(page).toHaveURL('/explore');
    await expect(exploreWorks(page).first()).toBeVisible();
  });

  test('no served picture of a post carries metadata; the original keeps no GPS', async ({ page, request }) => {
    const user = await createUser(request);
    const post = await createPostViaApi(request, user, uniqueText('Metadata check'), await photoWithGps());
    await useSession(page, user);
    await page.goto(`/posts/${post._id}`);

    const img = page.getByRole('article').locator('picture img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    const currentSrc = await img.evaluate((el: HTMLImageElement) => el.currentSrc);
    const srcsets = await page
      .getByRole('article')
      .locator('picture source')
      .evaluateAll((sources) => sources.map((source) => source.getAttribute('srcset') ?? ''));
    const variants = new Set([
      new URL(currentSrc).pathname,
      ...srcsets.flatMap((srcset) => srcset.split(',').map((entry) => entry.trim().split(/\s+/)[0]!)),
    ]);
    expect(variants.size, 'AVIF and JPEG variants are offered').toBeGreaterThanOrEqual(2);
    for (const url of variants) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      expect(response.headers()['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(await response.body()).metadata();
      expect(meta.exif, `${url} has no EXIF`).toBeUndefined();
      expect(meta.xmp, `${url} has no XMP`).toBeUndefined();
      expect(meta.iptc, `${url} has no IPTC`).toBeUndefined();
    }

    await page
      .getByRole('article')
      .getByRole('button', { name: /painted for a test/ })
      .click();
    const originalUrl = await page
      .getByRole('dialog', { name: /Picture viewer/ })
      .getByRole('link', { name: 'View original' })
      .getAttribute('href');
    const original = await request.get(originalUrl!);
    expect(original.status()).toBe(200);
    const meta = await sharp(await original.body()).metadata();
    const tags = meta.exif ? exifTags(meta.exif) : [];
    test.info().annotations.push({
      type: 'original picture',
      description: `${originalUrl}: ${meta.format} ${meta.width}×${meta.height}, EXIF ${
        meta.exif
          ? `${meta.exif.length} bytes, IFD0 tags ${tags.map((tag) => `0x${tag.toString(16)}`).join(' ')}`
          : 'none'
      }`,
    });
    expect(tags.includes(GPS_IFD_TAG), `the stored original ${originalUrl} still holds EXIF GPS (tag 0x8825)`).toBe(
      false,
    );
  });
});

test.describe('accessibility of the post pages (axe, WCAG 2 A and AA)', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme} theme: Home with posts and the Add Post dialog, Explore, a post`, async ({ page, request }) => {
      // Four screens, each scanned by axe: 27-32 s on a loaded 2-core CI machine, over the default 30 s.
      test.setTimeout(60_000);
      const user = await createUser(request);
      // The oldest post is a seeded one, with a picture (newer ones may be other tests' text-only posts).
      const seeded = (await listPosts(request, '?sort=oldest&limit=1'))[0]!;
      const follow = await request.post(`/api/users/follow/${seeded.userId}`, { headers: authOf(user) });
      expect(follow.status(), await follow.text()).toBe(200);
      await useTheme(page, theme);
      await useSession(page, user);

      await page.goto('/');
      await expect(page.getByRole('article').first()).toBeVisible();
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Add Post' }).click();
      await expect(page.getByRole('dialog', { name: 'Add Post' })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: 'Add Post' })).toBeHidden();
      await expect(page.getByRole('button', { name: 'Add Post' })).toBeFocused();

      await page.goto('/explore');
      await expect(exploreWorks(page).first()).toBeVisible();
      await expectNoAxeViolations(page);

      await page.goto(`/posts/${seeded._id}`);
      await expect(page.getByRole('heading', { name: 'Comments' })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});
