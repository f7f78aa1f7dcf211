import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, PINS_MAX } from '@share-arts/contract';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { PIN_ERRORS } from './index.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });

async function createPost(who: SignedUp, content: string): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { ...auth(who), prefer: 'return=minimal' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().post._id as string;
}

const pin = (who: SignedUp, postId: string, body?: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/pin`,
    headers: auth(who),
    ...(body === undefined ? {} : { payload: body }),
  });
const unpin = (who: SignedUp, postId: string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/posts/${postId}/pin`, headers: auth(who) });
const reorder = (who: SignedUp, postIds: unknown) =>
  ctx.app.inject({ method: 'PUT', url: '/api/users/me/pins', headers: auth(who), payload: { postIds } });

/** The ids of a profile's pinned works, as anyone (signed out) reads them. */
async function pinnedIds(who: SignedUp): Promise<string[]> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/users/${who.user.username}/pins` });
  expect(response.statusCode).toBe(200);
  expect(response.json().nextCursor).toBeNull();
  return (response.json().posts as { _id: string }[]).map((post) => post._id);
}

/** An artist with `count` posts, oldest first. */
async function artistWith(count: number): Promise<{ artist: SignedUp; posts: string[] }> {
  const artist = await signUp(ctx.app);
  const posts: string[] = [];
  for (let i = 0; i < count; i += 1) posts.push(await createPost(artist, `Work number ${i + 1}`));
  return { artist, posts };
}

describe('pinning works', () => {
  it('pins posts in the order they were pinned, or at a position, and answers the new list', async () => {
    const { artist, posts } = await artistWith(4);
    expect(await pinnedIds(artist)).toEqual([]);

    const first = await pin(artist, posts[2]!);
    expect(first.statusCode).toBe(200);
    expect(first.json().posts.map((post: { _id: string }) => post._id)).toEqual([posts[2]]);
    expect(first.json().posts[0]).toMatchObject({ content: 'Work number 3', viewer: { isAuthor: true } });

    expect((await pin(artist, posts[0]!)).statusCode).toBe(200);
    expect((await pin(artist, posts[3]!, { position: 0 })).statusCode).toBe(200);
    expect(await pinnedIds(artist)).toEqual([posts[3], posts[2], posts[0]]);
  });

  it('is idempotent: pinning a pinned post again keeps the list, with a position moves it', async () => {
    const { artist, posts } = await artistWith(3);
    for (const id of posts) expect((await pin(artist, id)).statusCode).toBe(200);
    const again = await pin(artist, posts[1]!);
    expect(again.statusCode).toBe(200);
    expect(await pinnedIds(artist)).toEqual(posts);

    expect((await pin(artist, posts[2]!, { position: 0 })).statusCode).toBe(200);
    expect(await pinnedIds(artist)).toEqual([posts[2], posts[0], posts[1]]);
    // A position past the end puts it last.
    expect((await pin(artist, posts[2]!, { position: 5 })).statusCode).toBe(200);
    expect(await pinnedIds(artist)).toEqual([posts[0], posts[1], posts[2]]);
  });

  it(`refuses a ${PINS_MAX + 1}th pin, saying the limit and to unpin one first`, async () => {
    const { artist, posts } = await artistWith(PINS_MAX + 1);
    for (const id of posts.slice(0, PINS_MAX)) expect((await pin(artist, id)).statusCode).toBe(200);
    const seventh = await pin(artist, posts[PINS_MAX]!);
    expect(seventh.statusCode).toBe(400);
    expect(errorOf(seventh)).toBe(ERRORS.tooManyPins);
    expect(errorOf(seventh)).toMatch(/at most 6.*unpin one first/);
    expect(await pinnedIds(artist)).toEqual(posts.slice(0, PINS_MAX));
    // Pinning one of the six again is still fine.
    expect((await pin(artist, posts[0]!)).statusCode).toBe(200);
  });

  it('keeps the limit when pins race', async () => {
    const { artist, posts } = await artistWith(PINS_MAX + 3);
    const answers = await Promise.all(posts.map((id) => pin(artist, id)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(PINS_MAX);
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(3);
    expect(await pinnedIds(artist)).toHaveLength(PINS_MAX);
  });

  it("refuses someone else's post with 400, an unknown or malformed id with 404", async () => {
    const { artist } = await artistWith(0);
    const { artist: other, posts } = await artistWith(1);
    const theirs = await pin(artist, posts[0]!);
    expect(theirs.statusCode).toBe(400);
    expect(errorOf(theirs)).toBe(ERRORS.pinNotOwner);
    expect(await pinnedIds(other)).toEqual([]);
    expect((await unpin(artist, posts[0]!)).statusCode).toBe(400);

    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const unknown = await pin(artist, id);
      expect(unknown.statusCode).toBe(404);
      expect(errorOf(unknown)).toBe(ERRORS.postNotFound);
      expect((await unpin(artist, id)).statusCode).toBe(404);
    }
  });

  it('refuses a bad position and asks for a token', async () => {
    const { artist, posts } = await artistWith(1);
    for (const position of [-1, PINS_MAX, 1.5, 'first']) {
      const answer = await pin(artist, posts[0]!, { position });
      expect(answer.statusCode).toBe(400);
      expect(errorOf(answer)).toMatch(/position/);
    }
    const anonymous = await ctx.app.inject({ method: 'POST', url: `/api/posts/${posts[0]}/pin` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('unpins (a post that is not pinned stays so), and deleting a post removes its pin', async () => {
    const { artist, posts } = await artistWith(3);
    for (const id of posts) await pin(artist, id);
    const answer = await unpin(artist, posts[1]!);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().posts.map((post: { _id: string }) => post._id)).toEqual([posts[0], posts[2]]);
    expect((await unpin(artist, posts[1]!)).statusCode).toBe(200);
    expect(await pinnedIds(artist)).toEqual([posts[0], posts[2]]);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/posts/${posts[0]}`,
      headers: { ...auth(artist), prefer: 'return=minimal' },
    });
    expect(deleted.statusCode).toBe(201);
    expect(await pinnedIds(artist)).toEqual([posts[2]]);
    // The freed place can be used again, up to the limit.
    const { posts: more } = { posts: [] as string[] };
    for (let i = 0; i < PINS_MAX - 1; i += 1) more.push(await createPost(artist, `More ${i}`));
    for (const id of more) expect((await pin(artist, id)).statusCode).toBe(200);
    expect(await pinnedIds(artist)).toHaveLength(PINS_MAX);
  });
});

describe('reordering pinned works', () => {
  it('puts them in the order given', async () => {
    const { artist, posts } = await artistWith(3);
    for (const id of posts) await pin(artist, id);
    const answer = await reorder(artist, [posts[2], posts[0], posts[1]!.toUpperCase()]);
    expect(answer.statusCode).toBe(200);
    expect(await pinnedIds(artist)).toEqual([posts[2], posts[0], posts[1]]);
  });

  it('refuses duplicates, a post that is not pinned, a list that leaves one out, and too many', async () => {
    const { artist, posts } = await artistWith(PINS_MAX + 1);
    await pin(artist, posts[0]!);
    await pin(artist, posts[1]!);

    const twice = await reorder(artist, [posts[0], posts[0]]);
    expect(twice.statusCode).toBe(400);
    expect(errorOf(twice)).toBe(PIN_ERRORS.duplicate(posts[0]!));

    const notPinned = await reorder(artist, [posts[1], posts[2]]);
    expect(notPinned.statusCode).toBe(400);
    expect(errorOf(notPinned)).toBe(PIN_ERRORS.notPinned(posts[2]!));

    const leftOut = await reorder(artist, [posts[1]]);
    expect(leftOut.statusCode).toBe(400);
    expect(errorOf(leftOut)).toBe(ERRORS.pinsNotAll);

    const tooMany = await reorder(artist, posts);
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany)).toMatch(/at most 6/);

    const notAList = await reorder(artist, 'x');
    expect(notAList.statusCode).toBe(400);

    expect(await pinnedIds(artist)).toEqual([posts[0], posts[1]]);
  });
});

describe("a profile's pinned works", () => {
  it('come with the viewer flags for a signed-in viewer, only to signed-in people when the artist says so, and 404 for an unknown user', async () => {
    const { artist, posts } = await artistWith(1);
    await pin(artist, posts[0]!);
    const viewer = await signUp(ctx.app);
    await ctx.app.inject({ method: 'POST', url: `/api/posts/like/${posts[0]}`, headers: auth(viewer) });
    const seen = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${artist.user.username.toUpperCase()}/pins`,
      headers: auth(viewer),
    });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().posts[0]).toMatchObject({
      _id: posts[0],
      likes: { likeCount: 1 },
      viewer: { liked: true, isAuthor: false },
    });

    // An artist who shows their works to signed-in people only: none for a signed-out visitor.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: auth(artist),
      payload: { userData: { worksSignedInOnly: true } },
    });
    expect(await pinnedIds(artist)).toEqual([]);
    const signedIn = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${artist.user.username}/pins`,
      headers: auth(viewer),
    });
    expect(signedIn.json().posts.map((post: { _id: string }) => post._id)).toEqual([posts[0]]);

    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/users/nobody_here_at_all/pins' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe(ERRORS.userNotFound);
  });
});
