import { randomUUID } from 'node:crypto';
import { readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, storedFiles, type SignedUp, type TestContext } from '../../test/helpers.js';
import { createMediaService, type MediaService } from './media.service.js';
import { ROWLESS_FILE_GRACE_MS, UNATTACHED_GRACE_MS } from './media.sweeper.js';
import { filesOf } from './media.storage.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const HOUR = 60 * 60 * 1000;

let ctx: TestContext;
let ana: SignedUp;
let media: MediaService;
let picture: Buffer;
// The sweep's clock; the database's own clock stamps the rows.
let clock = Date.now();

beforeAll(async () => {
  ctx = await createTestApp();
  ana = await signUp(ctx.app);
  picture = await readFile(path.join(FIXTURES, 'art.webp'));
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  // The app's storage: the media folder, or the bucket with MEDIA_STORE=s3.
  media = createMediaService({ db: ctx.database.db, storage: ctx.storage, log: quiet, now: () => clock });
});
afterAll(() => ctx.close());

const files = async () => new Set(await storedFiles(ctx));
const served = async (file: string) => (await ctx.app.inject({ method: 'GET', url: `/media/${file}` })).statusCode;
const auth = () => ({ authorization: ana.token });

describe('the media sweep', () => {
  it('deletes uploads attached to nothing after 24 h, and keeps those on a post or a profile', async () => {
    const [loose, onPost, asAvatar] = await Promise.all([
      media.upload({ ownerId: ana.user._id, data: picture }),
      media.upload({ ownerId: ana.user._id, data: picture }),
      media.upload({ ownerId: ana.user._id, data: picture, purpose: 'avatar' }),
    ]);
    const post = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: auth(),
      payload: { content: 'with a picture', mediaId: onPost.id },
    });
    expect(post.statusCode, post.body).toBe(201);
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: auth(),
      payload: { userData: { userPhoto: asAvatar.id } },
    });
    expect(edit.statusCode, edit.body).toBe(201);

    clock = Date.now() + UNATTACHED_GRACE_MS - HOUR;
    expect(await media.sweep()).toEqual({ rows: 0, files: 0 });
    expect(await media.findById(loose.id)).toBeDefined();

    clock = Date.now() + UNATTACHED_GRACE_MS + HOUR;
    expect((await media.sweep()).rows).toBe(1);
    expect(await media.findById(loose.id)).toBeUndefined();
    const left = await files();
    for (const file of filesOf(loose)) expect(left.has(file), file).toBe(false);
    for (const row of [onPost, asAvatar]) {
      expect(await media.findById(row.id)).toBeDefined();
      for (const file of filesOf(row)) expect(left.has(file), file).toBe(true);
    }
  });

  it('retries a delete whose files were left behind: files without a row go after 10 minutes', async () => {
    const row = await media.upload({ ownerId: ana.user._id, data: picture });
    // The row is deleted but its files stay (the removal failed, or the process stopped in between).
    await ctx.database.db.execute(sql`delete from media where id = ${row.id}::uuid`);
    expect(await served(row.originalFile)).toBe(200);

    clock = Date.now();
    expect((await media.sweep()).files).toBe(0);
    clock = Date.now() + ROWLESS_FILE_GRACE_MS + 1000;
    expect((await media.sweep()).files).toBe(filesOf(row).length);
    expect(await served(row.originalFile)).toBe(404);
  });

  it('knows the names of P3 and animated variants: their files without a row go too', async () => {
    const rows = await Promise.all(
      ['p3-colours.png', 'animated.webp'].map(async (name) =>
        media.upload({ ownerId: ana.user._id, data: await readFile(path.join(FIXTURES, name)) }),
      ),
    );
    const names = rows.flatMap(filesOf);
    expect(names.some((file) => file.endsWith('-p3.avif'))).toBe(true);
    expect(names.some((file) => file.endsWith('-animated.webp'))).toBe(true);
    for (const row of rows) await ctx.database.db.execute(sql`delete from media where id = ${row.id}::uuid`);
    clock = Date.now() + ROWLESS_FILE_GRACE_MS + 1000;
    expect((await media.sweep()).files).toBeGreaterThanOrEqual(names.length);
    const left = await files();
    for (const file of names) expect(left.has(file), file).toBe(false);
  });

  it("removes the files of a deleted account's pictures", async () => {
    const gone = await signUp(ctx.app);
    const row = await media.upload({ ownerId: gone.user._id, data: picture });
    await ctx.database.db.execute(sql`delete from users where id = ${gone.user._id}::uuid`);
    clock = Date.now() + ROWLESS_FILE_GRACE_MS + 1000;
    await media.sweep();
    const left = await files();
    for (const file of filesOf(row)) expect(left.has(file), file).toBe(false);
  });

  // Folder-only: links and an operator's files in the media folder (media.s3.test.ts has the bucket's).
  it.skipIf(process.env.MEDIA_STORE === 's3')(
    'leaves alone files it did not name, an upload still being written, and what links point to',
    async () => {
      const dir = ctx.config.mediaDir;
      await writeFile(path.join(dir, 'notes.txt'), 'an operator put this here');
      const young = `${randomUUID()}-320.jpg`;
      await writeFile(path.join(dir, young), 'written moments ago, its row not yet inserted');
      const target = path.join(dir, 'notes.txt');
      const link = `${randomUUID()}-640.jpg`;
      await symlink(target, path.join(dir, link));
      const old = new Date(Date.now() - 2 * HOUR);
      await utimes(target, old, old);
      clock = Date.now() + ROWLESS_FILE_GRACE_MS / 2;
      await media.sweep();
      const left = new Set(await readdir(dir));
      expect([left.has('notes.txt'), left.has(young)]).toEqual([true, true]);
      // The link, a name the server could have made, is removed as rowless; what it pointed to stays.
      clock = Date.now() + ROWLESS_FILE_GRACE_MS + 1000;
      await media.sweep();
      const after = new Set(await readdir(dir));
      expect([after.has('notes.txt'), after.has(young), after.has(link)]).toEqual([true, false, false]);
    },
  );
});
