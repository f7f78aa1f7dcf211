import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { IMPORT_ERRORS, type Import, type ImportItem } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import {
  createTestApp,
  errorOf,
  liveSocket,
  multipart,
  readStored,
  signUp,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';

/**
 * Bring your work (issue 40): archives made here in each format (Instagram's current and older layouts, Mastodon,
 * Pixelfed, Share Arts' own export) import with their order, dates, alt texts and warnings; twice without
 * duplicates; the round trip from this server's export into a fresh account is equal work for work; bad archives
 * are refused with a sentence and leave nothing behind.
 */

let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-imports-'));
  ctx = await createTestApp({ config: { dataDir } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });

/** A small picture of one colour, as a JPEG or a PNG. */
const picture = (r: number, format: 'jpeg' | 'png' = 'jpeg') => {
  const flat = sharp({ create: { width: 48, height: 32, channels: 3, background: { r, g: 80, b: 160 } } });
  return (format === 'png' ? flat.png() : flat.jpeg()).toBuffer();
};

type Entry = [name: string, data: Buffer | string, options?: { mode?: number; compress?: boolean }];

/** A zip of these entries, as yazl writes it. */
async function zipOf(entries: Entry[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data, options] of entries) {
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, {
      ...(options?.mode ? { mode: options.mode } : {}),
      compress: options?.compress ?? true,
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function upload(who: SignedUp, data: Buffer, filename = 'archive.zip') {
  const { payload, contentType } = multipart([{ name: 'file', data, filename, contentType: 'application/zip' }]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/imports',
    payload,
    headers: { ...auth(who), 'content-type': contentType },
  });
}

async function preview(who: SignedUp, data: Buffer): Promise<Import> {
  const response = await upload(who, data);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().import;
}

async function get(who: SignedUp, id: string): Promise<Import> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: auth(who) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().import;
}

/** Starts a previewed import and waits for its job to finish. */
async function run(who: SignedUp, id: string, options: object = {}): Promise<Import> {
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/imports/${id}/start`,
    headers: auth(who),
    payload: options,
  });
  expect(started.statusCode, started.body).toBe(202);
  for (let waited = 0; waited < 120_000; waited += 100) {
    const current = await get(who, id);
    if (current.state === 'done' || current.state === 'failed') return current;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the import did not finish in 2 minutes');
}

async function items(who: SignedUp, id: string, outcome?: 'imported' | 'skipped'): Promise<ImportItem[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/imports/${id}/items${outcome ? `?outcome=${outcome}` : ''}`,
    headers: auth(who),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
}

interface WorkRow {
  id: string;
  content: string;
  tags: string[];
  created_at: string;
  content_warning: string | null;
  licence: string;
  comment_policy: string;
  imported_from: string | null;
  pictures: { alt: string; name: string; file: string }[];
}

/** The account's works, oldest first, each with its pictures in order. */
async function worksOf(who: SignedUp): Promise<WorkRow[]> {
  return queryRows<WorkRow>(
    ctx.database.db,
    sql`select p.id, p.content, p.tags, p.created_at, p.content_warning, p.licence, p.comment_policy, p.imported_from,
          coalesce((select json_agg(json_build_object('alt', m.alt, 'name', m.original_name, 'file', m.original_file)
                      order by pm.position)
                    from post_media pm join media m on m.id = pm.media_id where pm.post_id = p.id), '[]') as pictures
        from posts p where p.author_id = ${who.user._id}::uuid order by p.created_at, p.id`,
  );
}

const iso = (value: string) => new Date(value).toISOString();

describe('Instagram', () => {
  it('imports the current layout in date order, carousels in order, videos skipped and counted', async () => {
    const ana = await signUp(ctx.app);
    const [red, green, blue, grey] = await Promise.all([picture(200), picture(100), picture(30), picture(250)]);
    // Instagram writes UTF-8 as one escaped character per byte: "Café" is "Caf\u00c3\u00a9".
    const mojibake = Buffer.from('Café at dawn #sketch', 'utf8').toString('latin1');
    const posts = [
      // Newest first, as Instagram lists them.
      {
        media: [
          { uri: 'media/posts/202302/c1.jpg', creation_timestamp: 1675000000, title: '' },
          { uri: 'media/posts/202302/c2.jpg', creation_timestamp: 1675000000, title: '' },
          {
            uri: 'media/posts/202302/clip.mp4',
            creation_timestamp: 1675000000,
            title: '',
            media_metadata: { video_metadata: {} },
          },
        ],
        title: 'A carousel #ink',
        creation_timestamp: 1675000000,
      },
      { media: [{ uri: 'media/posts/202301/v.mp4', creation_timestamp: 1674000000, title: 'Only a video' }] },
      { media: [{ uri: 'media/posts/202212/a.jpg', creation_timestamp: 1670000000, title: mojibake }] },
    ];
    const archive = await zipOf([
      ['your_instagram_activity/media/posts_1.json', JSON.stringify(posts, null, 2)],
      ['media/posts/202302/c1.jpg', red, { compress: false }],
      ['media/posts/202302/c2.jpg', green, { compress: false }],
      ['media/posts/202302/clip.mp4', Buffer.alloc(64, 1)],
      ['media/posts/202301/v.mp4', Buffer.alloc(64, 2)],
      ['media/posts/202212/a.jpg', blue, { compress: false }],
      ['media/other/unused.jpg', grey],
      [
        'personal_information/personal_information/personal_information.json',
        JSON.stringify({ profile_user: [{ string_map_data: { Username: { value: `ana_${ana.user.username}` } } }] }),
      ],
    ]);
    const shown = await preview(ana, archive);
    expect(shown).toMatchObject({
      source: 'instagram',
      state: 'ready',
      preview: {
        works: 2,
        pictures: 3,
        skipped: 1,
        videos: 2,
        from: '2022-12-02T16:53:20+00:00',
        to: '2023-01-29T13:46:40+00:00',
      },
      options: { keepDates: true, hashtagsAsTags: true, markImported: false },
    });
    expect(shown.preview.first.map((work) => work.caption)).toEqual(['Café at dawn #sketch', 'A carousel #ink']);

    const done = await run(ana, shown._id, { keepDates: true, hashtagsAsTags: true, markImported: true });
    expect(done.state).toBe('done');
    expect(done.progress).toMatchObject({ postsDone: 3, postsTotal: 3, imported: 2, skipped: 1 });
    expect(done.progress.picturesDone).toBe(done.progress.picturesTotal);

    const works = await worksOf(ana);
    expect(works.map((work) => [work.content, iso(work.created_at), work.tags, work.imported_from])).toEqual([
      ['Café at dawn #sketch', '2022-12-02T16:53:20.000Z', ['sketch'], 'Instagram'],
      ['A carousel #ink', '2023-01-29T13:46:40.000Z', ['ink'], 'Instagram'],
    ]);
    expect(works[1]!.pictures.map((p) => p.name)).toEqual(['c1.jpg', 'c2.jpg']);
    // The carousel's pictures are its own, in its order: the first is the red one.
    const first = await readStored(ctx, works[1]!.pictures[0]!.file);
    expect((await sharp(first!).stats()).channels[0]!.mean).toBeGreaterThan(150);

    const skipped = await items(ana, shown._id, 'skipped');
    expect(skipped.map((item) => [item.caption, item.reason])).toEqual([
      ['Only a video', 'a video: Share Arts keeps pictures'],
    ]);
    const imported = await items(ana, shown._id, 'imported');
    expect(imported.map((item) => item.postId)).toEqual(works.map((work) => work.id));
    expect(imported[1]!.reason).toBe('picture 3: a video: Share Arts keeps pictures');
    // The archive's files are gone once it is imported.
    expect((await readdir(path.join(dataDir, 'imports'))).filter((name) => name.startsWith(shown._id))).toEqual([]);
  }, 120_000);

  it('imports the older layout (content/posts_1.json) inside a top folder, and the same archive twice imports nothing twice', async () => {
    const bo = await signUp(ctx.app);
    const posts = [
      { media: [{ uri: 'media/posts/201905/b.jpg', creation_timestamp: 1557000000, title: 'Second' }] },
      { media: [{ uri: 'media/posts/201904/a.png', creation_timestamp: 1556000000, title: 'First' }] },
    ];
    const archive = await zipOf([
      ['bo_20240101/content/posts_1.json', JSON.stringify(posts)],
      ['bo_20240101/media/posts/201905/b.jpg', await picture(60)],
      ['bo_20240101/media/posts/201904/a.png', await picture(90, 'png')],
    ]);
    const first = await run(bo, (await preview(bo, archive))._id, { keepDates: true });
    expect(first.progress).toMatchObject({ imported: 2, skipped: 0 });
    const again = await run(bo, (await preview(bo, archive))._id, { keepDates: true });
    expect(again.progress).toMatchObject({ imported: 0, skipped: 2 });
    expect((await items(bo, again._id)).map((item) => [item.outcome, item.reason])).toEqual([
      ['already', 'imported already'],
      ['already', 'imported already'],
    ]);
    const works = await worksOf(bo);
    expect(works.map((work) => [work.content, iso(work.created_at)])).toEqual([
      ['First', '2019-04-23T06:13:20.000Z'],
      ['Second', '2019-05-04T20:00:00.000Z'],
    ]);
    // The grid shows them in their place in time, newest first.
    const grid = await ctx.app.inject({ method: 'GET', url: `/api/posts/user/${bo.user.username}` });
    expect(grid.json().posts.map((post: { content: string }) => post.content)).toEqual(['Second', 'First']);
    const [user] = await queryRows<{ post_count: number }>(
      ctx.database.db,
      sql`select post_count from users where id = ${bo.user._id}::uuid`,
    );
    expect(user!.post_count).toBe(2);
  }, 120_000);

  it('refuses an HTML export with a sentence saying how to ask for JSON', async () => {
    const cy = await signUp(ctx.app);
    const response = await upload(
      cy,
      await zipOf([
        ['start_here.html', '<html></html>'],
        ['your_instagram_activity/media/posts_1.html', '<html></html>'],
      ]),
    );
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toBe(IMPORT_ERRORS.instagramHtml);
  });
});

/** A Mastodon or Pixelfed archive of `actor` with these activities. */
async function fediverseArchive(actor: string, items: object[], files: Entry[], context: unknown = []) {
  return zipOf([
    ['actor.json', JSON.stringify({ '@context': context, id: actor, type: 'Person', preferredUsername: 'ana' })],
    ['outbox.json', JSON.stringify({ type: 'OrderedCollection', orderedItems: items })],
    ...files,
  ]);
}

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('Mastodon and Pixelfed', () => {
  it('imports the own public posts with their alt texts and warnings; boosts, replies and private posts are skipped', async () => {
    const dee = await signUp(ctx.app);
    const actor = `https://mastodon.example/users/dee_${dee.user.username}`;
    const note = (id: string, published: string, extra: Record<string, unknown>) => {
      const object = {
        id: `${actor}/statuses/${id}`,
        type: 'Note',
        attributedTo: actor,
        published,
        to: [PUBLIC],
        cc: [`${actor}/followers`],
        inReplyTo: null,
        content: '',
        attachment: [],
        ...extra,
      };
      return { id: `${object.id}/activity`, type: 'Create', actor, published, to: object.to, cc: object.cc, object };
    };
    const archive = await fediverseArchive(
      actor,
      [
        note('1', '2021-03-01T10:00:00Z', {
          content:
            '<p>Night study &amp; a <a href="https://mastodon.example/tags/moon">#<span>moon</span></a></p><p>second line</p>',
          summary: 'eye strain',
          sensitive: true,
          attachment: [
            {
              type: 'Document',
              mediaType: 'image/png',
              url: '/media_attachments/files/000/001/original/n1.png',
              name: 'A moon over roofs',
            },
            {
              type: 'Document',
              mediaType: 'image/jpeg',
              url: 'media_attachments/files/000/002/original/n2.jpg',
              name: 'The same moon, closer',
            },
            {
              type: 'Document',
              mediaType: 'video/mp4',
              url: 'media_attachments/files/000/003/original/n3.mp4',
              name: '',
            },
          ],
        }),
        note('2', '2021-02-01T10:00:00Z', {
          content: '<p>Earlier</p>',
          attachment: [
            {
              type: 'Document',
              mediaType: 'image/jpeg',
              url: 'media_attachments/files/000/004/original/e.jpg',
              name: 'Early sketch',
            },
          ],
        }),
        {
          id: `${actor}/statuses/3/activity`,
          type: 'Announce',
          actor,
          published: '2021-02-02T00:00:00Z',
          object: 'https://elsewhere.example/notes/9',
        },
        note('4', '2021-02-03T10:00:00Z', {
          content: '<p>@bob nice</p>',
          inReplyTo: 'https://elsewhere.example/notes/9',
        }),
        note('5', '2021-02-04T10:00:00Z', {
          content: '<p>Followers only</p>',
          to: [`${actor}/followers`],
          cc: [],
          attachment: [
            {
              type: 'Document',
              mediaType: 'image/jpeg',
              url: 'media_attachments/files/000/005/original/f.jpg',
              name: '',
            },
          ],
        }),
        note('6', '2021-02-05T10:00:00Z', { content: '<p>Just words</p>' }),
      ],
      [
        ['media_attachments/files/000/001/original/n1.png', await picture(10, 'png')],
        ['media_attachments/files/000/002/original/n2.jpg', await picture(20)],
        ['media_attachments/files/000/003/original/n3.mp4', Buffer.alloc(10)],
        ['media_attachments/files/000/004/original/e.jpg', await picture(40)],
        ['media_attachments/files/000/005/original/f.jpg', await picture(50)],
      ],
    );
    const shown = await preview(dee, archive);
    expect(shown).toMatchObject({ source: 'mastodon', preview: { works: 2, pictures: 3, skipped: 4 } });
    const done = await run(dee, shown._id, { keepDates: true, hashtagsAsTags: true, markImported: false });
    expect(done.progress).toMatchObject({ imported: 2, skipped: 4 });
    const works = await worksOf(dee);
    expect(
      works.map((work) => [work.content, iso(work.created_at), work.content_warning, work.tags, work.imported_from]),
    ).toEqual([
      ['Earlier', '2021-02-01T10:00:00.000Z', null, [], null],
      ['Night study & a #moon\n\nsecond line', '2021-03-01T10:00:00.000Z', 'eye strain', ['moon'], null],
    ]);
    expect(works[1]!.pictures.map((p) => p.alt)).toEqual(['A moon over roofs', 'The same moon, closer']);
    expect(works[0]!.pictures.map((p) => p.alt)).toEqual(['Early sketch']);
    expect((await items(dee, shown._id, 'skipped')).map((item) => item.reason)).toEqual([
      "a boost of someone else's post",
      'a reply to someone else',
      'followers-only or direct on its server: not made public here',
      'no picture: Share Arts keeps works',
    ]);
  }, 120_000);

  it('reads a Pixelfed archive, and refuses an archive another account imported', async () => {
    const eve = await signUp(ctx.app);
    const actor = `https://pixelfed.example/users/eve_${eve.user.username}`;
    const archive = await fediverseArchive(
      actor,
      [
        {
          id: `${actor}/p/1/activity`,
          type: 'Create',
          actor,
          to: [PUBLIC],
          object: {
            id: `https://pixelfed.example/p/eve/1`,
            url: `https://pixelfed.example/p/eve/1`,
            type: 'Note',
            attributedTo: actor,
            published: '2022-06-01T08:00:00.000000Z',
            to: [PUBLIC],
            content: 'Harbour at noon',
            attachment: [
              {
                type: 'Image',
                mediaType: 'image/jpeg',
                url: 'https://pixelfed.example/storage/m/_v2/1/a.jpg',
                name: 'Boats',
              },
            ],
          },
        },
      ],
      [['storage/m/_v2/1/a.jpg', await picture(120)]],
    );
    const shown = await preview(eve, archive);
    expect(shown.source).toBe('pixelfed');
    await run(eve, shown._id);
    const works = await worksOf(eve);
    expect(works.map((work) => [work.content, iso(work.created_at), work.pictures[0]!.alt])).toEqual([
      ['Harbour at noon', '2022-06-01T08:00:00.000Z', 'Boats'],
    ]);
    const other = await signUp(ctx.app);
    const refused = await upload(other, archive);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toBe(IMPORT_ERRORS.someoneElses);
  }, 120_000);
});

describe("Share Arts' own export", () => {
  it('round trip: an export imported into a fresh account gives the same portfolio, originals byte for byte', async () => {
    const fay = await signUp(ctx.app);
    const originals = [await picture(11, 'png'), await picture(22), await picture(33, 'png')];
    const ids: string[] = [];
    for (const [i, data] of originals.entries()) {
      const { payload, contentType } = multipart([
        { name: 'alt', data: `Study ${i + 1}` },
        { name: 'file', data, filename: `study-${i + 1}.${i === 1 ? 'jpg' : 'png'}`, contentType: 'image/png' },
      ]);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/media',
        payload,
        headers: { ...auth(fay), 'content-type': contentType },
      });
      expect(response.statusCode, response.body).toBe(201);
      ids.push(response.json().media._id);
    }
    const post = async (payload: object) => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/posts',
        payload,
        headers: { ...auth(fay), prefer: 'return=minimal' },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().post._id as string;
    };
    await post({
      content: 'Two studies #charcoal',
      mediaIds: [ids[0], ids[1]],
      licence: 'cc-by',
      contentWarning: 'nudity',
    });
    const pinned = await post({ content: 'The third', mediaIds: [ids[2]], commentPolicy: 'following' });
    await post({ content: 'Words only' });
    const pin = await ctx.app.inject({ method: 'POST', url: `/api/posts/${pinned}/pin`, headers: auth(fay) });
    expect(pin.statusCode, pin.body).toBeLessThan(300);

    const link = await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: auth(fay) });
    const exported = await ctx.app.inject({ method: 'GET', url: link.json().url });
    expect(exported.statusCode).toBe(200);

    // The export of this very account is refused: its works are here already.
    const own = await upload(fay, exported.rawPayload);
    expect(own.statusCode).toBe(422);
    expect(errorOf(own)).toBe(IMPORT_ERRORS.ownExport);

    const gus = await signUp(ctx.app);
    const done = await run(gus, (await preview(gus, exported.rawPayload))._id);
    expect(done.progress).toMatchObject({ imported: 3, skipped: 0 });
    const before = await worksOf(fay);
    const after = await worksOf(gus);
    const shape = (works: WorkRow[]) =>
      works.map((work) => ({
        content: work.content,
        tags: work.tags,
        // The export's dates are to the second.
        createdAt: iso(work.created_at).slice(0, 19),
        warning: work.content_warning,
        licence: work.licence,
        policy: work.comment_policy,
        pictures: work.pictures.map((p) => [p.alt, p.name]),
      }));
    expect(shape(after)).toEqual(shape(before));
    for (const [i, work] of after.entries()) {
      for (const [j, item] of work.pictures.entries()) {
        expect(await readStored(ctx, item.file)).toEqual(await readStored(ctx, before[i]!.pictures[j]!.file));
      }
    }
    const pins = await queryRows<{ post_id: string }>(
      ctx.database.db,
      sql`select post_id from post_pins where user_id = ${gus.user._id}::uuid order by position`,
    );
    expect(pins.map((row) => after.find((work) => work.id === row.post_id)?.content)).toEqual(['The third']);
  }, 120_000);
});

describe('bad archives', () => {
  let hal: SignedUp;
  beforeAll(async () => {
    hal = await signUp(ctx.app);
  });

  const refusedWith = async (data: Buffer, pattern: RegExp | string) => {
    const response = await upload(hal, data);
    expect(response.statusCode, response.body).toBe(422);
    if (typeof pattern === 'string') expect(errorOf(response)).toBe(pattern);
    else expect(errorOf(response)).toMatch(pattern);
  };

  it('refuses what is not a zip, and a zip of something else', async () => {
    await refusedWith(Buffer.from('not a zip at all'), IMPORT_ERRORS.notZip);
    await refusedWith(await zipOf([['notes.txt', 'hello']]), IMPORT_ERRORS.unknown);
  });

  it('refuses a zip bomb, a path that climbs out, a symbolic link and two files of one name', async () => {
    await refusedWith(
      await zipOf([
        ['outbox.json', Buffer.alloc(50 * 1024 * 1024, 32)],
        ['actor.json', '{}'],
      ]),
      /zip bomb/,
    );
    // yazl refuses to write such a path: the name is changed in the zip's bytes, where it is written twice.
    const climbing = await zipOf([
      ['actor.json', '{}'],
      ['outbox.json', '{}'],
      ['evil/xx/xx/xx/etc/passwd', 'x'],
    ]);
    const at = (from: number) => climbing.indexOf('evil/xx/xx/xx', from);
    for (let i = at(0); i >= 0; i = at(i + 1)) climbing.write('evil/../../..', i);
    await refusedWith(climbing, /leads out/);
    await refusedWith(
      await zipOf([
        ['actor.json', '{}'],
        ['outbox.json', '{}'],
        ['link', '/etc/passwd', { mode: 0o120777 }],
      ]),
      /symbolic link/,
    );
    await refusedWith(
      await zipOf([
        ['actor.json', '{}'],
        ['outbox.json', '{}'],
        ['outbox.json', '{}'],
      ]),
      /two files named outbox\.json/,
    );
  });

  it('refuses an index that is not JSON or too large to read', async () => {
    await refusedWith(
      await zipOf([['your_instagram_activity/media/posts_1.json', '{ not json']]),
      /posts_1\.json in the archive is not JSON/,
    );
    // 65 MB of spaces: deflated to almost nothing, so it is refused as a bomb or as too large, never read.
    await refusedWith(
      await zipOf([['your_instagram_activity/media/posts_1.json', Buffer.alloc(65 * 1024 * 1024, 32)]]),
      /zip bomb|larger than 64 MB/,
    );
  });

  it('skips dates in the year 0 or 9999, captions of 1 MB, duplicates, and files that are not pictures', async () => {
    const jpeg = await picture(70);
    const posts = [
      { media: [{ uri: 'media/a.jpg', creation_timestamp: -62135596800, title: 'Year 0' }] },
      { media: [{ uri: 'media/a.jpg', creation_timestamp: 253402214400, title: 'Year 9999' }] },
      {
        media: [{ uri: 'media/b.jpg', creation_timestamp: 1600000000, title: randomBytes(512 * 1024).toString('hex') }],
      },
      { media: [{ uri: 'media/c.jpg', creation_timestamp: 1600000100, title: 'Kept' }] },
      { media: [{ uri: 'media/c.jpg', creation_timestamp: 1600000100, title: 'Kept' }] },
      { media: [{ uri: 'media/fake.jpg', creation_timestamp: 1600000200, title: 'Not a picture' }] },
    ];
    const archive = await zipOf([
      ['your_instagram_activity/media/posts_1.json', JSON.stringify(posts)],
      ['media/a.jpg', jpeg],
      ['media/b.jpg', jpeg],
      ['media/c.jpg', jpeg],
      ['media/fake.jpg', '<html><script>alert(1)</script></html>'],
    ]);
    const done = await run(hal, (await preview(hal, archive))._id);
    expect(done.progress).toMatchObject({ imported: 1, skipped: 5, postsDone: 6 });
    const reasons = (await items(hal, done._id, 'skipped')).map((item) => item.reason);
    expect(reasons).toHaveLength(5);
    expect(reasons.filter((reason) => /cannot be right/.test(reason!))).toHaveLength(2);
    expect(reasons).toContain('its caption is longer than the 2000 characters a work holds');
    expect(reasons).toContain('the same post twice in the archive');
    expect(reasons.find((reason) => reason!.startsWith('picture 1:'))).toBeDefined();
    expect((await worksOf(hal)).map((work) => work.content)).toEqual(['Kept']);
  }, 120_000);

  it('answers 401 without a token, 404 for an import of someone else', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/imports' });
    expect(response.statusCode).toBe(401);
    const ivy = await signUp(ctx.app);
    const mine = await preview(
      ivy,
      await zipOf([
        [
          'content/posts_1.json',
          JSON.stringify([{ media: [{ uri: 'media/a.jpg', creation_timestamp: 1600000000, title: 'A' }] }]),
        ],
        ['media/a.jpg', await picture(5)],
      ]),
    );
    const other = await ctx.app.inject({ method: 'GET', url: `/api/imports/${mine._id}`, headers: auth(hal) });
    expect(other.statusCode).toBe(404);
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/imports/not-an-id/start',
      headers: auth(ivy),
      payload: {},
    });
    expect(malformed.statusCode).toBe(404);
  });
});

describe('progress and what others see', () => {
  it('tells the artist live, notifies nobody and sends no post frame to followers', async () => {
    const jo = await signUp(ctx.app);
    const kim = await signUp(ctx.app);
    const follow = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/follow/${jo.user._id}`,
      headers: auth(kim),
    });
    expect(follow.statusCode, follow.body).toBeLessThan(300);
    const artist = await liveSocket(ctx.app, jo.token);
    const follower = await liveSocket(ctx.app, kim.token);
    const archive = await zipOf([
      [
        'content/posts_1.json',
        JSON.stringify([
          { media: [{ uri: 'media/a.jpg', creation_timestamp: 1600000000, title: '@' + kim.user.username + ' look' }] },
        ]),
      ],
      ['media/a.jpg', await picture(5)],
    ]);
    const shown = await preview(jo, archive);
    const done = await run(jo, shown._id);
    expect(done.progress.imported).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(artist.frames.some((frame) => frame.type === 'import' && frame.importId === shown._id)).toBe(true);
    expect(follower.frames.filter((frame) => frame.type === 'post' || frame.type === 'notification')).toEqual([]);
    const notifications = await queryRows(
      ctx.database.db,
      sql`select 1 from notifications where recipient_id = ${kim.user._id}::uuid and kind = 'mention'`,
    );
    expect(notifications).toEqual([]);
    artist.socket.close();
    follower.socket.close();
  }, 120_000);
});
