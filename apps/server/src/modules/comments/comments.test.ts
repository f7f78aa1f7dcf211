import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ERRORS, POST_COMMENT_CAP } from '@share-arts/contract';
import { comments, commentVotes, posts } from '../../db/schema.js';
import { queryRows } from '../../db/client.js';
import { createTestApp, errorOf, signUp, walkPages, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const headers = (who: SignedUp) => ({ authorization: `Bearer ${who.token}`, prefer: 'return=minimal' });

async function newPost(author: SignedUp) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'a post' },
    headers: headers(author),
  });
  return response.json().post._id as string;
}

const addComment = (who: SignedUp, postId: string, content: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comment`,
    payload: { commentData: { content } },
    headers: headers(who),
  });

async function comment(who: SignedUp, postId: string, content = 'Lovely colours') {
  const response = await addComment(who, postId, content);
  expect(response.statusCode).toBe(201);
  return response.json().comment as { _id: string };
}

const vote = (who: SignedUp, kind: 'up' | 'down', postId: string, commentId: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/comments/${kind}vote/${postId}/${commentId}`, headers: headers(who) });

async function postCommentCount(postId: string) {
  const [row] = await ctx.database.db.select().from(posts).where(eq(posts.id, postId));
  return row!.commentCount;
}

describe('adding comments', () => {
  it('answers 201 with the post (newest comments, count) and the comment', async () => {
    const author = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await newPost(author);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comment`,
      payload: { commentData: { content: '  So calm  ' } },
      headers: { authorization: reader.token },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.comment).toMatchObject({
      content: 'So calm',
      username: reader.user.username,
      userId: reader.user._id,
      postId,
      edited: false,
      votes: { upvoteCount: 0, downvoteCount: 0, upvotedBy: [], downvotedBy: [] },
      viewerVote: null,
    });
    expect(body.post.commentCount).toBe(1);
    expect(body.post.comments[0]._id).toBe(body.comment._id);
    expect(Array.isArray(body.posts)).toBe(true);
  });

  it.each([
    ['blank', '   ', ERRORS.commentContentEmpty],
    ['too long', 'c'.repeat(1001), 'content must be at most 1000 characters long.'],
    ['a number', 7, 'commentData.content must be a string.'],
  ])('refuses %s content with a 400', async (_label, content, message) => {
    const author = await signUp(ctx.app);
    const postId = await newPost(author);
    const response = await addComment(author, postId, content);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(message);
    expect(await postCommentCount(postId)).toBe(0);
  });

  it('404s an unknown post and 401s without a token', async () => {
    const author = await signUp(ctx.app);
    expect((await addComment(author, '00000000-0000-4000-8000-000000000000', 'x')).statusCode).toBe(404);
    expect((await addComment(author, 'bad-id', 'x')).statusCode).toBe(404);
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts/x/comment',
      payload: { commentData: { content: 'x' } },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('listing comments', () => {
  it('pages oldest first by default, newest first on request', async () => {
    const author = await signUp(ctx.app);
    const postId = await newPost(author);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await comment(author, postId, `comment ${i}`))._id);
    const walk = async (order: string) =>
      (
        await walkPages(
          ctx.app,
          (cursor) => `/api/comments/${postId}?limit=2&order=${order}${cursor ? `&cursor=${cursor}` : ''}`,
          'comments',
        )
      )
        .flat()
        .map((c) => c._id);
    expect(await walk('oldest')).toEqual(ids);
    expect(await walk('newest')).toEqual([...ids].reverse());
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/comments/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
  });

  it(`shows a single post with its newest ${POST_COMMENT_CAP} comments, newest first, with the viewer's votes`, async () => {
    const author = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const postId = await newPost(author);
    const ids: string[] = [];
    for (let i = 0; i < POST_COMMENT_CAP + 2; i++) ids.push((await comment(author, postId, `comment ${i}`))._id);
    const newest = ids.slice(-POST_COMMENT_CAP).reverse();
    expect((await vote(reader, 'up', postId, newest[1]!)).statusCode).toBe(201);
    const show = async (who?: SignedUp) =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/posts/${postId}`,
          headers: who ? { authorization: who.token } : {},
        })
      ).json().post as { commentCount: number; comments: { _id: string; viewerVote: string | null }[] };
    const seen = await show(reader);
    expect(seen.commentCount).toBe(ids.length);
    expect(seen.comments.map((c) => c._id)).toEqual(newest);
    expect(seen.comments.map((c) => c.viewerVote)).toEqual([null, 'up', null]);
    expect((await show()).comments.map((c) => c.viewerVote)).toEqual([null, null, null]);
    const quiet = await newPost(author);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/posts/${quiet}` })).json().post.comments).toEqual([]);
  });

  it('answers an empty page for a post without comments, and 404 for a post deleted with its comments', async () => {
    const author = await signUp(ctx.app);
    const quiet = await newPost(author);
    const list = (postId: string) => ctx.app.inject({ method: 'GET', url: `/api/comments/${postId}` });
    const empty = await list(quiet);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ comments: [], nextCursor: null });

    const busy = await newPost(author);
    await comment(author, busy);
    expect((await list(busy)).json().comments).toHaveLength(1);
    await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${busy}`, headers: headers(author) });
    const gone = await list(busy);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ errors: [ERRORS.postNotFound] });
    expect((await list('not-a-post-id')).statusCode).toBe(404);
  });
});

describe('editing and deleting comments', () => {
  it('lets only the author edit; the edit marks it edited', async () => {
    const author = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const postId = await newPost(author);
    const { _id } = await comment(other, postId, 'first draft');
    const denied = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/edit/${postId}/${_id}`,
      payload: { content: 'hijacked' },
      headers: headers(author),
    });
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toEqual({ errors: [ERRORS.editCommentNotOwner] });
    const empty = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/edit/${postId}/${_id}`,
      payload: { content: ' ' },
      headers: headers(other),
    });
    expect(errorOf(empty)).toBe(ERRORS.commentContentEmpty);
    const edited = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/edit/${postId}/${_id}`,
      payload: { content: 'second draft' },
      headers: headers(other),
    });
    expect(edited.statusCode).toBe(201);
    expect(edited.json().comment).toMatchObject({ content: 'second draft', edited: true });
    const [row] = await ctx.database.db.select().from(comments).where(eq(comments.id, _id));
    expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(row!.createdAt.getTime());
  });

  it("lets the comment's author or the post's author delete it, nobody else", async () => {
    const author = await signUp(ctx.app);
    const commenter = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const postId = await newPost(author);
    const first = await comment(commenter, postId);
    const second = await comment(commenter, postId);
    await vote(stranger, 'up', postId, first._id);
    const remove = (who: SignedUp, id: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/comments/delete/${postId}/${id}`, headers: headers(who) });

    const denied = await remove(stranger, first._id);
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toEqual({ errors: [ERRORS.deleteCommentNotOwner] });
    expect((await remove(author, first._id)).statusCode).toBe(201);
    const own = await remove(commenter, second._id);
    expect(own.statusCode).toBe(201);
    expect(own.json().post.commentCount).toBe(0);
    expect(await ctx.database.db.select().from(commentVotes).where(eq(commentVotes.commentId, first._id))).toEqual([]);
    expect((await remove(author, first._id)).statusCode).toBe(404);
  });

  it('404s a comment id that belongs to another post', async () => {
    const author = await signUp(ctx.app);
    const postA = await newPost(author);
    const postB = await newPost(author);
    const onA = await comment(author, postA);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/edit/${postB}/${onA._id}`,
      payload: { content: 'moved' },
      headers: headers(author),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: [ERRORS.commentNotFound] });
    expect((await vote(author, 'up', postB, onA._id)).statusCode).toBe(404);
  });

  it('deleting the post removes its comments and votes', async () => {
    const author = await signUp(ctx.app);
    const postId = await newPost(author);
    const { _id } = await comment(author, postId);
    await vote(author, 'down', postId, _id);
    await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: headers(author) });
    expect(await ctx.database.db.select().from(comments).where(eq(comments.postId, postId))).toEqual([]);
    expect(await ctx.database.db.select().from(commentVotes).where(eq(commentVotes.commentId, _id))).toEqual([]);
  });
});

describe('votes', () => {
  it('are exclusive per user, with the spec messages', async () => {
    const author = await signUp(ctx.app);
    const voter = await signUp(ctx.app);
    const postId = await newPost(author);
    const { _id } = await comment(author, postId);
    const up = await vote(voter, 'up', postId, _id);
    expect(up.statusCode).toBe(201);
    expect(up.json().comment).toMatchObject({
      votes: { upvoteCount: 1, downvoteCount: 0, upvotedBy: [{ _id: voter.user._id }] },
      viewerVote: 'up',
    });
    expect(errorOf(await vote(voter, 'up', postId, _id))).toBe(ERRORS.alreadyUpvoted);
    const down = await vote(voter, 'down', postId, _id);
    expect(down.json().comment).toMatchObject({
      votes: { upvoteCount: 0, downvoteCount: 1, upvotedBy: [], downvotedBy: [{ _id: voter.user._id }] },
      viewerVote: 'down',
    });
    expect(errorOf(await vote(voter, 'down', postId, _id))).toBe(ERRORS.alreadyDownvoted);
    const full = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/upvote/${postId}/${_id}`,
      headers: { authorization: voter.token },
    });
    expect(full.json().comments.map((c: { _id: string }) => c._id)).toEqual([_id]);
  });

  it('keep the counts equal to the vote rows under a concurrent storm', async () => {
    const author = await signUp(ctx.app);
    const postId = await newPost(author);
    const { _id } = await comment(author, postId);
    const voters = await Promise.all(Array.from({ length: 8 }, () => signUp(ctx.app)));
    await Promise.all(
      voters.flatMap((voter) => Array.from({ length: 6 }, (_, i) => vote(voter, i % 2 ? 'down' : 'up', postId, _id))),
    );
    const [counts] = await queryRows<{ up: number; down: number }>(
      ctx.database.db,
      sql`select count(*) filter (where kind = 'up')::int as up, count(*) filter (where kind = 'down')::int as down
          from comment_votes where comment_id = ${_id}`,
    );
    const [row] = await ctx.database.db.select().from(comments).where(eq(comments.id, _id));
    expect(row!.upvoteCount).toBe(counts!.up);
    expect(row!.downvoteCount).toBe(counts!.down);
    expect(counts!.up + counts!.down).toBe(8);
  });

  it('keeps the post comment count exact under concurrent adds and deletes', async () => {
    const author = await signUp(ctx.app);
    const postId = await newPost(author);
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => comment(author, postId, `c${i}`)));
    await Promise.all(
      made
        .slice(0, 4)
        .map((c) =>
          ctx.app.inject({ method: 'POST', url: `/api/comments/delete/${postId}/${c._id}`, headers: headers(author) }),
        ),
    );
    const rows = await ctx.database.db.select().from(comments).where(eq(comments.postId, postId));
    expect(await postCommentCount(postId)).toBe(rows.length);
    expect(rows).toHaveLength(6);
  });
});
