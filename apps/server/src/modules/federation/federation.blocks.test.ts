import { Announce, Create, Follow, Like, Note, PUBLIC_COLLECTION, type Activity } from '@fedify/vocab';
import type { FollowerPage, SafetyUserPage } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { createPost, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';
import { withoutRefused } from './federation.safety.js';

/**
 * An artist blocks someone on another server (issue 39, docs/federation.md "What else keeps people safe across
 * servers"), between the app on a loopback port and the fake remote server of src/test/fake-remote.ts: the block
 * ends their follow, likes, boosts and notifications, a signed `Block` reaches their own inbox (the remote server
 * verifies its signature before keeping it), their Follow, Like and Announce do nothing while it stands (the Follow
 * is answered by a Reject), and the unblock sends the `Undo(Block)`.
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
const actorOf = (who: SignedUp) => `${origin}/ap/users/${who.user._id}`;
const noteOf = (postId: string) => `${origin}/ap/posts/${postId}`;
const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(ctx.database.db, query);

let activities = 0;
const activityId = (kind: string) => new URL(`/${kind}/blocks-${(activities += 1)}`, remote.origin);

async function deliver(activity: Activity, as = 'bob') {
  const response = await remote.deliver(`${origin}/ap/inbox`, activity, as);
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

const followOf = (who: SignedUp, as = 'bob') =>
  new Follow({ id: activityId('follows'), actor: new URL(remote.actor(as)), object: new URL(actorOf(who)) });
const likeOf = (postId: string, as = 'bob') =>
  new Like({ id: activityId('likes'), actor: new URL(remote.actor(as)), object: new URL(noteOf(postId)) });
const boostOf = (postId: string, as = 'bob') =>
  new Announce({ id: activityId('statuses'), actor: new URL(remote.actor(as)), object: new URL(noteOf(postId)) });

const state = async (who: SignedUp, postId: string) => {
  const [row] = await rows<{ follows: number; count: number; reactions: number; likes: number; notes: number }>(
    sql`select (select count(*)::int from remote_follows where user_id = u.id) as follows,
          u.remote_follower_count as count,
          (select count(*)::int from remote_reactions where post_id = ${postId}::uuid) as reactions,
          (select remote_like_count from posts where id = ${postId}::uuid) as likes,
          (select count(*)::int from notifications where recipient_id = u.id and remote_actor_id is not null) as notes
        from users u where u.id = ${who.user._id}::uuid`,
  );
  return row!;
};

/** The artist's followers as the API lists them (the followers dialog). */
async function followers(who: SignedUp) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/users/${who.user._id}/followers`,
    headers: auth(who),
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as FollowerPage).followers;
}

async function blockRemote(who: SignedUp, id: string, on = true) {
  const response = await ctx.app.inject({
    method: on ? 'POST' : 'DELETE',
    url: `/api/remote-people/${id}/block`,
    headers: auth(who),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ blocked: on });
}

/** The activities of `type` the remote server verified and kept at bob's own inbox, from `who`. */
const receivedBy = (who: SignedUp, type: string) =>
  remote.received.filter(
    (each) => each.path === '/users/bob/inbox' && each.json.type === type && each.json.actor === actorOf(who),
  );

describe("an artist's block of someone on another server", { timeout: 120_000 }, () => {
  it('ends their follow, likes, boosts and notifications, and sends them a signed Block', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Seen from afar');
    await deliver(followOf(artist));
    await deliver(likeOf(work));
    await deliver(boostOf(work));
    await eventually(async () => (await state(artist, work)).reactions === 2, 'the follow, like and boost');
    expect(await state(artist, work)).toEqual({ follows: 1, count: 1, reactions: 2, likes: 1, notes: 3 });

    const [bob] = await followers(artist);
    expect(bob?.remote?.handle).toBe(`bob@${new URL(remote.origin).host}`);
    await blockRemote(artist, bob!._id);

    expect(await state(artist, work)).toEqual({ follows: 0, count: 0, reactions: 0, likes: 0, notes: 0 });
    expect(await followers(artist)).toEqual([]);
    // The Block reached bob's own inbox, its signature verified by the remote server against the artist's key.
    const [block] = await eventually(async () => {
      const found = receivedBy(artist, 'Block');
      return found.length > 0 && found;
    }, 'the Block at the remote inbox');
    expect(block!.json.object).toBe(remote.actor('bob'));
    expect(block!.json.id).toMatch(new RegExp(`^${actorOf(artist)}#blocks/[0-9a-f-]{36}$`));
    // Nothing else of the artist goes to them while it stands.
    const bobRecipient = { id: new URL(remote.actor('bob')), inboxId: new URL(`${remote.origin}/users/bob/inbox`) };
    expect(await withoutRefused(ctx.database.db, [artist.user._id], [bobRecipient])).toEqual([]);

    // Blocking again answers the same and sends nothing more.
    await blockRemote(artist, bob!._id);
    expect(await rows(sql`select from remote_person_blocks where user_id = ${artist.user._id}::uuid`)).toHaveLength(1);

    // Settings' list of blocked people shows them with their handle.
    const list = await ctx.app.inject({ method: 'GET', url: '/api/users/me/blocks', headers: auth(artist) });
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as SafetyUserPage).users).toEqual([
      expect.objectContaining({
        _id: bob!._id,
        username: bob!.remote!.handle,
        remote: { handle: bob!.remote!.handle, url: `${remote.origin}/@bob` },
      }),
    ]);
  });

  it('takes their Follow, Like and Announce and keeps none while the block stands; a Follow gets a Reject', async () => {
    const artist = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Not for bob');
    await deliver(followOf(artist));
    await eventually(async () => (await state(artist, work)).follows === 1, 'the follow');
    const [bob] = await followers(artist);
    await blockRemote(artist, bob!._id);

    await deliver(followOf(artist));
    await deliver(likeOf(work));
    await deliver(boostOf(work));
    await inboxDrained();
    expect(await state(artist, work)).toEqual({ follows: 0, count: 0, reactions: 0, likes: 0, notes: 0 });
    const [reject] = await eventually(async () => {
      const found = receivedBy(artist, 'Reject');
      return found.length > 0 && found;
    }, 'the Reject of the Follow');
    expect((reject!.json.object as { type: string }).type).toBe('Follow');

    // Another artist is not concerned: bob's follow of them is kept.
    const other = await signUp(ctx.app);
    await deliver(followOf(other));
    await eventually(async () => (await followers(other)).length === 1, "bob's follow of another artist");

    // The unblock sends the Undo of the same Block; then a Follow counts again.
    const [block] = receivedBy(artist, 'Block');
    await blockRemote(artist, bob!._id, false);
    const [undo] = await eventually(async () => {
      const found = receivedBy(artist, 'Undo');
      return found.length > 0 && found;
    }, 'the Undo(Block) at the remote inbox');
    expect(undo!.json.object).toMatchObject({ type: 'Block', id: block!.json.id, object: remote.actor('bob') });
    expect(await rows(sql`select from remote_person_blocks where user_id = ${artist.user._id}::uuid`)).toHaveLength(0);
    await deliver(followOf(artist));
    await eventually(async () => (await state(artist, work)).follows === 1, 'the follow after the unblock');
  });

  it("hides their comments on the artist's works from everyone while the block stands", async () => {
    const artist = await signUp(ctx.app);
    const reader = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Replied to from afar');
    const note = new Note({
      id: activityId('statuses'),
      attribution: new URL(remote.actor('bob')),
      replyTarget: new URL(noteOf(work)),
      tos: [PUBLIC_COLLECTION],
      content: '<p>Lovely</p>',
    });
    await deliver(
      new Create({ id: new URL(`${note.id!.href}/activity`), actor: new URL(remote.actor('bob')), object: note }),
    );
    const [comment] = await eventually(async () => {
      const found = await rows<{ id: string; remote_actor_id: string }>(
        sql`select id, remote_actor_id from comments where post_id = ${work}::uuid`,
      );
      return found.length > 0 && found;
    }, 'the reply as a comment');
    /** The comments of the work as `who` (or anyone signed out) reads them: its page's list and the post's embed. */
    const shown = async (who?: SignedUp) => {
      const headers = who ? auth(who) : {};
      const list = await ctx.app.inject({ method: 'GET', url: `/api/comments/${work}?limit=50`, headers });
      const post = await ctx.app.inject({ method: 'GET', url: `/api/posts/${work}`, headers });
      expect(list.statusCode, list.body).toBe(200);
      expect(post.statusCode, post.body).toBe(200);
      const embedded = (post.json().post ?? post.json()).comments as { _id: string }[];
      return [
        (list.json().comments as { _id: string }[]).some((c) => c._id === comment!.id),
        embedded.some((c) => c._id === comment!.id),
      ];
    };
    expect(await shown()).toEqual([true, true]);

    await blockRemote(artist, comment!.remote_actor_id);
    expect(await shown()).toEqual([false, false]);
    expect(await shown(reader)).toEqual([false, false]);
    expect(await shown(artist)).toEqual([false, false]);

    // A new reply while the block stands keeps nothing and notifies no one.
    const again = new Note({
      id: activityId('statuses'),
      attribution: new URL(remote.actor('bob')),
      replyTarget: new URL(noteOf(work)),
      tos: [PUBLIC_COLLECTION],
      content: '<p>Still here</p>',
    });
    await deliver(
      new Create({ id: new URL(`${again.id!.href}/activity`), actor: new URL(remote.actor('bob')), object: again }),
    );
    await inboxDrained();
    expect(await rows(sql`select from comments where post_id = ${work}::uuid`)).toHaveLength(1);
    expect((await state(artist, work)).notes).toBe(0);

    await blockRemote(artist, comment!.remote_actor_id, false);
    await eventually(async () => (await shown(reader)).every(Boolean), 'the comment shown again');
  });

  it('answers 404 for someone not known here, 400 for a malformed id, 401 signed out', async () => {
    const artist = await signUp(ctx.app);
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/remote-people/00000000-0000-4000-8000-000000000000/block',
      headers: auth(artist),
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/remote-people/not-an-id/block',
      headers: auth(artist),
    });
    expect(malformed.statusCode).toBe(400);
    const [anyone] = await rows<{ id: string }>(sql`select id from remote_actors limit 1`);
    const signedOut = await ctx.app.inject({ method: 'POST', url: `/api/remote-people/${anyone!.id}/block` });
    expect(signedOut.statusCode).toBe(401);
    // A local account's id is no remote person.
    const local = await ctx.app.inject({
      method: 'POST',
      url: `/api/remote-people/${artist.user._id}/block`,
      headers: auth(artist),
    });
    expect(local.statusCode).toBe(404);
  });
});
