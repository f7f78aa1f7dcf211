import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { LIMITS, type Import, type User } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createTestApp, multipart, readStored, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * The profile's bio and photo from an archive, on request (issue 40): each format's profile is read and shown in the
 * preview; left off, the account's profile stays; chosen, the bio replaces it and the photo becomes the account's
 * (an avatar upload, as from Settings); a photo that is not a picture is reported and the works come all the same.
 */

let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-imports-profile-'));
  ctx = await createTestApp({ config: { dataDir } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });

const picture = (r: number, format: 'jpeg' | 'png' = 'jpeg', size = 48) => {
  const flat = sharp({ create: { width: size, height: size, channels: 3, background: { r, g: 80, b: 160 } } });
  return (format === 'png' ? flat.png() : flat.jpeg()).toBuffer();
};

async function zipOf(entries: [name: string, data: Buffer | string][]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of entries) zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function preview(who: SignedUp, data: Buffer): Promise<Import> {
  const { payload, contentType } = multipart([
    { name: 'file', data, filename: 'archive.zip', contentType: 'application/zip' },
  ]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/imports',
    payload,
    headers: { ...auth(who), 'content-type': contentType },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().import;
}

async function run(who: SignedUp, id: string, options: object): Promise<Import> {
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/imports/${id}/start`,
    headers: auth(who),
    payload: options,
  });
  expect(started.statusCode, started.body).toBe(202);
  for (let waited = 0; waited < 120_000; waited += 100) {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: auth(who) });
    const current = response.json().import as Import;
    if (current.state === 'done' || current.state === 'failed') return current;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the import did not finish in 2 minutes');
}

async function userOf(who: SignedUp): Promise<User> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/users/${who.user._id}`, headers: auth(who) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().user;
}

/** The account's photo as stored: its media row's purpose and its original's bytes. */
async function photoOf(who: SignedUp): Promise<{ purpose: string; original: Buffer | undefined } | null> {
  const [row] = await queryRows<{ purpose: string; original_file: string }>(
    ctx.database.db,
    sql`select m.purpose, m.original_file from users u join media m on m.id = u.photo_media_id
        where u.id = ${who.user._id}::uuid`,
  );
  return row ? { purpose: row.purpose, original: await readStored(ctx, row.original_file) } : null;
}

const worksCount = async (who: SignedUp) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from posts where author_id = ${who.user._id}::uuid`,
    )
  )[0]!.n;

/** Instagram's current layout with its personal_information.json, the bio written as Instagram writes UTF-8. */
async function instagramArchive(who: SignedUp, bio: string, photo: Buffer | null, top = '') {
  const work = await picture(90);
  const mojibake = Buffer.from(bio, 'utf8').toString('latin1');
  return zipOf([
    [
      `${top}your_instagram_activity/media/posts_1.json`,
      JSON.stringify([
        { media: [{ uri: 'media/posts/202301/a.jpg', creation_timestamp: 1674000000, title: 'Harbour' }] },
      ]),
    ],
    [`${top}media/posts/202301/a.jpg`, work],
    ...(photo ? ([[`${top}media/other/profile_1.jpg`, photo]] as [string, Buffer][]) : []),
    [
      `${top}personal_information/personal_information/personal_information.json`,
      JSON.stringify({
        profile_user: [
          {
            media_map_data: { 'Profile Photo': { uri: 'media/other/profile_1.jpg', creation_timestamp: 1600000000 } },
            string_map_data: {
              Username: { href: '', value: `ig_${who.user.username}`, timestamp: 0 },
              Bio: { href: '', value: mojibake, timestamp: 0 },
            },
          },
        ],
      }),
    ],
  ]);
}

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** A Mastodon archive (avatar.png beside actor.json, as Mastodon writes it) or a Pixelfed one (an absolute icon URL). */
async function fediverseArchive(who: SignedUp, kind: 'mastodon' | 'pixelfed', summary: string, photo: Buffer) {
  const host = `${kind}.example`;
  const actor = `https://${host}/users/${kind}_${who.user.username}`;
  const noteId = kind === 'pixelfed' ? `https://${host}/p/${who.user.username}/1` : `${actor}/statuses/1`;
  const icon =
    kind === 'mastodon'
      ? { type: 'Image', mediaType: 'image/png', url: 'avatar.png' }
      : { type: 'Image', mediaType: 'image/png', url: `https://${host}/storage/avatars/1/avatar.png` };
  return zipOf([
    ['actor.json', JSON.stringify({ '@context': [], id: actor, type: 'Person', summary, icon })],
    [
      'outbox.json',
      JSON.stringify({
        type: 'OrderedCollection',
        orderedItems: [
          {
            id: `${noteId}/activity`,
            type: 'Create',
            actor,
            to: [PUBLIC],
            object: {
              id: noteId,
              url: noteId,
              type: 'Note',
              attributedTo: actor,
              published: '2022-06-01T08:00:00Z',
              to: [PUBLIC],
              content: '<p>Harbour</p>',
              attachment: [{ type: 'Image', mediaType: 'image/jpeg', url: 'media_attachments/files/1/a.jpg' }],
            },
          },
        ],
      }),
    ],
    ['media_attachments/files/1/a.jpg', await picture(60)],
    [kind === 'mastodon' ? 'avatar.png' : 'storage/avatars/1/avatar.png', photo],
  ]);
}

describe("the archive's profile", () => {
  it('Instagram: shown in the preview; left off, the profile stays; chosen, the bio and photo are set', async () => {
    const ana = await signUp(ctx.app);
    const photo = await picture(200, 'jpeg', 320);
    const before = await userOf(ana);
    const shown = await preview(ana, await instagramArchive(ana, 'Café painter, harbours and ink', photo));
    expect(shown.preview.profile).toEqual({ bio: 'Café painter, harbours and ink', photo: true });
    expect(shown.options.profile).toBe(false);

    // Left off (the default): the works come, the profile stays.
    const off = await run(ana, shown._id, {});
    expect(off.state).toBe('done');
    expect(off.profile).toBeNull();
    expect(await worksCount(ana)).toBe(1);
    const unchanged = await userOf(ana);
    expect(unchanged.bio).toBe(before.bio);
    expect(unchanged.userPhoto).toBe(before.userPhoto);
    expect(await photoOf(ana)).toBeNull();

    // The same archive again, the profile chosen: nothing is imported twice, and the profile is set.
    const again = await preview(ana, await instagramArchive(ana, 'Café painter, harbours and ink', photo));
    const on = await run(ana, again._id, { profile: true });
    expect(on.profile).toEqual({ bio: true, photo: true, problem: null });
    expect(on.progress).toMatchObject({ imported: 0, skipped: 1 });
    const after = await userOf(ana);
    expect(after.bio).toBe('Café painter, harbours and ink');
    expect(after.userPhoto).not.toBe(before.userPhoto);
    expect(after.userPhoto).toMatch(/^\/media\//);
    const stored = await photoOf(ana);
    expect(stored?.purpose).toBe('avatar');
  }, 120_000);

  it("Instagram's older layout inside a top folder: a long bio is clipped to the site's limit", async () => {
    const bo = await signUp(ctx.app);
    const long = `${'Ink '.repeat(200)}end`;
    const shown = await preview(bo, await instagramArchive(bo, long, await picture(40, 'png', 200), 'bo_export/'));
    // The preview shows its first words only, cut between two words.
    expect(shown.preview.profile!.bio.endsWith('Ink…')).toBe(true);
    expect([...shown.preview.profile!.bio].length).toBeLessThanOrEqual(121);
    const done = await run(bo, shown._id, { profile: true });
    expect(done.profile).toEqual({ bio: true, photo: true, problem: null });
    const user = await userOf(bo);
    expect([...user.bio!].length).toBeLessThanOrEqual(LIMITS.bioMax);
    expect(user.bio).toBe('Ink '.repeat(200).slice(0, LIMITS.bioMax).trim());
    expect((await photoOf(bo))?.purpose).toBe('avatar');
  }, 120_000);

  for (const kind of ['mastodon', 'pixelfed'] as const) {
    it(`${kind}: the actor's summary as text and its icon from the archive`, async () => {
      const cy = await signUp(ctx.app);
      const photo = await picture(10, 'png', 256);
      const summary =
        '<p>Painter &amp; printmaker</p><p>Lives by the <a href="https://x.example">sea</a><br>\u0007Hi</p>';
      const shown = await preview(cy, await fediverseArchive(cy, kind, summary, photo));
      expect(shown.source).toBe(kind);
      expect(shown.preview.profile).toEqual({ bio: 'Painter & printmaker Lives by the sea Hi', photo: true });
      const done = await run(cy, shown._id, { profile: true });
      expect(done.profile).toEqual({ bio: true, photo: true, problem: null });
      expect(done.progress.imported).toBe(1);
      // Paragraphs and line breaks kept, the link as its text, a control character dropped.
      expect((await userOf(cy)).bio).toBe('Painter & printmaker\n\nLives by the sea\nHi');
      const stored = await photoOf(cy);
      expect(stored?.purpose).toBe('avatar');
      // The original kept is the archive's picture (a PNG without metadata stays as it was).
      expect(stored?.original?.subarray(0, 8)).toEqual(photo.subarray(0, 8));
    }, 120_000);
  }

  it("Share Arts: an export's bio and photo come to a fresh account", async () => {
    const di = await signUp(ctx.app);
    const photo = await picture(70, 'png', 300);
    const { payload, contentType } = multipart([
      { name: 'purpose', data: 'avatar' },
      { name: 'file', data: photo, filename: 'me.png', contentType: 'image/png' },
    ]);
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload,
      headers: { ...auth(di), 'content-type': contentType },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const edited = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: auth(di),
      payload: { userData: { bio: 'Etchings of the north\nand its birds', userPhoto: uploaded.json().media._id } },
    });
    expect(edited.statusCode, edited.body).toBeLessThan(300);
    const link = await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: auth(di) });
    const exported = await ctx.app.inject({ method: 'GET', url: link.json().url });
    expect(exported.statusCode).toBe(200);

    const ed = await signUp(ctx.app);
    const shown = await preview(ed, exported.rawPayload);
    expect(shown.preview.profile).toEqual({ bio: 'Etchings of the north and its birds', photo: true });
    const done = await run(ed, shown._id, { profile: true });
    expect(done.profile).toEqual({ bio: true, photo: true, problem: null });
    expect((await userOf(ed)).bio).toBe('Etchings of the north\nand its birds');
    const mine = await photoOf(di);
    const theirs = await photoOf(ed);
    expect(theirs?.purpose).toBe('avatar');
    // The export's original goes through the pipeline again and comes out byte for byte.
    expect(theirs?.original).toEqual(mine?.original);
  }, 120_000);

  it('a photo that is not a picture is reported; the bio is set and the works come all the same', async () => {
    const fe = await signUp(ctx.app);
    const before = await userOf(fe);
    const notAPicture = Buffer.from('<html><script>alert(1)</script></html>'.repeat(20));
    const shown = await preview(fe, await instagramArchive(fe, 'Painter', notAPicture));
    expect(shown.preview.profile).toEqual({ bio: 'Painter', photo: true });
    const done = await run(fe, shown._id, { profile: true });
    expect(done.state).toBe('done');
    expect(done.progress.imported).toBe(1);
    expect(done.profile).toMatchObject({ bio: true, photo: false });
    expect(done.profile!.problem).toMatch(/^The profile photo could not be read: \S/);
    const after = await userOf(fe);
    expect(after.bio).toBe('Painter');
    expect(after.userPhoto).toBe(before.userPhoto);
    expect(await photoOf(fe)).toBeNull();
  }, 120_000);

  it('an archive without a profile offers no choice, and the choice made anyway changes nothing', async () => {
    const gi = await signUp(ctx.app);
    const archive = await zipOf([
      [
        'your_instagram_activity/media/posts_1.json',
        JSON.stringify([{ media: [{ uri: 'media/posts/a.jpg', creation_timestamp: 1674000000, title: '' }] }]),
      ],
      ['media/posts/a.jpg', await picture(33)],
      // A profile whose photo is not in the archive and whose bio is empty holds nothing to apply.
      [
        'personal_information/personal_information/personal_information.json',
        JSON.stringify({
          profile_user: [{ media_map_data: { 'Profile Photo': { uri: 'media/other/gone.jpg' } }, string_map_data: {} }],
        }),
      ],
    ]);
    const before = await userOf(gi);
    const shown = await preview(gi, archive);
    expect(shown.preview.profile).toBeNull();
    const done = await run(gi, shown._id, { profile: true });
    expect(done.profile).toBeNull();
    const after = await userOf(gi);
    expect([after.bio, after.userPhoto]).toEqual([before.bio, before.userPhoto]);
  }, 120_000);
});
