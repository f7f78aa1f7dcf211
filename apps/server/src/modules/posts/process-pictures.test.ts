import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { ERRORS, LIMITS } from '@share-arts/contract';
import { media as mediaTable, postProcessPictures, users } from '../../db/schema.js';
import { createMediaService, MEDIA_NOT_FOUND } from '../media/index.js';
import {
  createTestApp,
  errorOf,
  eventually,
  multipart,
  signUp,
  storedFiles,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { PROCESS_ERRORS } from './process-pictures.js';

/** Process pictures (issue 41): processMediaIds on create and edit, process[] in the post's JSON. */

let ctx: TestContext;
let ana: SignedUp;
let bob: SignedUp;
beforeAll(async () => {
  ctx = await createTestApp();
  [ana, bob] = await Promise.all([signUp(ctx.app), signUp(ctx.app)]);
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const minimal = { prefer: 'return=minimal' };

interface PictureJson {
  _id: string;
  url: string;
  alt: string;
}
interface PostJson {
  _id: string;
  postPic: string;
  media: PictureJson[];
  process: PictureJson[];
}

let shade = 0;
/** Uploads a small picture of its own colour, with its alt text. */
async function upload(who: SignedUp, purpose: 'post' | 'avatar' = 'post'): Promise<PictureJson> {
  shade += 1;
  const data = await sharp({
    create: { width: 120 + shade, height: 90, channels: 3, background: { r: shade % 256, g: 120, b: 60 } },
  })
    .jpeg()
    .toBuffer();
  const { payload, contentType } = multipart([
    { name: 'purpose', data: purpose },
    { name: 'alt', data: `Stage ${shade}` },
    { name: 'file', data, filename: `stage-${shade}.jpg`, contentType: 'image/jpeg' },
  ]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, authorization: who.token },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().media;
}
/** Uploads `n` pictures, four at a time (the most one account may have waiting to be processed). */
async function uploadMany(who: SignedUp, n: number): Promise<PictureJson[]> {
  const pictures: PictureJson[] = [];
  while (pictures.length < n) {
    const batch = Math.min(4, n - pictures.length);
    pictures.push(...(await Promise.all(Array.from({ length: batch }, () => upload(who)))));
  }
  return pictures;
}

const create = (who: SignedUp, body: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'From sketch to paint', ...body },
    headers: { ...auth(who), ...minimal },
  });
const edit = (who: SignedUp, postId: string, postData: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    payload: { postData },
    headers: { ...auth(who), ...minimal },
  });
async function created(who: SignedUp, body: Record<string, unknown>): Promise<PostJson> {
  const response = await create(who, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post;
}
async function edited(who: SignedUp, postId: string, postData: Record<string, unknown>): Promise<PostJson> {
  const response = await edit(who, postId, postData);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post;
}
const getPost = async (postId: string): Promise<PostJson> =>
  (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json().post;
const idsOf = (pictures: { _id: string }[]) => pictures.map((picture) => picture._id);

/** The post's rows in post_process_pictures, in order. */
const rowsOf = async (postId: string) =>
  (
    await ctx.database.db
      .select({ mediaId: postProcessPictures.mediaId })
      .from(postProcessPictures)
      .where(eq(postProcessPictures.postId, postId))
      .orderBy(postProcessPictures.position)
  ).map((row) => row.mediaId);
const mediaRows = async (ids: string[]) =>
  (await ctx.database.db.select({ id: mediaTable.id }).from(mediaTable).where(inArray(mediaTable.id, ids))).map(
    (row) => row.id,
  );
const filesOf = async (mediaId: string) => (await storedFiles(ctx)).filter((file) => file.startsWith(mediaId));
const postCount = async (who: SignedUp) =>
  (await ctx.database.db.select().from(users).where(eq(users.id, who.user._id)))[0]!.postCount;

describe('a work with process pictures', () => {
  it('keeps them in order with their alt texts, apart from the finished pictures, on every read', async () => {
    const [finished, sketch, lines, flats] = await uploadMany(ana, 4);
    const post = await created(ana, {
      mediaIds: [finished!._id],
      processMediaIds: [sketch!._id, lines!._id, flats!._id],
    });
    expect(idsOf(post.process)).toEqual([sketch!._id, lines!._id, flats!._id]);
    expect(post.process.map((picture) => picture.alt)).toEqual([sketch!.alt, lines!.alt, flats!.alt]);
    expect(post.process[0]).toEqual(sketch);
    // The finished pictures are still the work: its cover, its list.
    expect(idsOf(post.media)).toEqual([finished!._id]);
    expect(post.postPic).toBe(finished!.url);
    expect(await rowsOf(post._id)).toEqual([sketch!._id, lines!._id, flats!._id]);

    // One post, a profile's list (both from the post cache), a signed-out reader.
    expect(idsOf((await getPost(post._id)).process)).toEqual(idsOf(post.process));
    const listed = await ctx.app.inject({ method: 'GET', url: `/api/posts/user/${ana.user.username}` });
    const inList = (listed.json().posts as PostJson[]).find((one) => one._id === post._id)!;
    expect(idsOf(inList.process)).toEqual(idsOf(post.process));
  });

  it('is [] on a work without any, and a work may have process pictures and no finished one', async () => {
    const plain = await created(ana, {});
    expect(plain.process).toEqual([]);
    const [sketch] = await uploadMany(ana, 1);
    const onlyProcess = await created(ana, { processMediaIds: [sketch!._id] });
    expect(onlyProcess.media).toEqual([]);
    expect(idsOf(onlyProcess.process)).toEqual([sketch!._id]);
  });

  it('shows a process picture’s changed alt text on the post', async () => {
    const [sketch] = await uploadMany(ana, 1);
    const post = await created(ana, { processMediaIds: [sketch!._id] });
    expect((await getPost(post._id)).process[0]!.alt).toBe(sketch!.alt);
    const changed = await ctx.app.inject({
      method: 'POST',
      url: `/api/media/${sketch!._id}/alt`,
      payload: { alt: 'The first pencil sketch' },
      headers: auth(ana),
    });
    expect(changed.statusCode, changed.body).toBe(201);
    // The post's readers hear of it through the database's events: at once on PGlite, on commit on PostgreSQL.
    await eventually(async () => expect((await getPost(post._id)).process[0]!.alt).toBe('The first pencil sketch'));
  });
});

describe('the limits', () => {
  // Ten uploads, processed one at a time for one account: more time than one request's test.
  it(
    `takes up to ${LIMITS.processPicturesMax}, and refuses more without writing anything`,
    { timeout: 60_000 },
    async () => {
      const ten = idsOf(await uploadMany(ana, LIMITS.processPicturesMax));
      // An eleventh id is refused before any is looked at.
      const eleven = [...ten, '00000000-0000-4000-8000-000000000011'];
      const before = await postCount(ana);
      const tooMany = await create(ana, { processMediaIds: eleven });
      expect(tooMany.statusCode).toBe(400);
      expect(errorOf(tooMany)).toMatch(/at most 10 process pictures/);
      expect(await postCount(ana)).toBe(before);

      const post = await created(ana, { processMediaIds: ten });
      expect(idsOf(post.process)).toEqual(ten);
      const tooManyOnEdit = await edit(ana, post._id, { processMediaIds: eleven });
      expect(tooManyOnEdit.statusCode).toBe(400);
      expect(await rowsOf(post._id)).toEqual(ten);
    },
  );

  it('refuses a picture twice, in both lists, an avatar, unknown ones: nothing is written', async () => {
    const [a, b] = await uploadMany(ana, 2);
    const avatar = await upload(ana, 'avatar');
    const before = await postCount(ana);

    const twice = await create(ana, { processMediaIds: [a!._id, a!._id] });
    expect(twice.statusCode).toBe(400);
    expect(errorOf(twice)).toBe(PROCESS_ERRORS.duplicate(a!._id));

    const both = await create(ana, { mediaIds: [a!._id], processMediaIds: [b!._id, a!._id] });
    expect(both.statusCode).toBe(400);
    expect(errorOf(both)).toBe(PROCESS_ERRORS.alsoFinished(a!._id));

    const asAvatar = await create(ana, { processMediaIds: [avatar._id] });
    expect(asAvatar.statusCode).toBe(400);
    expect(errorOf(asAvatar)).toBe(PROCESS_ERRORS.avatar(avatar._id));

    const unknown = await create(ana, { processMediaIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe(MEDIA_NOT_FOUND);

    expect(await postCount(ana)).toBe(before);
    expect(
      await ctx.database.db
        .select()
        .from(postProcessPictures)
        .where(inArray(postProcessPictures.mediaId, [a!._id, b!._id])),
    ).toEqual([]);
  });

  it('refuses a picture in use elsewhere: another work’s picture or process picture, either way', async () => {
    const [finished, sketch, loose] = await uploadMany(ana, 3);
    const first = await created(ana, { mediaIds: [finished!._id], processMediaIds: [sketch!._id] });
    const before = await postCount(ana);

    // Another work's finished picture as a process picture, its process picture as one either way.
    for (const body of [
      { processMediaIds: [finished!._id] },
      { processMediaIds: [loose!._id, sketch!._id] },
      { mediaIds: [sketch!._id] },
    ]) {
      const refused = await create(ana, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(refused)).toBe(ERRORS.pictureInUse);
    }
    expect(await postCount(ana)).toBe(before);

    // On edit too: nothing changes.
    const second = await created(ana, {});
    for (const postData of [{ processMediaIds: [finished!._id] }, { mediaIds: [sketch!._id] }]) {
      const refused = await edit(ana, second._id, postData);
      expect(refused.statusCode, JSON.stringify(postData)).toBe(400);
      expect(errorOf(refused)).toBe(ERRORS.pictureInUse);
    }
    expect(await rowsOf(second._id)).toEqual([]);
    expect(idsOf((await getPost(first._id)).process)).toEqual([sketch!._id]);
  });

  it('takes only the author’s own pictures, and lets only the author edit them', async () => {
    const [bobs] = await uploadMany(bob, 1);
    const [sketch] = await uploadMany(ana, 1);
    const notOwned = await create(ana, { processMediaIds: [bobs!._id] });
    expect(notOwned.statusCode).toBe(400);
    expect(errorOf(notOwned)).toBe(PROCESS_ERRORS.notOwned(bobs!._id));

    const post = await created(ana, { processMediaIds: [sketch!._id] });
    const byBob = await edit(bob, post._id, { processMediaIds: [] });
    expect(byBob.statusCode).toBe(400);
    expect(errorOf(byBob)).toBe(ERRORS.editPostNotOwner);
    const intoAnas = await edit(ana, post._id, { processMediaIds: [sketch!._id, bobs!._id] });
    expect(intoAnas.statusCode).toBe(400);
    expect(await rowsOf(post._id)).toEqual([sketch!._id]);
    expect(await mediaRows([sketch!._id])).toEqual([sketch!._id]);
  });
});

describe('an edit', () => {
  // A picture taken out leaves the work; the edit's revision keeps it for its author (post history, migration 0045),
  // and it goes with the work (see deletion below).
  it('reorders, adds and removes in one list', async () => {
    const [a, b, c, d] = await uploadMany(ana, 4);
    const post = await created(ana, { processMediaIds: [a!._id, b!._id, c!._id] });

    const changed = await edited(ana, post._id, { processMediaIds: [c!._id, d!._id, a!._id] });
    expect(idsOf(changed.process)).toEqual([c!._id, d!._id, a!._id]);
    expect(await rowsOf(post._id)).toEqual([c!._id, d!._id, a!._id]);
    expect(idsOf((await getPost(post._id)).process)).toEqual([c!._id, d!._id, a!._id]);
  });

  it('keeps them when left out, and [] takes them all out', async () => {
    const [a, b] = await uploadMany(ana, 2);
    const post = await created(ana, { processMediaIds: [a!._id, b!._id] });
    const words = await edited(ana, post._id, { content: 'New words' });
    expect(idsOf(words.process)).toEqual([a!._id, b!._id]);

    const cleared = await edited(ana, post._id, { processMediaIds: [] });
    expect(cleared.process).toEqual([]);
    expect(await rowsOf(post._id)).toEqual([]);
    expect((await getPost(post._id)).process).toEqual([]);
  });

  it('may move a picture between the two lists, keeping it', async () => {
    const [finished, sketch] = await uploadMany(ana, 2);
    const post = await created(ana, { mediaIds: [finished!._id], processMediaIds: [sketch!._id] });
    // The sketch becomes the work, the old finished picture a process picture.
    const swapped = await edited(ana, post._id, { mediaIds: [sketch!._id], processMediaIds: [finished!._id] });
    expect(idsOf(swapped.media)).toEqual([sketch!._id]);
    expect(idsOf(swapped.process)).toEqual([finished!._id]);
    expect((await mediaRows([finished!._id, sketch!._id])).sort()).toEqual([finished!._id, sketch!._id].sort());
    expect((await filesOf(sketch!._id)).length).toBeGreaterThan(0);
  });
});

describe('deletion', () => {
  it('deleting the work deletes its process pictures and their files, those an edit took out too', async () => {
    const [finished, sketch, earlier] = await uploadMany(ana, 3);
    const post = await created(ana, { mediaIds: [finished!._id], processMediaIds: [sketch!._id, earlier!._id] });
    await edited(ana, post._id, { processMediaIds: [sketch!._id] });
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/posts/${post._id}`,
      headers: { ...auth(ana), ...minimal },
    });
    expect(deleted.statusCode, deleted.body).toBe(201);
    expect(await rowsOf(post._id)).toEqual([]);
    expect(await mediaRows([finished!._id, sketch!._id, earlier!._id])).toEqual([]);
    expect(await filesOf(sketch!._id)).toEqual([]);
    expect(await filesOf(earlier!._id)).toEqual([]);
  });

  it('deleting a work keeps a picture it let go of that another work now shows as a process picture', async () => {
    const [sketch, finished] = await uploadMany(ana, 2);
    const first = await created(ana, { mediaIds: [finished!._id], processMediaIds: [sketch!._id] });
    // Taken out of the first (its history keeps it), then shown by a second work.
    await edited(ana, first._id, { processMediaIds: [] });
    const second = await created(ana, { processMediaIds: [sketch!._id] });
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/posts/${first._id}`,
      headers: { ...auth(ana), ...minimal },
    });
    expect(deleted.statusCode, deleted.body).toBe(201);
    expect(await mediaRows([sketch!._id])).toEqual([sketch!._id]);
    expect((await filesOf(sketch!._id)).length).toBeGreaterThan(0);
    expect(idsOf((await getPost(second._id)).process)).toEqual([sketch!._id]);
  });

  it('deleting the account deletes them and their files', async () => {
    const cleo = await signUp(ctx.app);
    const [sketch] = await uploadMany(cleo, 1);
    const post = await created(cleo, { processMediaIds: [sketch!._id] });
    const gone = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      payload: { password: cleo.password },
      headers: auth(cleo),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await rowsOf(post._id)).toEqual([]);
    expect(await mediaRows([sketch!._id])).toEqual([]);
    expect(await filesOf(sketch!._id)).toEqual([]);
  });

  it('the media sweep keeps a work’s process pictures, and takes uploads attached to nothing', async () => {
    const dee = await signUp(ctx.app);
    const [sketch, loose] = await uploadMany(dee, 2);
    await created(dee, { processMediaIds: [sketch!._id] });
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const sweeper = createMediaService({
      db: ctx.database.db,
      storage: ctx.storage,
      log: quiet,
      // A day and an hour later: past the sweep's grace for an upload attached to nothing.
      now: () => Date.now() + 25 * 60 * 60 * 1000,
    });
    await sweeper.sweep();
    expect(await mediaRows([sketch!._id, loose!._id])).toEqual([sketch!._id]);
  });
});

/** Every entry of a zip, by name. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
          stream.on('error', reject);
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('the export', () => {
  it('lists each work’s process pictures in order, marks them in pictures.json and holds their originals', async () => {
    const eve = await signUp(ctx.app);
    const [finished, sketch, lines] = await uploadMany(eve, 3);
    const post = await created(eve, { mediaIds: [finished!._id], processMediaIds: [sketch!._id, lines!._id] });
    const link = await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: auth(eve) });
    expect(link.statusCode, link.body).toBe(201);
    const zip = await ctx.app.inject({ method: 'GET', url: link.json().url });
    expect(zip.statusCode).toBe(200);
    const entries = await unzip(zip.rawPayload);
    const json = (name: string) => JSON.parse(entries.get(name)!.toString('utf8'));

    const [work] = json('posts.json') as {
      id: string;
      pictures: { id: string }[];
      process: { id: string; alt: string; file: string }[];
    }[];
    expect(work!.id).toBe(post._id);
    expect(idsOf(work!.pictures.map((p) => ({ _id: p.id })))).toEqual([finished!._id]);
    expect(work!.process.map((p) => p.id)).toEqual([sketch!._id, lines!._id]);
    expect(work!.process.map((p) => p.alt)).toEqual([sketch!.alt, lines!.alt]);
    for (const picture of work!.process) expect(entries.has(picture.file)).toBe(true);

    const pictures = json('pictures.json') as {
      id: string;
      postId: string | null;
      position: number;
      process: boolean;
    }[];
    const byId = new Map(pictures.map((p) => [p.id, p]));
    expect(byId.get(finished!._id)).toMatchObject({ postId: post._id, position: 0, process: false });
    expect(byId.get(sketch!._id)).toMatchObject({ postId: post._id, position: 0, process: true });
    expect(byId.get(lines!._id)).toMatchObject({ postId: post._id, position: 1, process: true });
  });
});
