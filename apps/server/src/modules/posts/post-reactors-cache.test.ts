import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { POST_REACTION_CAP } from '@share-arts/contract';
import { buildApp } from '../../app.js';
import {
  createPost,
  createTwoProcesses,
  eventually,
  signUp,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';

// Each process keeps a post's newest reactors in its post cache (issue 26: a like reads them again, not the
// whole post). `ctx.app` and `other` are two server processes on one database; `other` learns of a like only
// through the event bus.
let ctx: TestContext;
let other: FastifyInstance;
beforeAll(async () => {
  ({ other, ...ctx } = await createTwoProcesses());
});
afterAll(() => ctx.close());

interface Shown {
  content: string;
  likes: { likeCount: number; dislikeCount: number; likedBy: { _id: string }[]; dislikedBy: { _id: string }[] };
  comments: { content: string }[];
}

async function react(app: FastifyInstance, kind: 'like' | 'dislike', postId: string, who: SignedUp): Promise<Shown> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/posts/${kind}/${postId}`,
    headers: { authorization: `Bearer ${who.token}`, prefer: 'return=minimal' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post;
}

/** The post as `who` sees it in GET /api/posts/{id}, checked against the first page of GET /api/posts. */
async function shown(app: FastifyInstance, postId: string, who?: SignedUp): Promise<Shown> {
  const headers = who ? { authorization: `Bearer ${who.token}` } : {};
  const single = (await app.inject({ method: 'GET', url: `/api/posts/${postId}`, headers })).json().post;
  const list = (await app.inject({ method: 'GET', url: '/api/posts?limit=50', headers })).json();
  expect(list.posts.find((p: { _id: string }) => p._id === postId)).toEqual(single);
  return single;
}

const ids = (list: { _id: string }[]) => list.map((user) => user._id);

describe("a post's newest reactors", () => {
  it('show a like and an unlike in the next read, in every process, and leave the rest of the cached post', async () => {
    const author = await signUp(ctx.app);
    const liker = await signUp(ctx.app);
    const viewer = await signUp(ctx.app);
    const postId = await createPost(ctx.app, author, 'Liked by whom?');
    await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comment`,
      headers: { authorization: `Bearer ${author.token}`, prefer: 'return=minimal' },
      payload: { commentData: { content: 'As written' } },
    });
    // Both processes cache the post as it is now.
    for (const app of [ctx.app, other]) expect((await shown(app, postId, viewer)).likes.likedBy).toEqual([]);

    // Changed behind the servers' backs (no event): a like must not read the whole post again.
    await ctx.database.db.execute(sql`update comments set content = 'Changed in SQL' where post_id = ${postId}::uuid`);

    const answer = await react(ctx.app, 'like', postId, liker);
    expect(answer.likes).toMatchObject({ likeCount: 1, likedBy: [{ _id: liker.user._id }] });
    expect(answer.comments.map((c) => c.content)).toEqual(['As written']);
    // Seen at once by others in the process that wrote, and in the other once the event arrives.
    expect((await shown(ctx.app, postId, viewer)).likes).toMatchObject({
      likeCount: 1,
      likedBy: [{ _id: liker.user._id }],
    });
    await eventually(async () => {
      const seen = await shown(other, postId);
      expect(seen.likes).toMatchObject({ likeCount: 1, likedBy: [{ _id: liker.user._id }] });
      expect(seen.comments.map((c) => c.content)).toEqual(['As written']);
    });

    // The heart's "unlike" (a dislike): out of likedBy, into dislikedBy, everywhere.
    const unliked = await react(other, 'dislike', postId, liker);
    expect(unliked.likes).toMatchObject({ likeCount: 0, likedBy: [], dislikedBy: [{ _id: liker.user._id }] });
    expect((await shown(other, postId, viewer)).likes).toMatchObject({
      likeCount: 0,
      dislikeCount: 1,
      likedBy: [],
      dislikedBy: [{ _id: liker.user._id }],
    });
    await eventually(async () =>
      expect((await shown(ctx.app, postId, viewer)).likes).toMatchObject({
        likeCount: 0,
        likedBy: [],
        dislikedBy: [{ _id: liker.user._id }],
      }),
    );
  });

  it('agree with a process that reads them afresh after many likes at once, from both processes', async () => {
    const author = await signUp(ctx.app);
    const likers = await Promise.all(Array.from({ length: POST_REACTION_CAP + 6 }, () => signUp(ctx.app)));
    const postId = await createPost(ctx.app, author, 'Popular');
    for (const app of [ctx.app, other]) await shown(app, postId);

    // Every liker at once, half through each process; then some take their like back.
    await Promise.all(likers.map((who, i) => react(i % 2 ? other : ctx.app, 'like', postId, who)));
    await Promise.all(likers.slice(0, 4).map((who, i) => react(i % 2 ? ctx.app : other, 'dislike', postId, who)));

    const fresh = await buildApp(ctx.config, ctx.database);
    await fresh.ready();
    try {
      const truth = (await shown(fresh, postId)).likes;
      expect(truth.likeCount).toBe(likers.length - 4);
      expect(truth.likedBy).toHaveLength(POST_REACTION_CAP);
      expect(ids(truth.dislikedBy).sort()).toEqual(ids(likers.slice(0, 4).map((who) => who.user)).sort());
      for (const app of [ctx.app, other]) {
        await eventually(async () => expect((await shown(app, postId)).likes).toEqual(truth));
      }
    } finally {
      await fresh.close();
    }
  });

  it('answer a like with the post exactly as GET /api/posts/{id} then shows it to the liker', async () => {
    const author = await signUp(ctx.app);
    const liker = await signUp(ctx.app);
    const as = (who: SignedUp) => ({ authorization: `Bearer ${who.token}`, prefer: 'return=minimal' });
    const postId = await createPost(ctx.app, author, 'Glazes and #ceramics');
    // The liker's own state of the post and its author, which the answer must carry.
    for (const [url, payload] of [
      [`/api/users/bookmark/${postId}`, undefined],
      [`/api/users/follow/${author.user._id}`, undefined],
      ['/api/users/me/muted-words', { word: 'glazes' }],
    ] as const) {
      const response = await ctx.app.inject({ method: 'POST', url, headers: as(liker), payload });
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    const single = async () =>
      (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}`, headers: as(liker) })).json().post;

    const liked = await react(ctx.app, 'like', postId, liker);
    expect(liked).toMatchObject({
      viewer: { liked: true, bookmarked: true, followsAuthor: true, mutedWord: 'glazes' },
    });
    expect(liked).toEqual(await single());
    const unliked = await react(ctx.app, 'dislike', postId, liker);
    expect(unliked).toMatchObject({
      likes: { likeCount: 0, dislikeCount: 1 },
      viewer: { liked: false, disliked: true },
    });
    expect(unliked).toEqual(await single());
  });
});
