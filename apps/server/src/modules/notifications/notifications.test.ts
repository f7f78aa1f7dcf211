import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const headers = (who: SignedUp) => ({ authorization: `Bearer ${who.token}`, prefer: 'return=minimal' });
const call = (who: SignedUp, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: headers(who), ...(payload ? { payload } : {}) });
const list = async (who: SignedUp) => (await call(who, 'GET', '/api/notifications')).json();

async function newPost(author: SignedUp) {
  return (await call(author, 'POST', '/api/posts', { content: 'notify me' })).json().post._id as string;
}

describe('notifications', () => {
  it('come for likes, comments, upvotes and follows by others, never for my own actions', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const postId = await newPost(artist);
    await call(artist, 'POST', `/api/posts/like/${postId}`);
    expect((await list(artist)).notifications).toEqual([]);

    await call(fan, 'POST', `/api/posts/like/${postId}`);
    const comment = (
      await call(fan, 'POST', `/api/posts/${postId}/comment`, { commentData: { content: 'Lovely' } })
    ).json().comment;
    const mine = (
      await call(artist, 'POST', `/api/posts/${postId}/comment`, { commentData: { content: 'Thanks!' } })
    ).json().comment;
    await call(fan, 'POST', `/api/comments/upvote/${postId}/${mine._id}`);
    await call(fan, 'POST', `/api/users/follow/${artist.user._id}`);

    const page = await list(artist);
    expect(page.notifications.map((n: { kind: string }) => n.kind)).toEqual(['follow', 'upvote', 'comment', 'like']);
    expect(page.unreadCount).toBe(4);
    const [follow, upvote, commented, liked] = page.notifications;
    expect(follow.actors[0]).toMatchObject({ _id: fan.user._id, username: fan.user.username });
    expect(upvote.comment).toEqual({ _id: mine._id, content: 'Thanks!' });
    expect(commented.comment).toEqual({ _id: comment._id, content: 'Lovely' });
    expect(liked).toMatchObject({ post: { _id: postId, content: 'notify me' }, actorCount: 1, read: false });
    expect((await list(fan)).notifications).toEqual([]);
  });

  it('group likes of one post, and never flood when someone toggles', async () => {
    const artist = await signUp(ctx.app);
    const fans = await Promise.all([signUp(ctx.app), signUp(ctx.app), signUp(ctx.app), signUp(ctx.app)]);
    const postId = await newPost(artist);
    for (const fan of fans) await call(fan, 'POST', `/api/posts/like/${postId}`);
    for (let i = 0; i < 3; i++) {
      await call(fans[0]!, 'POST', `/api/posts/dislike/${postId}`);
      await call(fans[0]!, 'POST', `/api/posts/like/${postId}`);
    }
    const { notifications, unreadCount } = await list(artist);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ kind: 'like', actorCount: 4 });
    expect(notifications[0].actors).toHaveLength(3);
    expect(notifications[0].actors[0]._id).toBe(fans[0]!.user._id);
    expect(unreadCount).toBe(1);
  });

  it('undoing an action removes its unread notification', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const postId = await newPost(artist);
    await call(fan, 'POST', `/api/posts/like/${postId}`);
    await call(fan, 'POST', `/api/users/follow/${artist.user._id}`);
    const comment = (await call(fan, 'POST', `/api/posts/${postId}/comment`, { commentData: { content: 'Hi' } })).json()
      .comment;
    expect((await list(artist)).notifications).toHaveLength(3);
    await call(fan, 'POST', `/api/posts/dislike/${postId}`);
    await call(fan, 'POST', `/api/users/unfollow/${artist.user._id}`);
    await call(fan, 'POST', `/api/comments/delete/${postId}/${comment._id}`);
    expect((await list(artist)).notifications).toEqual([]);
  });

  it('are marked read one group at a time or all at once, and paged', async () => {
    const artist = await signUp(ctx.app);
    const fans = await Promise.all([signUp(ctx.app), signUp(ctx.app), signUp(ctx.app)]);
    for (const fan of fans) await call(fan, 'POST', `/api/users/follow/${artist.user._id}`);
    const first = await list(artist);
    expect(first.unreadCount).toBe(3);
    const one = await call(artist, 'POST', '/api/notifications/read', { key: first.notifications[0].key });
    expect(one.json()).toEqual({ unreadCount: 2 });
    expect((await list(artist)).notifications[0].read).toBe(true);
    const nothing = await call(artist, 'POST', '/api/notifications/read', {});
    expect(nothing.statusCode).toBe(400);
    const all = await call(artist, 'POST', '/api/notifications/read', { all: true });
    expect(all.json()).toEqual({ unreadCount: 0 });
    expect((await call(artist, 'GET', '/api/notifications/unread-count')).json()).toEqual({ unreadCount: 0 });

    const pageOne = (await call(artist, 'GET', '/api/notifications?limit=2')).json();
    expect(pageOne.notifications).toHaveLength(2);
    const pageTwo = (await call(artist, 'GET', `/api/notifications?limit=2&cursor=${pageOne.nextCursor}`)).json();
    expect(pageTwo.notifications).toHaveLength(1);
    expect(pageTwo.nextCursor).toBeNull();
    const keys = [...pageOne.notifications, ...pageTwo.notifications].map((n: { key: string }) => n.key);
    expect(new Set(keys).size).toBe(3);
  });

  it('match the final state when one person toggles a like, a vote and a follow all at once', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const postId = await newPost(artist);
    const commentId = (
      await call(artist, 'POST', `/api/posts/${postId}/comment`, { commentData: { content: 'Mine' } })
    ).json().comment._id as string;
    const toggle = (i: number) => [
      call(fan, 'POST', `/api/posts/${i % 2 === 0 ? 'like' : 'dislike'}/${postId}`),
      call(fan, 'POST', `/api/comments/${i % 2 === 0 ? 'upvote' : 'downvote'}/${postId}/${commentId}`),
      call(fan, 'POST', `/api/users/${i % 2 === 0 ? 'follow' : 'unfollow'}/${artist.user._id}`),
    ];
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 8 }, (_, i) => toggle(i + round)).flat());
    }
    // What the fan's actions left, and the artist's unread notifications from the fan: one per action still in place.
    const [state] = await queryRows<{ liked: boolean; upvoted: boolean; follows: boolean }>(
      ctx.database.db,
      sql`select
            exists (select from post_reactions where post_id = ${postId} and user_id = ${fan.user._id} and kind = 'like') as liked,
            exists (select from comment_votes where comment_id = ${commentId} and user_id = ${fan.user._id} and kind = 'up') as upvoted,
            exists (select from follows where follower_id = ${fan.user._id} and followee_id = ${artist.user._id}) as follows`,
    );
    const rows = await queryRows<{ kind: string }>(
      ctx.database.db,
      sql`select kind from notifications where recipient_id = ${artist.user._id} and actor_id = ${fan.user._id} order by kind`,
    );
    const expected = [
      ...(state!.follows ? ['follow'] : []),
      ...(state!.liked ? ['like'] : []),
      ...(state!.upvoted ? ['upvote'] : []),
    ];
    expect(rows.map((row) => row.kind)).toEqual(expected);
  });

  it('need a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });
});
