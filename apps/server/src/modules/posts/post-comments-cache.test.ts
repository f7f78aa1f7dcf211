import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { POST_COMMENT_CAP, POST_REACTION_CAP } from '@share-arts/contract';
import { users } from '../../db/schema.js';
import {
  createTwoProcesses,
  eventually,
  multipart,
  signUp,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';

// Posts keep their newest comments in each process's post cache: `ctx.app` makes the changes, and
// `other`, a second server process on the same database, learns of them only through the event bus.
let ctx: TestContext;
let other: FastifyInstance;
beforeAll(async () => {
  ({ other, ...ctx } = await createTwoProcesses());
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}`, prefer: 'return=minimal' });

interface ShownComment {
  _id: string;
  content: string;
  edited: boolean;
  userPhoto: string;
  votes: { upvoteCount: number; upvotedBy: { _id: string }[]; downvotedBy: { _id: string }[] };
  viewerVote: string | null;
}

async function post(app: FastifyInstance, url: string, who: SignedUp, payload?: object) {
  const response = await app.inject({ method: 'POST', url, payload, headers: auth(who) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The post's newest comments as `who` sees them in the first page of GET /api/posts and in GET /api/posts/{id}. */
async function shown(app: FastifyInstance, postId: string, who?: SignedUp): Promise<ShownComment[]> {
  const headers = who ? { authorization: `Bearer ${who.token}` } : {};
  const list = await app.inject({ method: 'GET', url: '/api/posts?limit=50', headers });
  const single = await app.inject({ method: 'GET', url: `/api/posts/${postId}`, headers });
  const listed = list.json().posts.find((p: { _id: string }) => p._id === postId);
  expect(listed.comments).toEqual(single.json().post.comments);
  return listed.comments;
}

/** What GET /api/comments builds for `who` (in the database, with the viewer's votes): the newest few. */
async function paged(postId: string, who?: SignedUp): Promise<ShownComment[]> {
  const headers = who ? { authorization: `Bearer ${who.token}` } : {};
  const page = await ctx.app.inject({ method: 'GET', url: `/api/comments/${postId}?order=newest`, headers });
  return page.json().comments.slice(0, POST_COMMENT_CAP);
}

async function newAvatar(who: SignedUp): Promise<string> {
  const data = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#5a7d3c' } })
    .jpeg()
    .toBuffer();
  const { payload, contentType } = multipart([
    { name: 'purpose', data: 'avatar' },
    { name: 'file', data, filename: 'me.jpg', contentType: 'image/jpeg' },
  ]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, authorization: who.token },
  });
  expect(response.statusCode, response.body).toBe(201);
  const { user } = await post(ctx.app, '/api/users/edit', who, { userData: { userPhoto: response.json().media._id } });
  return user.userPhoto;
}

describe("a list's newest comments", () => {
  it('show an edit, a vote, a new photo and a deleted account in the next read, in every process', async () => {
    const author = await signUp(ctx.app);
    const writer = await signUp(ctx.app);
    const voter = await signUp(ctx.app);
    const leaver = await signUp(ctx.app);
    const { post: created } = await post(ctx.app, '/api/posts', author, { content: 'Cached comments' });
    const postId: string = created._id;
    const { comment } = await post(ctx.app, `/api/posts/${postId}/comment`, writer, {
      commentData: { content: 'First draft' },
    });
    await post(ctx.app, `/api/posts/${postId}/comment`, leaver, { commentData: { content: 'Gone soon' } });
    // Both processes cache the post with its comments as they are now.
    for (const app of [ctx.app, other]) {
      expect((await shown(app, postId)).map((c) => c.content)).toEqual(['Gone soon', 'First draft']);
    }

    await post(ctx.app, `/api/comments/edit/${postId}/${comment._id}`, writer, { content: 'Second draft' });
    expect((await shown(ctx.app, postId))[1]).toMatchObject({ content: 'Second draft', edited: true });
    await eventually(async () =>
      expect((await shown(other, postId))[1]).toMatchObject({ content: 'Second draft', edited: true }),
    );

    await post(ctx.app, `/api/comments/upvote/${postId}/${comment._id}`, voter);
    const voted = { upvoteCount: 1, upvotedBy: [{ _id: voter.user._id }] };
    expect((await shown(ctx.app, postId))[1]!.votes).toMatchObject(voted);
    await eventually(async () => expect((await shown(other, postId))[1]!.votes).toMatchObject(voted));

    const photo = await newAvatar(writer);
    for (const app of [ctx.app, other]) {
      await eventually(async () => expect((await shown(app, postId))[1]!.userPhoto).toBe(photo));
    }

    // Accounts are deleted only in SQL; the database's trigger tells every process.
    await ctx.database.db.delete(users).where(eq(users.id, leaver.user._id));
    for (const app of [ctx.app, other]) {
      await eventually(async () => expect((await shown(app, postId)).map((c) => c.content)).toEqual(['Second draft']));
    }
    expect(await shown(other, postId)).toEqual(await paged(postId));
  });

  it("show the viewer's own vote to them, first in its list, and to no one else", async () => {
    const author = await signUp(ctx.app);
    const me = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const { post: created } = await post(ctx.app, '/api/posts', author, { content: 'Vote on my comments' });
    const postId: string = created._id;
    const { comment } = await post(ctx.app, `/api/posts/${postId}/comment`, author, {
      commentData: { content: 'Up or down?' },
    });
    await post(ctx.app, `/api/posts/${postId}/comment`, author, { commentData: { content: 'Unvoted' } });
    // My vote is the oldest: past the cap, the list everyone else sees leaves me out.
    await post(ctx.app, `/api/comments/upvote/${postId}/${comment._id}`, me);
    const others: SignedUp[] = [];
    for (let i = 0; i < POST_REACTION_CAP; i++) {
      others.push(await signUp(ctx.app));
      await post(ctx.app, `/api/comments/upvote/${postId}/${comment._id}`, others.at(-1)!);
    }
    const newestOthers = others.map((o) => ({ _id: o.user._id, username: o.user.username })).reverse();

    for (const app of [ctx.app, other]) {
      const [unvoted, mine] = await shown(app, postId, me);
      expect(mine!.viewerVote).toBe('up');
      expect(mine!.votes.upvotedBy).toEqual([
        { _id: me.user._id, username: me.user.username },
        ...newestOthers.slice(0, POST_REACTION_CAP - 1),
      ]);
      expect(unvoted!.viewerVote).toBeNull();
      for (const viewer of [stranger, undefined]) {
        const [, theirs] = await shown(app, postId, viewer);
        expect(theirs!.viewerVote).toBeNull();
        expect(theirs!.votes.upvotedBy).toEqual(newestOthers);
      }
    }

    // Switched to a downvote: first in that list, and in the other no more.
    await post(ctx.app, `/api/comments/downvote/${postId}/${comment._id}`, me);
    await eventually(async () => {
      const [, mine] = await shown(other, postId, me);
      expect(mine).toMatchObject({ viewerVote: 'down', votes: { downvotedBy: [{ _id: me.user._id }] } });
      expect(mine!.votes.upvotedBy.map((u) => u._id)).not.toContain(me.user._id);
    });
    // Exactly what the database builds for each of them, one comment at a time.
    for (const viewer of [me, stranger, others[0], undefined]) {
      expect(await shown(ctx.app, postId, viewer)).toEqual(await paged(postId, viewer));
    }
  });
});
