import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { publish } from '../../events/events.js';
import { createPost, createTwoProcesses, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { IdSet } from './id-set.js';

// Issue 26: a page fills the viewer's flags (liked, disliked, bookmarked, follows the author) from their state
// in memory. Two app instances on one database stand for two processes behind a load balancer: each has
// its own memory and its own event listener.
let ctx: TestContext;
let other: FastifyInstance;
beforeAll(async () => {
  ({ other, ...ctx } = await createTwoProcesses());
});
afterAll(() => ctx.close());

interface Flags {
  liked: boolean;
  disliked: boolean;
  bookmarked: boolean;
  followsAuthor: boolean;
}

type Headers = Record<string, string>;
const auth = (who: SignedUp, headers: Headers = {}) => ({ authorization: `Bearer ${who.token}`, ...headers });

/** The viewer's flags on `postId` as a list of posts shows them (Explore, or the home feed). */
async function flagsOn(app: FastifyInstance, who: SignedUp, postId: string, url = '/api/posts', headers: Headers = {}) {
  const response = await app.inject({ method: 'GET', url, headers: auth(who, headers) });
  expect(response.statusCode, response.body).toBe(200);
  const post = (response.json().posts as { _id: string; viewer: Flags; likes: { likedBy: { _id: string }[] } }[]).find(
    (p) => p._id === postId,
  );
  if (!post) throw new Error(`${postId} is not on ${url}`);
  const { liked, disliked, bookmarked, followsAuthor } = post.viewer;
  return { liked, disliked, bookmarked, followsAuthor, listed: post.likes.likedBy.some((u) => u._id === who.user._id) };
}

/** A write by `who`, answering the cookie its answer sets (the mark of a write, db/replicas.ts). */
async function write(app: FastifyInstance, who: SignedUp, url: string, method: 'POST' | 'DELETE' = 'POST') {
  const response = await app.inject({ method, url, headers: auth(who, { prefer: 'return=minimal' }) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  const cookie = String(response.headers['set-cookie'] ?? '');
  expect(cookie).toMatch(/^sa_primary_until=\d+;/);
  return cookie.split(';')[0]!;
}

const until = async (what: string, check: () => Promise<boolean>, ms = 5000) => {
  for (const started = Date.now(); !(await check());) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('IdSet', () => {
  it('finds exactly the ids it was built with', () => {
    const ids = Array.from({ length: 500 }, () => crypto.randomUUID());
    const set = new IdSet(ids);
    expect(set.size).toBe(500);
    for (const id of ids) expect(set.has(id)).toBe(true);
    for (let i = 0; i < 500; i += 1) expect(set.has(crypto.randomUUID())).toBe(false);
    // One word off, in each of its four words.
    const [first] = ids as [string];
    for (const at of [7, 17, 27, 35]) {
      const changed = first.slice(0, at) + (first[at] === '0' ? '1' : '0') + first.slice(at + 1);
      expect(set.has(changed)).toBe(false);
    }
    expect(IdSet.EMPTY.has(first)).toBe(false);
    expect(set.has('not a uuid')).toBe(false);
  });
});

describe("the viewer's flags on pages, from memory", () => {
  it('show a like, a dislike, a bookmark and a follow at once in the process that wrote', async () => {
    const me = await signUp(ctx.app);
    const author = await signUp(ctx.app);
    const postId = await createPost(ctx.app, author, 'Harbour at dusk');
    const none = { liked: false, disliked: false, bookmarked: false, followsAuthor: false, listed: false };
    // Read first, so the state is remembered before each write.
    expect(await flagsOn(ctx.app, me, postId)).toEqual(none);

    await write(ctx.app, me, `/api/posts/like/${postId}`);
    expect(await flagsOn(ctx.app, me, postId)).toEqual({ ...none, liked: true, listed: true });
    await write(ctx.app, me, `/api/users/bookmark/${postId}`);
    expect(await flagsOn(ctx.app, me, postId)).toEqual({ ...none, liked: true, listed: true, bookmarked: true });
    await write(ctx.app, me, `/api/posts/dislike/${postId}`);
    expect(await flagsOn(ctx.app, me, postId)).toEqual({ ...none, disliked: true, bookmarked: true });
    await write(ctx.app, me, `/api/users/follow/${author.user._id}`);
    const following = { ...none, disliked: true, bookmarked: true, followsAuthor: true };
    expect(await flagsOn(ctx.app, me, postId)).toEqual(following);
    expect(await flagsOn(ctx.app, me, postId, '/api/feed')).toEqual(following);
    await write(ctx.app, me, `/api/users/remove-bookmark/${postId}`);
    await write(ctx.app, me, `/api/users/unfollow/${author.user._id}`);
    expect(await flagsOn(ctx.app, me, postId)).toEqual({ ...none, disliked: true });

    // A block ends the follows both ways: once unblocked, the author's post shows me not following them.
    await write(ctx.app, me, `/api/users/follow/${author.user._id}`);
    expect((await flagsOn(ctx.app, me, postId)).followsAuthor).toBe(true);
    await write(ctx.app, author, `/api/users/${me.user.username}/block`);
    await write(ctx.app, author, `/api/users/${me.user.username}/block`, 'DELETE');
    expect((await flagsOn(ctx.app, me, postId)).followsAuthor).toBe(false);
  });

  it('are read from memory: a change written behind the app shows on its event', async () => {
    const me = await signUp(ctx.app);
    const author = await signUp(ctx.app);
    const postId = await createPost(ctx.app, author, 'Still life with pears');
    expect((await flagsOn(ctx.app, me, postId)).bookmarked).toBe(false);
    await ctx.database.db.execute(
      sql`insert into bookmarks (user_id, post_id) values (${me.user._id}::uuid, ${postId}::uuid)`,
    );
    // The page does not ask the database for the flag: it still says not saved, where the post itself,
    // read whole, does.
    expect((await flagsOn(ctx.app, me, postId)).bookmarked).toBe(false);
    const single = await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}`, headers: auth(me) });
    expect(single.json().post.viewer.bookmarked).toBe(true);
    await publish(ctx.database.db, { type: 'viewer-changed', userId: me.user._id });
    await until('the event reached the app', async () => (await flagsOn(ctx.app, me, postId)).bookmarked);
  });

  it('show a like written on one process in the next read on another, at once', async () => {
    const me = await signUp(ctx.app);
    const author = await signUp(ctx.app);
    const postId = await createPost(ctx.app, author, 'Night market');
    // Both processes remember my state.
    expect((await flagsOn(ctx.app, me, postId)).liked).toBe(false);
    expect((await flagsOn(other, me, postId)).liked).toBe(false);

    const cookie = await write(ctx.app, me, `/api/posts/like/${postId}`);
    // The browser sends the write's cookie with the next request, wherever it goes: read at once on the
    // other process, before its event listener may have heard of the like.
    expect(await flagsOn(other, me, postId, '/api/posts', { cookie })).toMatchObject({ liked: true, listed: true });
    const followed = await write(ctx.app, me, `/api/users/follow/${author.user._id}`);
    expect(await flagsOn(other, me, postId, '/api/feed', { cookie: followed })).toMatchObject({
      liked: true,
      followsAuthor: true,
    });
    const saved = await write(other, me, `/api/users/bookmark/${postId}`);
    expect((await flagsOn(ctx.app, me, postId, '/api/posts', { cookie: saved })).bookmarked).toBe(true);
    // Without the cookie (a client that keeps none), the other process shows it once the event is there.
    await until('the other process heard of the like', async () => (await flagsOn(other, me, postId)).liked);
    await until('the first process heard of the bookmark', async () => (await flagsOn(ctx.app, me, postId)).bookmarked);
    expect(await flagsOn(other, me, postId, '/api/feed')).toMatchObject({
      liked: true,
      bookmarked: true,
      followsAuthor: true,
    });
  });

  it('leave a mark that runs out, and a forged one cannot last longer than a real one', async () => {
    const me = await signUp(ctx.app);
    const author = await signUp(ctx.app);
    const postId = await createPost(ctx.app, author, 'Snow on the pier');
    expect((await flagsOn(other, me, postId)).bookmarked).toBe(false);
    await ctx.database.db.execute(
      sql`insert into bookmarks (user_id, post_id) values (${me.user._id}::uuid, ${postId}::uuid)`,
    );
    // An expired mark: memory, which has not heard of the row.
    expect(
      (await flagsOn(other, me, postId, '/api/posts', { cookie: `sa_primary_until=${Date.now() - 1}` })).bookmarked,
    ).toBe(false);
    // A mark a year ahead: the database for now, but it is held for the cookie's own bound only.
    const forged = `sa_primary_until=${Date.now() + 365 * 86_400_000}`;
    expect((await flagsOn(other, me, postId, '/api/posts', { cookie: forged })).bookmarked).toBe(true);
  });
});
