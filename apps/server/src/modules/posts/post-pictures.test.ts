import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { ERRORS, LIMITS } from '@share-arts/contract';
import { media, postMedia, posts, users } from '../../db/schema.js';
import { MEDIA_NOT_FOUND } from '../media/index.js';
import {
  createTestApp,
  errorOf,
  multipart,
  signUp,
  storedFiles,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { PICTURE_ERRORS } from './index.js';

/** Several pictures per post (issue 21): mediaIds on create and edit, media[] in the post's JSON. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const minimal = { prefer: 'return=minimal' };

interface PictureJson {
  _id: string;
  url: string;
  alt: string;
  width: number;
  height: number;
}
interface PostJson {
  _id: string;
  postPic: string;
  picture: PictureJson | null;
  media: PictureJson[];
}

let shade = 0;
/** Uploads a small picture of its own colour (width tells them apart in the answers). */
async function upload(who: SignedUp, purpose: 'post' | 'avatar' = 'post'): Promise<PictureJson> {
  shade += 1;
  const data = await sharp({
    create: { width: 300 + shade, height: 200, channels: 3, background: { r: shade % 256, g: 90, b: 140 } },
  })
    .jpeg()
    .toBuffer();
  const { payload, contentType } = multipart([
    { name: 'purpose', data: purpose },
    { name: 'alt', data: `Picture ${shade}` },
    { name: 'file', data, filename: `picture-${shade}.jpg`, contentType: 'image/jpeg' },
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
    payload: { content: 'A series #study', ...body },
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
const ids = (post: PostJson) => post.media.map((picture) => picture._id);

/** The post's rows in post_media, in order. */
const rowsOf = async (postId: string) =>
  (
    await ctx.database.db
      .select({ mediaId: postMedia.mediaId, position: postMedia.position })
      .from(postMedia)
      .where(eq(postMedia.postId, postId))
      .orderBy(postMedia.position)
  ).map((row) => row.mediaId);
const filesOf = async (mediaId: string) => (await storedFiles(ctx)).filter((f) => f.startsWith(mediaId));
const mediaRows = async (mediaIds: string[]) =>
  (await ctx.database.db.select({ id: media.id }).from(media).where(inArray(media.id, mediaIds))).map((r) => r.id);
const postCount = async (who: SignedUp) => {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, who.user._id));
  return row!.postCount;
};
const postsOf = async (who: SignedUp) =>
  ctx.database.db.select({ id: posts.id }).from(posts).where(eq(posts.authorId, who.user._id));

describe('a post with several pictures', () => {
  it('keeps them in the order given: media[], picture = media[0], postPic = its url', async () => {
    const author = await signUp(ctx.app);
    const [a, b, c] = await uploadMany(author, 3);
    const post = await created(author, { mediaIds: [b!._id, c!._id, a!._id] });
    expect(ids(post)).toEqual([b!._id, c!._id, a!._id]);
    expect(post.media.map((picture) => picture.alt)).toEqual([b!.alt, c!.alt, a!.alt]);
    expect(post.media[1]).toEqual(c);
    expect(post.picture).toEqual(post.media[0]);
    expect(post.postPic).toBe(b!.url);
    expect(await rowsOf(post._id)).toEqual([b!._id, c!._id, a!._id]);

    // Every read shows them the same: one post, the lists (from the post cache), a profile.
    const one = await ctx.app.inject({ method: 'GET', url: `/api/posts/${post._id}` });
    expect(ids(one.json().post)).toEqual(ids(post));
    const listed = await ctx.app.inject({ method: 'GET', url: `/api/posts/user/${author.user.username}` });
    expect(ids(listed.json().posts[0])).toEqual(ids(post));
  });

  it(`takes up to ${LIMITS.postPicturesMax}; without any the post shows the default picture`, async () => {
    const author = await signUp(ctx.app);
    const twenty = await uploadMany(author, LIMITS.postPicturesMax);
    const post = await created(author, { mediaIds: twenty.map((p) => p._id) });
    expect(ids(post)).toEqual(twenty.map((p) => p._id));
    const none = await created(author, { mediaIds: [] });
    expect(none).toMatchObject({ media: [], picture: null, postPic: '/media/defaults/default-post.jpg' });
  });

  it('edits the list: add, remove and reorder in one write; a picture taken out is kept for its author, public to nobody', async () => {
    const author = await signUp(ctx.app);
    const [a, b, c, d] = await uploadMany(author, 4);
    const post = await created(author, { mediaIds: [a!._id, b!._id] });

    // Add c in front, remove b.
    const added = await edit(author, post._id, { mediaIds: [c!._id, a!._id] });
    expect(added.statusCode, added.body).toBe(201);
    expect(ids(added.json().post)).toEqual([c!._id, a!._id]);
    expect(added.json().post.postPic).toBe(c!.url);
    // The post's history keeps b (issue 41): its row and files stay, /media/ serves it to nobody.
    expect(await mediaRows([b!._id])).toHaveLength(1);
    expect((await filesOf(b!._id)).length).toBeGreaterThan(2);
    expect((await ctx.app.inject({ method: 'GET', url: b!.url })).statusCode).toBe(404);

    // Reorder and add d: nothing is deleted.
    const reordered = await edit(author, post._id, { mediaIds: [a!._id, d!._id, c!._id] });
    expect(ids(reordered.json().post)).toEqual([a!._id, d!._id, c!._id]);
    expect(await rowsOf(post._id)).toEqual([a!._id, d!._id, c!._id]);
    for (const kept of [a!, c!, d!]) expect((await filesOf(kept._id)).length).toBeGreaterThan(2);

    // The same list again changes nothing (the post is not even marked edited).
    const before = (await ctx.database.db.select().from(posts).where(eq(posts.id, post._id)))[0]!;
    expect((await edit(author, post._id, { mediaIds: [a!._id, d!._id, c!._id] })).statusCode).toBe(201);
    const after = (await ctx.database.db.select().from(posts).where(eq(posts.id, post._id)))[0]!;
    expect(after.updatedAt).toEqual(before.updatedAt);

    // [] removes them all.
    const emptied = await edit(author, post._id, { mediaIds: [] });
    expect(emptied.json().post).toMatchObject({
      media: [],
      picture: null,
      postPic: '/media/defaults/default-post.jpg',
    });
    expect(await mediaRows([a!._id, c!._id, d!._id])).toHaveLength(3);
    for (const kept of [a!, c!, d!]) expect((await filesOf(kept._id)).length).toBeGreaterThan(2);

    // Deleting the post deletes what its history kept.
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}`, headers: auth(author) });
    expect(deleted.statusCode).toBe(201);
    expect(await mediaRows([a!._id, b!._id, c!._id, d!._id])).toEqual([]);
    for (const gone of [a!, b!, c!, d!]) expect(await filesOf(gone._id)).toEqual([]);
  });

  it('edits content alone without touching the pictures', async () => {
    const author = await signUp(ctx.app);
    const [a, b] = await uploadMany(author, 2);
    const post = await created(author, { mediaIds: [a!._id, b!._id] });
    const edited = await edit(author, post._id, { content: 'New words' });
    expect(edited.json().post).toMatchObject({ content: 'New words' });
    expect(ids(edited.json().post)).toEqual([a!._id, b!._id]);
  });

  it("deleting the post deletes every picture's row and files", async () => {
    const author = await signUp(ctx.app);
    const pictures = await uploadMany(author, 3);
    const post = await created(author, { mediaIds: pictures.map((p) => p._id) });
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}`, headers: auth(author) });
    expect(response.statusCode).toBe(201);
    expect(await rowsOf(post._id)).toEqual([]);
    expect(await mediaRows(pictures.map((p) => p._id))).toEqual([]);
    for (const picture of pictures) expect(await filesOf(picture._id)).toEqual([]);
  });

  it("a notification's thumbnail is the post's first picture", async () => {
    const author = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const [a, b] = await uploadMany(author, 2);
    const post = await created(author, { mediaIds: [b!._id, a!._id] });
    const liked = await ctx.app.inject({ method: 'POST', url: `/api/posts/like/${post._id}`, headers: auth(fan) });
    expect(liked.statusCode).toBe(201);
    const page = await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: auth(author) });
    const [notification] = page.json().notifications;
    expect(notification.post._id).toBe(post._id);
    expect(notification.post.postPic).toMatch(new RegExp(`^/media/${b!._id}-`));
  });
});

describe('the legacy mediaId', () => {
  it('creates with one picture, replaces all of them with one, and null removes them all', async () => {
    const author = await signUp(ctx.app);
    const [a, b, c] = await uploadMany(author, 3);
    const post = await created(author, { mediaId: a!._id });
    expect(ids(post)).toEqual([a!._id]);
    expect(post.picture).toEqual(post.media[0]);

    const grown = await edit(author, post._id, { mediaIds: [a!._id, b!._id] });
    expect(ids(grown.json().post)).toEqual([a!._id, b!._id]);
    const replaced = await edit(author, post._id, { mediaId: c!._id });
    expect(ids(replaced.json().post)).toEqual([c!._id]);
    // Kept by the post's history (issue 41).
    expect(await mediaRows([a!._id, b!._id])).toHaveLength(2);

    const removed = await edit(author, post._id, { mediaId: null });
    expect(removed.json().post).toMatchObject({
      media: [],
      picture: null,
      postPic: '/media/defaults/default-post.jpg',
    });
    expect(await mediaRows([c!._id])).toHaveLength(1);
    expect((await ctx.app.inject({ method: 'GET', url: c!.url })).statusCode).toBe(404);
  });

  it('mediaId null on create is a post without pictures', async () => {
    const author = await signUp(ctx.app);
    expect(await created(author, { mediaId: null })).toMatchObject({ media: [], picture: null });
  });
});

describe('refused lists of pictures', () => {
  let author: SignedUp;
  let stranger: SignedUp;
  beforeAll(async () => {
    [author, stranger] = await Promise.all([signUp(ctx.app), signUp(ctx.app)]);
  });

  /** Every refusal, on create and on edit, with its status and message; a fresh set of pictures each. */
  const cases: [string, () => Promise<{ list: string[]; status: number; message: string; body?: object }>][] = [
    [
      `more than ${LIMITS.postPicturesMax}`,
      async () => ({
        list: Array.from({ length: LIMITS.postPicturesMax + 1 }, () => crypto.randomUUID()),
        status: 400,
        message: `${PICTURE_ERRORS.tooMany}`,
      }),
    ],
    [
      'an id listed twice',
      async () => {
        const [a, b] = await uploadMany(author, 2);
        return { list: [a!._id, b!._id, a!._id], status: 400, message: PICTURE_ERRORS.duplicate(a!._id) };
      },
    ],
    [
      "someone else's picture",
      async () => {
        const [a] = await uploadMany(author, 1);
        const theirs = await upload(stranger);
        return { list: [a!._id, theirs._id], status: 400, message: PICTURE_ERRORS.notOwned(theirs._id) };
      },
    ],
    [
      'an avatar',
      async () => {
        const [a] = await uploadMany(author, 1);
        const avatar = await upload(author, 'avatar');
        return { list: [a!._id, avatar._id], status: 400, message: PICTURE_ERRORS.avatar(avatar._id) };
      },
    ],
    [
      'a picture already in another post',
      async () => {
        const [a, used] = await uploadMany(author, 2);
        await created(author, { content: 'The first home of a picture', mediaIds: [used!._id] });
        return { list: [a!._id, used!._id], status: 400, message: ERRORS.pictureInUse };
      },
    ],
    [
      'an unknown id',
      async () => {
        const [a] = await uploadMany(author, 1);
        return { list: [a!._id, crypto.randomUUID()], status: 404, message: MEDIA_NOT_FOUND };
      },
    ],
    [
      'a malformed id',
      async () => {
        const [a] = await uploadMany(author, 1);
        return { list: [a!._id, 'not-a-picture'], status: 404, message: MEDIA_NOT_FOUND };
      },
    ],
    [
      'a deleted picture',
      async () => {
        const [a, gone] = await uploadMany(author, 2);
        const post = await created(author, { content: 'Short-lived', mediaIds: [gone!._id] });
        await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}`, headers: auth(author) });
        return { list: [a!._id, gone!._id], status: 404, message: MEDIA_NOT_FOUND };
      },
    ],
    [
      'both mediaIds and mediaId',
      async () => {
        const [a, b] = await uploadMany(author, 2);
        return { list: [a!._id], body: { mediaId: b!._id }, status: 400, message: PICTURE_ERRORS.both };
      },
    ],
  ];

  it.each(cases)('on create: %s, and nothing is written', async (_label, make) => {
    const { list, status, message, body } = await make();
    const postsBefore = (await postsOf(author)).length;
    const countBefore = await postCount(author);
    const response = await create(author, { mediaIds: list, ...body });
    expect(response.statusCode, response.body).toBe(status);
    expect(errorOf(response)).toBe(message);
    expect((await postsOf(author)).length).toBe(postsBefore);
    expect(await postCount(author)).toBe(countBefore);
  });

  it.each(cases)('on edit: %s, and the post keeps its pictures', async (_label, make) => {
    const [kept] = await uploadMany(author, 1);
    const post = await created(author, { content: 'Keeps its picture', mediaIds: [kept!._id] });
    const { list, status, message, body } = await make();
    const response = await edit(author, post._id, { mediaIds: list, content: 'Never written', ...body });
    expect(response.statusCode, response.body).toBe(status);
    expect(errorOf(response)).toBe(message);
    const [row] = await ctx.database.db.select().from(posts).where(eq(posts.id, post._id));
    expect(row!.content).toBe('Keeps its picture');
    expect(await rowsOf(post._id)).toEqual([kept!._id]);
    expect((await filesOf(kept!._id)).length).toBeGreaterThan(2);
  });

  it("a failed create leaves no post and the author's pictures unattached, free to use", async () => {
    const pictures = await uploadMany(author, 2);
    const theirs = await upload(stranger);
    const list = [...pictures.map((p) => p._id), theirs._id];
    const countBefore = await postCount(author);
    expect((await create(author, { mediaIds: list })).statusCode).toBe(400);
    expect(await postCount(author)).toBe(countBefore);
    const attached = await ctx.database.db
      .select()
      .from(postMedia)
      .where(
        inArray(
          postMedia.mediaId,
          pictures.map((p) => p._id),
        ),
      );
    expect(attached).toEqual([]);
    expect(await mediaRows(pictures.map((p) => p._id))).toHaveLength(2);
    // Refused by the database itself (the third is in another post): the post row went with the statement.
    const [first, inUse] = await uploadMany(author, 2);
    await created(author, { content: 'Home of the second', mediaIds: [inUse!._id] });
    const before = (await postsOf(author)).length;
    const refused = await create(author, { mediaIds: [...pictures.map((p) => p._id), first!._id, inUse!._id] });
    expect(errorOf(refused)).toBe(ERRORS.pictureInUse);
    expect((await postsOf(author)).length).toBe(before);
    // Still free: the same pictures make a post.
    const post = await created(author, { mediaIds: pictures.map((p) => p._id) });
    expect(ids(post)).toEqual(pictures.map((p) => p._id));
  });

  it('a failed edit keeps the old list: nothing added, nothing deleted', async () => {
    const [a, b, c] = await uploadMany(author, 3);
    const theirs = await upload(stranger);
    const post = await created(author, { mediaIds: [a!._id, b!._id] });
    const response = await edit(author, post._id, { mediaIds: [c!._id, a!._id, theirs._id] });
    expect(response.statusCode).toBe(400);
    expect(await rowsOf(post._id)).toEqual([a!._id, b!._id]);
    expect(await mediaRows([a!._id, b!._id, c!._id])).toHaveLength(3);
    expect((await filesOf(b!._id)).length).toBeGreaterThan(2);
  });

  it("another user's post cannot be edited, whatever the pictures", async () => {
    const [a] = await uploadMany(author, 1);
    const post = await created(author, { mediaIds: [a!._id] });
    const mine = await upload(stranger);
    const response = await edit(stranger, post._id, { mediaIds: [mine._id] });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(ERRORS.editPostNotOwner);
    expect(await rowsOf(post._id)).toEqual([a!._id]);
  });
});

describe('OpenAPI', () => {
  it('documents mediaIds on create and edit, and media[] on a post', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = response.json();
    const json = JSON.stringify(doc);
    const body = (path: string) => JSON.stringify(doc.paths[path].post.requestBody.content['application/json'].schema);
    expect(body('/api/posts')).toContain('"mediaIds"');
    expect(body('/api/posts/edit/{id}')).toContain('"mediaIds"');
    expect(json).toContain(`"maxItems":${LIMITS.postPicturesMax}`);
    const post = JSON.stringify(doc.paths['/api/posts/{id}'].get.responses['200']);
    expect(post).toContain('"media"');
  });
});
