import { Announce, Delete, Like, Undo, type Activity } from '@fedify/vocab';
import type { LiveNotification, NotificationPage, Post } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { createPost, liveSocket, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * What arrives (issue 39): a remote actor's `Like` and `Announce` (a boost) of a public work, their `Undo`, and the
 * actor's `Delete` of itself, between the app on one loopback port and the fake remote server on another (whose
 * actors sign what they send). Everything is checked through the site's API: the like count, the notifications
 * with the remote handle, and the live frames.
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp());
}, 90_000);
afterAll(() => closeApp?.());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const sharedInbox = () => `${origin}/ap/inbox`;
const noteOf = (postId: string) => `${origin}/ap/posts/${postId}`;
/** The remote actor `as`'s handle, as the site shows it (without the leading @). */
const handleOf = (as: string) => `${as}@${new URL(remote.origin).host}`;

let activities = 0;
/** A Like (or with `Announce`, a boost) of `object` by the remote actor `as`, with a new id. */
function reactionOf(kind: typeof Like | typeof Announce, object: string, as = 'bob'): Like | Announce {
  activities += 1;
  const values = {
    id: new URL(`/users/${as}/${kind === Like ? 'likes' : 'statuses'}/${activities}`, remote.origin),
    actor: new URL(remote.actor(as)),
    object: new URL(object),
  };
  return kind === Like ? new Like(values) : new Announce(values);
}

/** The Undo of `activity` by its actor `as` (embedded, as Mastodon sends it; or named by its id only). */
const undoOf = (activity: Like | Announce, as = 'bob', embedded = true) =>
  new Undo({
    id: new URL(`/undos/${(activities += 1)}`, remote.origin),
    actor: new URL(remote.actor(as)),
    object: embedded ? activity : activity.id,
  });

async function deliver(activity: Activity, as = 'bob') {
  const response = await remote.deliver(sharedInbox(), activity, as);
  expect(response.status, await response.text()).toBe(202);
}

/** Waits until no activity taken in waits or runs (what an inbox accepted has had its effect, or none). */
async function inboxDrained() {
  await eventually(async () => {
    const counts = await ctx.app.jobs.counts();
    const inbox = counts.find((count) => count.kind === 'federation.inbox');
    return !inbox || inbox.queued + inbox.running === 0;
  }, 'the inbox jobs to be done');
}

/** The work's like count as the site shows it (signed out, or as `who`). */
async function likeCount(postId: string, who?: SignedUp): Promise<number> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/posts/${postId}`,
    ...(who ? { headers: auth(who) } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  const json = response.json();
  return ((json.post ?? json) as Post).likes.likeCount;
}

async function notificationsOf(who: SignedUp): Promise<NotificationPage> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: auth(who) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** What the notifications say, as [kind, the actors' names, read] per group. */
const groupsOf = async (who: SignedUp) =>
  (await notificationsOf(who)).notifications.map((item) => [
    item.kind,
    item.actors.map((actor) => actor.username),
    item.read,
  ]);

/** The remote reactions kept of a work, as `kind handle`. */
async function reactionsOf(postId: string): Promise<string[]> {
  const rows = await queryRows<{ entry: string }>(
    ctx.database.db,
    sql`select rr.kind || ' ' || ra.handle as entry from remote_reactions rr
        join remote_actors ra on ra.id = rr.remote_actor_id where rr.post_id = ${postId}::uuid order by 1`,
  );
  return rows.map((row) => row.entry);
}

/** Every post's remote like count against the rows it counts: the posts whose counter is off. */
async function countersOff(): Promise<unknown[]> {
  return queryRows(
    ctx.database.db,
    sql`select p.id, p.remote_like_count,
          (select count(*)::int from remote_reactions r where r.post_id = p.id and r.kind = 'like') as rows
        from posts p
        where p.remote_like_count <> (select count(*)::int from remote_reactions r where r.post_id = p.id and r.kind = 'like')
           or p.like_count <> (select count(*)::int from post_reactions r where r.post_id = p.id and r.kind = 'like')`,
  );
}

async function localLike(postId: string, who: SignedUp) {
  const response = await ctx.app.inject({ method: 'POST', url: `/api/posts/like/${postId}`, headers: auth(who) });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

describe('a like from another server', { timeout: 120_000 }, () => {
  it('counts with the local likes, notifies the artist live with the remote handle, and counts a repeated Like once', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Liked from afar');
    await localLike(work, fan);
    expect(await likeCount(work)).toBe(1);

    const live = await liveSocket(ctx.app, artist.token);
    const frames = live.frames;
    live.socket.send(JSON.stringify({ type: 'watch', posts: [work] }));
    try {
      await deliver(reactionOf(Like, noteOf(work)));
      const bob = { handle: handleOf('bob'), url: `${remote.origin}/@bob` };
      const frame = await eventually(
        async () => frames.find((item) => item.type === 'notification' && item.actor.remote),
        'the live notification',
      );
      expect(frame).toMatchObject({
        kind: 'like',
        text: `@${bob.handle} liked your post`,
        actor: { username: bob.handle, firstName: 'Bob Remote', remote: bob },
        postId: work,
      });
      await eventually(
        async () => frames.find((item) => item.type === 'counts' && item.postId === work && item.likeCount === 2),
        'the live like count',
      );
      expect(await likeCount(work)).toBe(2);
      expect(await likeCount(work, fan)).toBe(2);

      // Grouped with the local like of the same post, as local likes are: one group, both named.
      const page = await notificationsOf(artist);
      expect(page.unreadCount).toBe(1);
      expect(page.notifications).toHaveLength(1);
      expect(page.notifications[0]).toMatchObject({ kind: 'like', actorCount: 2, post: { _id: work } });
      expect(page.notifications[0]!.actors.map((actor) => actor.username)).toEqual([bob.handle, fan.user.username]);
      expect(page.notifications[0]!.actors[0]).toMatchObject({ remote: bob });

      // The same Like again (a new id, as a server that lost track would send): counted once, notified once.
      await deliver(reactionOf(Like, noteOf(work)));
      // Its page URL names the same work.
      await deliver(reactionOf(Like, `${origin}/posts/${work}`));
      await inboxDrained();
      expect(await likeCount(work)).toBe(2);
      expect(await reactionsOf(work)).toEqual([`like ${bob.handle}`]);
      expect(frames.filter((item) => item.type === 'notification' && item.actor.remote)).toHaveLength(1);
      expect(await countersOff()).toEqual([]);
    } finally {
      live.socket.close();
    }
  });

  it('Undo (embedded or by its id) takes the like back and withdraws its unread notification', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Liked, then not');
    const like = reactionOf(Like, noteOf(work), 'bob');
    await deliver(like, 'bob');
    // One after the other, so that the newest is known (the inbox's jobs run two at a time).
    await eventually(async () => (await likeCount(work)) === 1, "bob's like to count");
    const second = reactionOf(Like, noteOf(work), 'carol');
    await deliver(second, 'carol');
    await eventually(async () => (await likeCount(work)) === 2, 'both likes to count');
    expect(await groupsOf(artist)).toEqual([['like', [handleOf('carol'), handleOf('bob')], false]]);

    // An Undo of bob's Like sent by carol names carol as its actor: it takes back nothing of bob's.
    await deliver(undoOf(like, 'carol'), 'carol');
    await inboxDrained();
    expect(await likeCount(work)).toBe(2);

    await deliver(undoOf(like, 'bob'), 'bob');
    await eventually(async () => (await likeCount(work)) === 1, "bob's like to be taken back");
    expect(await groupsOf(artist)).toEqual([['like', [handleOf('carol')], false]]);

    // Read, then undone by the Like's id alone: the like goes, the read notification stays.
    const read = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      payload: { all: true },
      headers: auth(artist),
    });
    expect(read.statusCode, read.body).toBe(200);
    await deliver(undoOf(second, 'carol', false), 'carol');
    await eventually(async () => (await likeCount(work)) === 0, "carol's like to be taken back");
    expect(await groupsOf(artist)).toEqual([['like', [handleOf('carol')], true]]);
    expect(await reactionsOf(work)).toEqual([]);
    expect(await countersOff()).toEqual([]);
  });

  it('takes a Like of a signed-in-only, hidden, missing or other server’s work (202) without effect', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'For signed-in eyes');
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      payload: { userData: { worksSignedInOnly: true } },
      headers: auth(artist),
    });
    expect(edit.statusCode, edit.body).toBeLessThan(300);
    const other = await signUp(ctx.app);
    const hidden = await createPost(ctx.app, other, 'Hidden');
    await queryRows(ctx.database.db, sql`update posts set moderation_state = 'hidden' where id = ${hidden}::uuid`);

    await deliver(reactionOf(Like, noteOf(work)));
    await deliver(reactionOf(Announce, noteOf(work)));
    await deliver(reactionOf(Like, noteOf(hidden)));
    await deliver(reactionOf(Like, noteOf('00000000-0000-4000-8000-000000000000')));
    await deliver(reactionOf(Like, `${remote.origin}/users/bob/statuses/1`));
    await deliver(reactionOf(Like, `${origin}/ap/posts/not-a-work`));
    await inboxDrained();
    const viewer = await signUp(ctx.app);
    expect(await likeCount(work, viewer)).toBe(0);
    expect(await reactionsOf(work)).toEqual([]);
    expect(await reactionsOf(hidden)).toEqual([]);
    expect((await notificationsOf(artist)).notifications).toEqual([]);
    expect((await notificationsOf(other)).notifications).toEqual([]);
  });
});

describe('a boost from another server', { timeout: 120_000 }, () => {
  it('notifies the artist live ("boosted your post"), counts no like, and Undo(Announce) takes it back', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Boosted');
    const live = await liveSocket(ctx.app, artist.token);
    const frames = () => live.frames.filter((frame): frame is LiveNotification => frame.type === 'notification');
    try {
      const boost = reactionOf(Announce, noteOf(work));
      await deliver(boost);
      const frame = await eventually(
        async () => frames().find((item) => item.kind === 'boost'),
        'the live notification',
      );
      expect(frame).toMatchObject({ text: `@${handleOf('bob')} boosted your post`, postId: work });
      await deliver(reactionOf(Announce, noteOf(work), 'carol'), 'carol');
      await eventually(async () => (await reactionsOf(work)).length === 2, "carol's boost");
      const page = await notificationsOf(artist);
      expect(page.notifications).toHaveLength(1);
      expect(page.notifications[0]).toMatchObject({ kind: 'boost', actorCount: 2, post: { _id: work } });
      expect(page.notifications[0]!.actors.map((actor) => actor.remote?.handle)).toEqual([
        handleOf('carol'),
        handleOf('bob'),
      ]);
      expect(await likeCount(work)).toBe(0);

      await deliver(undoOf(boost));
      await eventually(async () => (await reactionsOf(work)).length === 1, 'the boost to be taken back');
      expect(await groupsOf(artist)).toEqual([['boost', [handleOf('carol')], false]]);
    } finally {
      live.socket.close();
    }
  });
});

describe("a remote actor's Delete of itself", { timeout: 120_000 }, () => {
  it('takes its likes and boosts with it, the counts exact, and its notifications', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const first = await createPost(ctx.app, artist, 'First');
    const second = await createPost(ctx.app, artist, 'Second');
    await localLike(first, fan);
    await deliver(reactionOf(Like, noteOf(first), 'carol'), 'carol');
    await deliver(reactionOf(Like, noteOf(second), 'carol'), 'carol');
    await deliver(reactionOf(Announce, noteOf(second), 'carol'), 'carol');
    await deliver(reactionOf(Like, noteOf(second), 'bob'), 'bob');
    await eventually(async () => (await reactionsOf(second)).length === 3, 'the reactions');
    await eventually(async () => (await likeCount(first)) === 2, 'the likes of the first work');
    expect(await likeCount(second)).toBe(2);

    const deletion = new Delete({
      id: new URL('/users/carol#delete-reactions', remote.origin),
      actor: new URL(remote.actor('carol')),
      object: new URL(remote.actor('carol')),
    });
    await deliver(deletion, 'carol');
    await eventually(async () => (await likeCount(second)) === 1, "carol's likes to go");
    expect(await likeCount(first)).toBe(1);
    expect(await reactionsOf(first)).toEqual([]);
    expect(await reactionsOf(second)).toEqual([`like ${handleOf('bob')}`]);
    const groups = await groupsOf(artist);
    expect(groups).toEqual(
      expect.arrayContaining([
        ['like', [handleOf('bob')], false],
        ['like', [fan.user.username], false],
      ]),
    );
    expect(groups).toHaveLength(2);
    expect(await countersOff()).toEqual([]);
  });
});
