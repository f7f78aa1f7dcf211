import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { POST_COMMENT_CAP, USER_CARD_LIST_CAP, USER_LIST_CAP } from '@share-arts/contract';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * The three shapes the spec's original client needs (issue 27): users in every answer carry `followers`
 * and `following` (the newest few, the viewer's own relation always among them), posts in every list
 * carry their newest comments beside their count, and the default photo's URL we handed out is
 * accepted back by POST /api/users/edit.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: who.token });
const ids = (list: { _id: string }[]) => list.map((user) => user._id);
const post = (url: string, who: SignedUp, payload?: InjectOptions['payload']) =>
  ctx.app.inject({ method: 'POST', url, headers: auth(who), payload });
const get = (url: string, who?: SignedUp) => ctx.app.inject({ method: 'GET', url, headers: who ? auth(who) : {} });
const signUpMany = (n: number) => Promise.all(Array.from({ length: n }, () => signUp(ctx.app)));

describe('users carry followers and following', () => {
  it('in GET /api/users, the newest few each way, with the viewer always among them', async () => {
    const [viewer, star] = [await signUp(ctx.app), await signUp(ctx.app)];
    // The viewer follows the star before anyone else does, and the star follows the viewer before
    // following anyone else: both relations are the oldest, past the cap of the newest.
    expect((await post(`/api/users/follow/${star.user._id}`, viewer)).statusCode).toBe(200);
    expect((await post(`/api/users/follow/${viewer.user._id}`, star)).statusCode).toBe(200);
    const crowd = await signUpMany(USER_CARD_LIST_CAP + 1);
    for (const fan of crowd) {
      expect((await post(`/api/users/follow/${star.user._id}`, fan)).statusCode).toBe(200);
      expect((await post(`/api/users/follow/${fan.user._id}`, star)).statusCode).toBe(200);
      expect((await post(`/api/users/follow/${fan.user._id}`, viewer)).statusCode).toBe(200);
    }
    const newestFans = ids(crowd.map((fan) => fan.user).reverse()).slice(0, USER_CARD_LIST_CAP);

    const page = (await get('/api/users?limit=50', viewer)).json().users as {
      _id: string;
      followers: { _id: string; username: string; userPhoto: string }[];
      following: { _id: string }[];
      followerCount: number;
    }[];
    const starCard = page.find((user) => user._id === star.user._id)!;
    expect(starCard.followerCount).toBe(crowd.length + 1);
    expect(ids(starCard.followers)).toEqual([viewer.user._id, ...newestFans.slice(0, USER_CARD_LIST_CAP - 1)]);
    expect(ids(starCard.following)).toEqual([viewer.user._id, ...newestFans.slice(0, USER_CARD_LIST_CAP - 1)]);
    expect(starCard.followers[0]).toMatchObject({ username: viewer.user.username, userPhoto: expect.any(String) });
    // The spec's suggestion list asks the signed-in user's own entry whether they follow each person
    // shown: every one of them is in it, the star too (the oldest of the viewer's follows).
    const own = page.find((user) => user._id === viewer.user._id)!;
    for (const shown of page.filter((user) => user.followers.some((f) => f._id === viewer.user._id))) {
      expect(ids(own.following)).toContain(shown._id);
    }
    expect(ids(own.following)).toContain(star.user._id);
    // Every card carries both lists, never more than the cap (own entry aside).
    for (const user of page.filter((u) => u._id !== viewer.user._id)) {
      expect(user.followers.length).toBeLessThanOrEqual(USER_CARD_LIST_CAP);
      expect(user.following.length).toBeLessThanOrEqual(USER_CARD_LIST_CAP);
    }

    // Signed out: the newest only.
    const anonymous = (await get('/api/users?limit=50')).json().users as typeof page;
    expect(ids(anonymous.find((user) => user._id === star.user._id)!.followers)).toEqual(newestFans);
  });

  it('in a single user and the follow answer, up to the larger cap, the viewer first when they follow', async () => {
    const [viewer, star] = [await signUp(ctx.app), await signUp(ctx.app)];
    expect((await post(`/api/users/follow/${star.user._id}`, viewer)).statusCode).toBe(200);
    for (const fan of await signUpMany(USER_LIST_CAP)) {
      expect((await post(`/api/users/follow/${star.user._id}`, fan)).statusCode).toBe(200);
    }
    const user = (await get(`/api/users/${star.user._id}`, viewer)).json().user;
    expect(user.followers).toHaveLength(USER_LIST_CAP);
    expect(user.followers[0]._id).toBe(viewer.user._id);
    const anonymous = (await get(`/api/users/by-username/${star.user.username}`)).json().user;
    expect(ids(anonymous.followers)).not.toContain(viewer.user._id);

    const unfollowed = await post(`/api/users/unfollow/${star.user._id}`, viewer);
    expect(ids(unfollowed.json().followUser.followers)).not.toContain(viewer.user._id);
    const followed = await post(`/api/users/follow/${star.user._id}`, viewer);
    expect(followed.json().followUser.followers[0]._id).toBe(viewer.user._id);
    expect(ids(followed.json().user.following)).toContain(star.user._id);
  });
});

describe('posts in every list carry their newest comments', () => {
  it('with the count beside them, as the viewer sees them, on every list route and in write answers', async () => {
    const [author, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
    const created = await post('/api/posts', author, { content: 'talk about this #commented' });
    const postId: string = created.json().post._id;
    const quiet: string = (await post('/api/posts', author, { content: 'nobody says a word' })).json().post._id;
    const commentIds: string[] = [];
    for (let i = 1; i <= POST_COMMENT_CAP + 1; i++) {
      const written = await post(`/api/posts/${postId}/comment`, reader, { commentData: { content: `comment ${i}` } });
      expect(written.statusCode).toBe(201);
      commentIds.push(written.json().comment._id);
      // The original client replaces its list with `posts` and draws each post's comments: the new
      // comment is there.
      const listed = written.json().posts.find((p: { _id: string }) => p._id === postId);
      expect(listed.comments[0]._id).toBe(written.json().comment._id);
      expect(listed.commentCount).toBe(i);
    }
    const newest = [...commentIds].reverse().slice(0, POST_COMMENT_CAP);
    expect((await post(`/api/comments/upvote/${postId}/${newest[0]}`, author)).statusCode).toBeLessThan(300);
    expect((await post(`/api/users/bookmark/${postId}`, author)).statusCode).toBe(200);
    expect((await post(`/api/posts/like/${postId}`, author)).statusCode).toBe(201);

    const lists: [string, SignedUp | undefined, string][] = [
      ['/api/posts', undefined, 'posts'],
      ['/api/posts', author, 'posts'],
      ['/api/feed', author, 'posts'],
      [`/api/posts/user/${author.user.username}`, reader, 'posts'],
      ['/api/posts/liked', author, 'posts'],
      ['/api/users/bookmark', author, 'bookmarks'],
      ['/api/search?q=%23commented&type=posts', author, 'posts'],
      ['/api/search?q=talk&type=posts', reader, 'posts'],
    ];
    for (const [url, who, key] of lists) {
      const response = await get(url, who);
      expect(response.statusCode, url).toBe(200);
      const posts = response.json()[key] as {
        _id: string;
        comments: { _id: string; content: string; viewerVote: string | null }[];
        commentCount: number;
      }[];
      const found = posts.find((p) => p._id === postId)!;
      expect(found, url).toBeDefined();
      expect(ids(found.comments), url).toEqual(newest);
      expect(found.commentCount, url).toBe(POST_COMMENT_CAP + 1);
      expect(found.comments[0]!.viewerVote, url).toBe(who === author ? 'up' : null);
      const silent = posts.find((p) => p._id === quiet);
      if (silent) expect([silent.comments, silent.commentCount], url).toEqual([[], 0]);
    }
  });
});

describe('POST /api/users/edit takes back the photo URL it handed out', () => {
  it('accepts the default photo unchanged and still refuses any other URL', async () => {
    const me = await signUp(ctx.app);
    const handedOut: string = (await get(`/api/users/${me.user._id}`, me)).json().user.userPhoto;
    expect(handedOut).toBe('/media/defaults/default-avatar.png');
    const saved = await post('/api/users/edit', me, { userData: { userPhoto: handedOut, bio: 'saved at last' } });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().user).toMatchObject({ userPhoto: handedOut, bio: 'saved at last' });
    for (const foreign of [
      `https://elsewhere.example.com${handedOut}`,
      '/media/defaults/default-post.jpg',
      `${handedOut}?x=1`,
      '/media/defaults/../defaults/default-avatar.png',
    ]) {
      const refused = await post('/api/users/edit', me, { userData: { userPhoto: foreign } });
      expect(refused.statusCode, foreign).toBe(400);
      expect(errorOf(refused), foreign).toMatch(/^userPhoto must be/);
    }
  });
});
