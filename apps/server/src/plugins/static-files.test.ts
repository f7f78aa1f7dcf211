import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
let outside: string;

beforeAll(async () => {
  // The media folder's own behaviour: the local driver whatever MEDIA_STORE the suite runs with.
  ctx = await createTestApp({ config: { mediaStore: { kind: 'local' } } });
  outside = await mkdtemp(path.join(os.tmpdir(), 'share-arts-outside-'));
  await writeFile(path.join(outside, 'secret.txt'), 'a secret outside the media folder');
  await mkdir(path.join(outside, 'folder'));
  await writeFile(path.join(outside, 'folder', 'inner.jpg'), 'inside a linked folder');
  const media = ctx.config.mediaDir;
  await writeFile(path.join(media, 'plain.jpg'), 'a plain file');
  await symlink(path.join(outside, 'secret.txt'), path.join(media, 'link.jpg'));
  await symlink(path.join(media, 'plain.jpg'), path.join(media, 'inner-link.jpg'));
  await symlink(path.join(outside, 'folder'), path.join(media, 'linked-folder'));
  await mkdir(path.join(media, 'sub'));
  await writeFile(path.join(media, 'sub', 'nested.jpg'), 'in a sub-folder');
});
afterAll(async () => {
  await ctx.close();
  await rm(outside, { recursive: true, force: true });
});

const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => ctx.app.inject({ method, url });

describe('GET /media/<file>', () => {
  it('serves a regular file of the media folder', async () => {
    const response = await get('/media/plain.jpg');
    expect([response.statusCode, response.body]).toEqual([200, 'a plain file']);
  });

  it.each([
    ['a symlink to a file outside the folder', '/media/link.jpg'],
    ['a symlink to a file inside the folder', '/media/inner-link.jpg'],
    ['a file under a symlinked folder', '/media/linked-folder/inner.jpg'],
    ['the same, percent-encoded', '/media/linked-folder%2Finner.jpg'],
    ['a file in a sub-folder (media files are flat)', '/media/sub/nested.jpg'],
    ['a folder', '/media/sub'],
  ])('never follows links or leaves the flat folder: %s is a 404', async (_name, url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await get(url, method);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.body).not.toContain('secret');
      expect(response.body).not.toContain('inside a linked folder');
      if (method === 'GET') expect(response.json()).toEqual({ errors: ['No such media file.'] });
    }
  });

  it('still serves the shipped default pictures', async () => {
    const response = await get('/media/defaults/default-avatar.png');
    expect([response.statusCode, response.headers['content-type']]).toEqual([200, 'image/png']);
  });
});
