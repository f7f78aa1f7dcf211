// Bring your work (issue 40): an artist uploads another account's "Download your data" zip in Settings, sees its
// preview and choices, starts the import, watches the progress bar, and ends with the works imported and a link
// to each, on a phone's width and on a wide screen.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { authOf, createUser, expectNoAxeViolations, useSession, type CreatedUser } from './support/helpers.ts';

const PICTURE = path.join(import.meta.dirname, '../apps/server/src/modules/media/fixtures/art.png');
const WORKS = 4;

/** A portfolio of WORKS works, each with its picture, exported as Share Arts' zip (with the owner's bio, if given). */
async function exportedPortfolio(
  request: APIRequestContext,
  bio?: string,
): Promise<{ owner: CreatedUser; zip: Buffer }> {
  const owner = await createUser(request);
  if (bio !== undefined) {
    const edited = await request.post('/api/users/edit', { headers: authOf(owner), data: { userData: { bio } } });
    expect(edited.ok(), await edited.text()).toBe(true);
  }
  const picture = await readFile(PICTURE);
  for (let n = 1; n <= WORKS; n += 1) {
    const uploaded = await request.post('/api/media', {
      headers: authOf(owner),
      multipart: {
        purpose: 'post',
        alt: `Harbour study ${n}`,
        file: { name: `study-${n}.png`, mimeType: 'image/png', buffer: picture },
      },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const mediaId = ((await uploaded.json()) as { media: { _id: string } }).media._id;
    const posted = await request.post('/api/posts', {
      headers: { ...authOf(owner), prefer: 'return=minimal' },
      data: { content: `Harbour ${n} #harbour`, mediaIds: [mediaId] },
    });
    expect(posted.status(), await posted.text()).toBe(201);
  }
  const link = await request.post('/api/account/export', { headers: authOf(owner) });
  const { url } = (await link.json()) as { url: string };
  const zip = await request.get(url);
  expect(zip.status()).toBe(200);
  return { owner, zip: await zip.body() };
}

for (const [name, viewport] of [
  ['a phone', { width: 390, height: 844 }],
  ['a wide screen', { width: 1440, height: 900 }],
] as const) {
  test(`Settings imports an archive with a live progress bar, on ${name}`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const { zip } = await exportedPortfolio(request);
    const artist = await createUser(request);
    await useSession(page, artist);
    await page.goto('/settings/account');
    const card = page.getByRole('region', { name: 'Import your work' });
    await card
      .locator('input[type="file"]')
      .setInputFiles({ name: 'portfolio.zip', mimeType: 'application/zip', buffer: zip });

    await expect(card).toContainText(`From Share Arts: ${WORKS} works with ${WORKS} pictures`);
    await expect(card.getByRole('checkbox', { name: 'Keep the original dates' })).toBeChecked();
    await expect(card.getByRole('checkbox', { name: 'Turn caption hashtags into tags' })).toBeChecked();
    await expect(card.getByRole('listitem').first()).toContainText('Harbour 1 #harbour');
    await card.getByRole('button', { name: `Import ${WORKS} works` }).click();

    // The bar shows at once (queued), then moves to the end.
    await expect(card.getByRole('progressbar')).toBeVisible();
    await expect(card.getByRole('status')).toContainText(`Done: ${WORKS} works imported from Share Arts`, {
      timeout: 60_000,
    });
    await expect(card.getByRole('progressbar')).toHaveCount(0);

    // Each work imported has its link; it opens the work.
    await card.getByText('Imported works').click();
    const link = card.getByRole('link', { name: 'Harbour 2 #harbour' });
    await expect(link).toBeVisible();
    await expectNoAxeViolations(page);
    await link.click();
    await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('img', { name: 'Harbour study 2' }).first()).toBeVisible();
  });
}

// The profile's choice (issue 40, session 24): off by default; chosen, the archive's bio replaces the artist's.
test("the archive's bio, chosen in the preview, becomes the artist's", async ({ page, request }) => {
  test.setTimeout(90_000);
  const BIO = 'Ink and harbours, drawn daily.';
  const { zip } = await exportedPortfolio(request, BIO);
  const artist = await createUser(request);
  await useSession(page, artist);
  await page.goto('/settings/account');
  const card = page.getByRole('region', { name: 'Import your work' });
  await card
    .locator('input[type="file"]')
    .setInputFiles({ name: 'portfolio.zip', mimeType: 'application/zip', buffer: zip });
  await expect(card).toContainText(`From Share Arts: ${WORKS} works with ${WORKS} pictures`);

  const profile = card.getByRole('checkbox', { name: 'Use the bio and photo from the archive' });
  await expect(profile).not.toBeChecked();
  await expect(card).toContainText(`The archive holds a bio, “${BIO}”: chosen, it replaces yours.`);
  await profile.check();
  await expect(profile).toBeChecked();
  await card.getByRole('button', { name: `Import ${WORKS} works` }).click();

  await expect(card.getByRole('status')).toContainText(`Done: ${WORKS} works imported from Share Arts`, {
    timeout: 60_000,
  });
  await expect(card).toContainText('Your bio was set from the archive.');
  // The account's bio is the archive's, on the server and on the profile.
  const verified = await request.post('/api/auth/verify', { data: { encodedToken: artist.token } });
  expect(((await verified.json()) as { user: { bio: string } }).user.bio).toBe(BIO);
  await page.goto(`/${artist.username}`);
  await expect(page.getByText(BIO, { exact: true })).toBeVisible();
});

test('a closed tab finds its import again in Settings', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { zip } = await exportedPortfolio(request);
  const artist = await createUser(request);
  const uploaded = await request.post('/api/imports', {
    headers: authOf(artist),
    multipart: { file: { name: 'portfolio.zip', mimeType: 'application/zip', buffer: zip } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const { _id } = ((await uploaded.json()) as { import: { _id: string } }).import;
  const started = await request.post(`/api/imports/${_id}/start`, { headers: authOf(artist), data: {} });
  expect(started.status()).toBe(202);

  await useSession(page, artist);
  await page.goto('/settings/account');
  const card = page.getByRole('region', { name: 'Import your work' });
  await expect(card.getByRole('status')).toContainText(`Done: ${WORKS} works imported`, { timeout: 60_000 });
});
