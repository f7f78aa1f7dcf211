// Download your data (issue 24): Settings' button hands a one-time link to Chromium's own download
// manager, and the zip it saves holds the profile and every original picture, byte for byte.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import yauzl from 'yauzl';
import { authOf, createUser, expectNoAxeViolations, useSession } from './support/helpers.ts';

const PICTURE = path.join(import.meta.dirname, '../apps/server/src/modules/media/fixtures/art.png');

/** Every entry of the zip file at `file`, by name. */
function unzip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('Settings downloads a zip of your data with your profile and your pictures', async ({ page, request }) => {
  const user = await createUser(request);
  const picture = await readFile(PICTURE);
  const uploaded = await request.post('/api/media', {
    headers: authOf(user),
    multipart: { purpose: 'post', file: { name: 'harbour.png', mimeType: 'image/png', buffer: picture } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const mediaId = ((await uploaded.json()) as { media: { _id: string } }).media._id;
  const posted = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: { content: 'A harbour at dawn', mediaIds: [mediaId] },
  });
  expect(posted.status(), await posted.text()).toBe(201);

  await useSession(page, user);
  await page.goto('/settings/account');
  const card = page.getByRole('region', { name: 'Download your data' });
  await expect(card).toContainText('the original of every picture you uploaded');

  const downloading = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download your data' }).click();
  const download = await downloading;
  const day = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toBe(`share-arts-${user.username}-${day}.zip`);
  await expect(card.getByRole('status')).toContainText('Your download has started');
  // Still on Settings: the browser saved the file, the page did not navigate.
  await expect(page).toHaveURL(/\/settings\/account$/);

  const entries = await unzip(await download.path());
  const profile = JSON.parse(entries.get('profile.json')!.toString('utf8')) as { username: string };
  expect(profile.username).toBe(user.username);
  const posts = JSON.parse(entries.get('posts.json')!.toString('utf8')) as {
    content: string;
    pictures: { file: string; originalName: string }[];
  }[];
  expect(posts).toHaveLength(1);
  expect(posts[0]!.content).toBe('A harbour at dawn');
  expect(posts[0]!.pictures[0]!.originalName).toBe('harbour.png');
  expect(entries.get(posts[0]!.pictures[0]!.file)!.equals(picture)).toBe(true);
  expect(entries.has('README.txt')).toBe(true);

  await expectNoAxeViolations(page);
});
