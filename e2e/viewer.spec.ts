// A post of several pictures in the feed: the carousel, then the viewer with its zoom to the original's
// pixels (issue 21).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { localeDirection } from '@share-arts/contract';
import { authOf, createUser, expectNoAxeViolations, useSession, type CreatedUser } from './support/helpers.ts';
import { ANY, say, sayNumber, sayPattern, testLocale } from './support/say.ts';

// ---- fixtures -------------------------------------------------------------------------------------

interface Fixture {
  name: string;
  alt: string;
  width: number;
  height: number;
  colour: string;
  format: 'jpeg' | 'png';
}

/** Five shapes an artist posts together: the first wider than the widest variant (2048 px). */
const PICTURES: Fixture[] = [
  { name: 'harbour.jpg', alt: 'A harbour at dusk, wide', width: 2400, height: 1600, colour: '#2b4c7e', format: 'jpeg' },
  {
    name: 'portrait.jpg',
    alt: 'A standing figure in ochre',
    width: 1000,
    height: 1500,
    colour: '#c98b3a',
    format: 'jpeg',
  },
  { name: 'ridge.jpg', alt: 'A long ridge, a panorama', width: 1800, height: 450, colour: '#5e7d4a', format: 'jpeg' },
  { name: 'sprite.png', alt: 'A small pixel sprite', width: 32, height: 32, colour: '#d6806a', format: 'png' },
  {
    name: 'tile.jpg',
    alt: 'A square tile of quarter circles',
    width: 900,
    height: 900,
    colour: '#8a3b5c',
    format: 'jpeg',
  },
];

async function render(fixture: Fixture): Promise<Buffer> {
  const { width, height, colour } = fixture;
  const art = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <rect width="100%" height="100%" fill="${colour}"/>
      <circle cx="${width / 3}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#f3c9a8"/>
      <rect x="${width / 2}" y="${height / 4}" width="${width / 3}" height="${height / 2}" fill="#28231d"/>
    </svg>`,
  );
  const image = sharp(art);
  return fixture.format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 88 }).toBuffer();
}

interface UploadedPicture {
  _id: string;
  url: string;
  width: number;
  originalUrl: string;
  sources: { srcset: string }[];
}

async function uploadPicture(request: APIRequestContext, user: CreatedUser, fixture: Fixture) {
  const response = await request.post('/api/media', {
    headers: authOf(user),
    multipart: {
      purpose: 'post',
      alt: fixture.alt,
      file: { name: fixture.name, mimeType: `image/${fixture.format}`, buffer: await render(fixture) },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { media: UploadedPicture }).media;
}

/** Every file of a picture (variants and original), by path, so a request can be traced to its picture. */
function filesOf(pictures: UploadedPicture[]): Map<string, number> {
  const files = new Map<string, number>();
  pictures.forEach((picture, index) => {
    const urls = [picture.url, ...picture.sources.flatMap((source) => source.srcset.split(','))];
    for (const url of urls) files.set(url.trim().split(/\s+/)[0]!, index);
  });
  return files;
}

/** Which of the pictures the page has asked any file of, from now on. */
function watchPictureRequests(page: Page, pictures: UploadedPicture[]) {
  const files = filesOf(pictures);
  const asked = new Set<number>();
  page.on('request', (request) => {
    const index = files.get(new URL(request.url()).pathname);
    if (index !== undefined) asked.add(index + 1);
  });
  return () => [...asked].sort((a, b) => a - b);
}

/** The arrow keys to the next and the previous picture: the one that points along the line is next (left in Arabic). */
function arrows(): { next: string; previous: string } {
  return localeDirection(testLocale()) === 'rtl'
    ? { next: 'ArrowLeft', previous: 'ArrowRight' }
    : { next: 'ArrowRight', previous: 'ArrowLeft' };
}

/** The carousel's counter ("2 / 5"), its numbers written as the app writes them in the test's language. */
function counter(number: number): string {
  return say('{number} / {total}', { number: sayNumber(number), total: sayNumber(5) });
}

/** The viewer, named "Picture viewer: …" with what it shows. */
function viewerOf(page: Page) {
  return page.getByRole('dialog', { name: sayPattern('Picture viewer:', {}, { match: 'anywhere' }) });
}

// ---- the flow -------------------------------------------------------------------------------------

test('a 5-picture post: the carousel by buttons and keys, the viewer zoomed to the original, Esc back', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const user = await createUser(request);
  const pictures: UploadedPicture[] = [];
  for (const fixture of PICTURES) pictures.push(await uploadPicture(request, user, fixture));
  const content = `Harbour series ${Date.now().toString(36)}`;
  const created = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    // Downloads allowed (issue 23: the viewer offers Download only then).
    data: { content, mediaIds: pictures.map((picture) => picture._id), downloadable: true },
  });
  expect(created.status(), await created.text()).toBe(201);

  await useSession(page, user);
  const askedFor = watchPictureRequests(page, pictures);
  await page.goto('/');
  const card = page.getByRole('article').filter({ hasText: content });
  const { next, previous } = arrows();
  const carousel = card.getByRole('region', { name: say('Pictures by @{username}', { username: user.username }) });
  await expect(carousel).toBeVisible();
  await expect(card.getByText(counter(1), { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: say('Previous picture') })).toBeHidden();
  const first = card.getByRole('img', { name: PICTURES[0]!.alt });
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // The first picture and the next one, preloaded; none further ahead.
  await expect.poll(askedFor).toEqual([1, 2]);

  // The buttons.
  await card.getByRole('button', { name: say('Next picture') }).click();
  await expect(card.getByText(counter(2), { exact: true })).toBeVisible();
  // The strip has scrolled to it: the slide's starting edge is the strip's (its left, or its right in Arabic).
  const offset = (number: number) => () =>
    card
      .getByRole('group', { name: say('Picture {number} of {count}', { number, count: 5 }), exact: true })
      .evaluate((element) => {
        const box = element.getBoundingClientRect();
        const strip = element.parentElement!.getBoundingClientRect();
        return getComputedStyle(element).direction === 'rtl'
          ? Math.round(strip.right - box.right)
          : Math.round(box.left - strip.left);
      });
  await expect.poll(offset(2)).toBe(0);
  await expect.poll(askedFor).toEqual([1, 2, 3]);
  // And back, and at once (while the strip still glides there, for half a second) forward again with the key
  // along the line: the key steps from the picture asked for, and the strip gets there (right to left, the key
  // pressed meanwhile was lost).
  await card.getByRole('button', { name: say('Previous picture') }).click();
  await expect(card.getByText(counter(1), { exact: true })).toBeVisible();
  // Previous hides at the first picture, and focus went to the picture.
  await expect(card.getByRole('button', { name: PICTURES[0]!.alt })).toBeFocused();
  await page.keyboard.press(next);
  await expect(card.getByText(counter(2), { exact: true })).toBeVisible();
  await expect.poll(offset(2)).toBe(0);
  await card.getByRole('button', { name: say('Previous picture') }).click();
  await expect(card.getByText(counter(1), { exact: true })).toBeVisible();
  await expect.poll(offset(1)).toBe(0);

  // The keys, with focus on the picture: focus follows it; keys pressed quickly each take one step.
  await card.getByRole('button', { name: PICTURES[0]!.alt }).focus();
  await page.keyboard.press(next);
  await expect(card.getByText(counter(2), { exact: true })).toBeVisible();
  await page.keyboard.press(next);
  await expect(card.getByText(counter(3), { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: PICTURES[2]!.alt })).toBeFocused();
  await expect.poll(offset(3)).toBe(0);
  await page.keyboard.press(previous);
  await page.keyboard.press(previous);
  await expect(card.getByText(counter(1), { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: PICTURES[0]!.alt })).toBeFocused();
  await expect.poll(offset(1)).toBe(0);

  // Enter opens the viewer on that picture; ←/→ go between the pictures there too.
  await page.keyboard.press('Enter');
  const viewer = viewerOf(page);
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute('aria-modal', 'true');
  await expect(viewer.getByRole('link', { name: say('Download'), exact: true })).toHaveAttribute(
    'href',
    `${pictures[0]!.originalUrl}?download`,
  );
  await expect(viewer.getByRole('link', { name: say('View original') })).toHaveAttribute(
    'href',
    pictures[0]!.originalUrl,
  );
  await page.keyboard.press(next);
  await expect(viewer.getByRole('img', { name: PICTURES[1]!.alt })).toBeVisible();
  await page.keyboard.press(previous);
  const shown = viewer.getByRole('img', { name: PICTURES[0]!.alt });
  await expect(shown).toBeVisible();
  await expectNoAxeViolations(page);

  // Fitted, a variant is drawn; a double-click zooms to 100 %, where the original file itself is shown.
  expect(await shown.evaluate((img: HTMLImageElement) => img.currentSrc)).not.toContain(pictures[0]!.originalUrl);
  await shown.dblclick();
  await expect(viewer.getByRole('button', { name: say('{percent} %, fit to screen', { percent: 100 }) })).toBeVisible();
  await expect
    .poll(() =>
      viewer
        .getByRole('img', { name: PICTURES[0]!.alt })
        .evaluate((img: HTMLImageElement) => ({ src: new URL(img.currentSrc).pathname, width: img.naturalWidth })),
    )
    .toEqual({ src: pictures[0]!.originalUrl, width: PICTURES[0]!.width });

  // Zoomed, the arrow keys pan instead of changing picture; 0 fits it again.
  await page.keyboard.press(next);
  await expect(viewer.getByRole('img', { name: PICTURES[0]!.alt })).toBeVisible();
  await page.keyboard.press('0');
  await expect(
    viewer.getByRole('button', { name: sayPattern('{percent} %, zoom to {target} %', { percent: ANY, target: 100 }) }),
  ).toBeVisible();

  // Esc closes it, and focus is back on the picture that opened it.
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(card.getByRole('button', { name: PICTURES[0]!.alt })).toBeFocused();
});

test('Back closes the viewer and stays on the page', async ({ page, request }) => {
  const user = await createUser(request);
  const picture = await uploadPicture(request, user, PICTURES[1]!);
  const content = `Standing figure ${Date.now().toString(36)}`;
  const created = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: { content, mediaIds: [picture._id] },
  });
  expect(created.status(), await created.text()).toBe(201);

  await useSession(page, user);
  await page.goto('/');
  const card = page.getByRole('article').filter({ hasText: content });
  const opener = card.getByRole('button', { name: PICTURES[1]!.alt });
  await opener.click();
  const viewer = viewerOf(page);
  await expect(viewer).toBeVisible();
  await page.goBack();
  await expect(viewer).toBeHidden();
  await expect(page).toHaveURL('/');
  await expect(opener).toBeFocused();
});
