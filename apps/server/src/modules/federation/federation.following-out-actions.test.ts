import { Accept, Follow, Reject, type Activity } from '@fedify/vocab';
import { FOLLOW_OUT_ERRORS, SAFETY_ERRORS, type User } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { AP, eventually, startFederatedApp, type Received, type Remote } from '../../test/fake-remote.js';

/**
 * Following out, what our artists do to people on other servers (issue 39, docs/federation.md "Following people on
 * other servers"), between the app on a loopback port and the fake remote server of src/test/fake-remote.ts, which
 * verifies the signature of everything delivered to it before keeping it: a follow of a remote person's shadow
 * account is a signed `Follow` and waits for their `Accept` (only theirs counts) or `Reject`; the unfollow is the
 * `Undo` of the same Follow; a like of their work is a `Like` of its Note and the unlike its `Undo`; a comment on it
 * is a reply (`inReplyTo` its Note, mentioning them), its edit an `Update`, its deletion a `Delete`; and nothing is
 * written in the shadow account's notifications. The shadow accounts and their works are made with SQL, as the
 * federation module's resolver makes them.
 */

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

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
const rows = <T>(query: ReturnType<typeof sql>, db = ctx.database.db) => queryRows<T>(db, query);

/**
 * The remote person `name` of the fake server as a shadow account here (a `remote_actors` row and its `users` row),
 * with a shared inbox for bob alone, as the fake server's actors have.
 */
async function shadowOf(name: string, db = ctx.database.db): Promise<string> {
  const host = new URL(remote.origin).host;
  const [actor] = await rows<{ id: string }>(
    sql`insert into remote_actors (iri, handle, inbox, shared_inbox, name, profile_url, username)
        values (${remote.actor(name)}, ${`${name}@${host}`}, ${`${remote.origin}/users/${name}/inbox`},
                ${name === 'bob' ? `${remote.origin}/inbox` : null}, ${`${name} Remote`}, ${`${remote.origin}/@${name}`}, ${name})
        on conflict (iri) do update set name = excluded.name returning id`,
    db,
  );
  const [user] = await rows<{ id: string }>(
    sql`insert into users (username, first_name, last_name, email, password_hash, link, remote_actor_id)
        values (${`${name}@${host}`}, ${`${name} Remote`}, '', '', '', ${`${remote.origin}/@${name}`}, ${actor!.id}::uuid)
        on conflict (remote_actor_id) do update set first_name = excluded.first_name returning id`,
    db,
  );
  return user!.id;
}

let notes = 0;
/** A public work of the shadow account from their server (`posts.note_iri`). */
async function remoteWork(shadowId: string, name = 'bob'): Promise<{ postId: string; noteIri: string }> {
  const noteIri = `${remote.origin}/users/${name}/statuses/${(notes += 1)}`;
  const [post] = await rows<{ id: string }>(
    sql`insert into posts (author_id, content, note_iri, note_url)
        values (${shadowId}::uuid, 'A heron at dusk', ${noteIri}, ${`${remote.origin}/@${name}/${notes}`}) returning id`,
  );
  await rows(sql`update users set post_count = post_count + 1 where id = ${shadowId}::uuid`);
  return { postId: post!.id, noteIri };
}

const post = (who: SignedUp, url: string, payload?: object) =>
  ctx.app.inject({ method: 'POST', url, headers: auth(who), ...(payload ? { payload } : {}) });

async function profile(who: SignedUp, userId: string): Promise<User> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/users/${userId}`, headers: auth(who) });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { user: User }).user;
}

/** The follow row of `who` following `shadowId`, if any. */
const followRow = async (who: SignedUp, shadowId: string) =>
  (
    await rows<{ pending: boolean; activity_id: string | null }>(
      sql`select pending, activity_id from follows
          where follower_id = ${who.user._id}::uuid and followee_id = ${shadowId}::uuid`,
    )
  )[0];

const counts = async (who: SignedUp, shadowId: string) =>
  (
    await rows<{ following: number; followers: number }>(
      sql`select (select following_count from users where id = ${who.user._id}::uuid) as following,
                 (select follower_count from users where id = ${shadowId}::uuid) as followers`,
    )
  )[0]!;

/** Notifications written for the shadow account: always none (nobody reads them). */
const shadowNotifications = async (shadowId: string) =>
  (await rows(sql`select from notifications where recipient_id = ${shadowId}::uuid`)).length;

/** The activities of `type` from `who` that the remote server verified and kept at `name`'s own inbox. */
const receivedBy = (who: SignedUp, type: string, name = 'bob') =>
  remote.received.filter(
    (each) => each.path === `/users/${name}/inbox` && each.json.type === type && each.json.actor === actorOf(who),
  );

async function arrived(who: SignedUp, type: string, count = 1, name = 'bob'): Promise<Received[]> {
  return eventually(async () => {
    const found = receivedBy(who, type, name);
    return found.length >= count && found;
  }, `${count} ${type} from ${who.user.username} at ${name}'s inbox`);
}

/** The object of an activity as the remote server read it (compacted: an id alone, or the object). */
const objectOf = (received: Received) => received.json.object as Record<string, unknown>;

async function deliver(activity: Activity, as = 'bob') {
  const response = await remote.deliver(`${origin}/ap/inbox`, activity, as);
  expect(response.status, await response.text()).toBe(202);
}

/** Waits until no activity taken in waits or runs (what an inbox accepted has had its effect, or none). */
async function inboxDrained() {
  await eventually(async () => {
    const found = await ctx.app.jobs.counts();
    const inbox = found.find((count) => count.kind === 'federation.inbox');
    return !inbox || inbox.queued + inbox.running === 0;
  }, 'the inbox jobs to be done');
}

let answers = 0;
const answerId = (as: string) => new URL(`/users/${as}#accepts/${(answers += 1)}`, remote.origin);

describe('following someone on another server', { timeout: 120_000 }, () => {
  it('sends a signed Follow, and the follow waits for their Accept; only theirs counts', async () => {
    const bob = await shadowOf('bob');
    const artist = await signUp(ctx.app);
    const followed = await post(artist, `/api/users/follow/${bob}`);
    expect(followed.statusCode, followed.body).toBe(200);

    const row = await followRow(artist, bob);
    expect(row?.pending).toBe(true);
    expect(row?.activity_id).toMatch(new RegExp(`^${actorOf(artist)}#follows/[0-9a-f-]{36}$`));
    expect(await counts(artist, bob)).toEqual({ following: 1, followers: 1 });
    const seen = await profile(artist, bob);
    expect(seen.viewer).toMatchObject({ follows: true, requested: true });

    const [follow] = await arrived(artist, 'Follow');
    expect(follow!.json.id).toBe(row!.activity_id);
    expect(follow!.json.object).toBe(remote.actor('bob'));
    // Nobody reads a shadow account's notifications: none is written.
    expect(await shadowNotifications(bob)).toBe(0);

    // Someone else (carol, signing as herself) accepting bob's follow changes nothing.
    const embedded = new Follow({
      id: new URL(row!.activity_id!),
      actor: new URL(actorOf(artist)),
      object: new URL(remote.actor('bob')),
    });
    await deliver(
      new Accept({ id: answerId('carol'), actor: new URL(remote.actor('carol')), object: embedded }),
      'carol',
    );
    await inboxDrained();
    expect((await followRow(artist, bob))?.pending).toBe(true);

    // An Accept of another Follow id by bob changes nothing either.
    const other = new Follow({
      id: new URL(`${actorOf(artist)}#follows/someone-else`),
      actor: new URL(actorOf(artist)),
      object: new URL(remote.actor('bob')),
    });
    await deliver(new Accept({ id: answerId('bob'), actor: new URL(remote.actor('bob')), object: other }));
    await inboxDrained();
    expect((await followRow(artist, bob))?.pending).toBe(true);

    // bob's own Accept of it: accepted.
    await deliver(new Accept({ id: answerId('bob'), actor: new URL(remote.actor('bob')), object: embedded }));
    await eventually(async () => (await followRow(artist, bob))?.pending === false, 'the follow accepted');
    const after = await profile(artist, bob);
    expect(after.viewer.follows).toBe(true);
    expect(after.viewer.requested).toBeUndefined();
    expect(await counts(artist, bob)).toEqual({ following: 1, followers: 1 });
  });

  it('takes an Accept naming the Follow by its id alone, or embedding it without an id', async () => {
    const bob = await shadowOf('bob');
    const first = await signUp(ctx.app);
    const second = await signUp(ctx.app);
    for (const who of [first, second]) expect((await post(who, `/api/users/follow/${bob}`)).statusCode).toBe(200);
    const { activity_id: firstId } = (await followRow(first, bob))!;
    await deliver(new Accept({ id: answerId('bob'), actor: new URL(remote.actor('bob')), object: new URL(firstId!) }));
    await eventually(async () => (await followRow(first, bob))?.pending === false, 'the follow named by id accepted');
    expect((await followRow(second, bob))?.pending).toBe(true);

    const idless = new Follow({ actor: new URL(actorOf(second)), object: new URL(remote.actor('bob')) });
    await deliver(new Accept({ id: answerId('bob'), actor: new URL(remote.actor('bob')), object: idless }));
    await eventually(async () => (await followRow(second, bob))?.pending === false, 'the embedded follow accepted');
  });

  it("ends the follow on their Reject, with both counts; someone else's Reject does nothing", async () => {
    const bob = await shadowOf('bob');
    const artist = await signUp(ctx.app);
    expect((await post(artist, `/api/users/follow/${bob}`)).statusCode).toBe(200);
    const { activity_id: id } = (await followRow(artist, bob))!;
    const before = await counts(artist, bob);
    const follow = new Follow({
      id: new URL(id!),
      actor: new URL(actorOf(artist)),
      object: new URL(remote.actor('bob')),
    });

    await deliver(
      new Reject({ id: answerId('carol'), actor: new URL(remote.actor('carol')), object: follow }),
      'carol',
    );
    await inboxDrained();
    expect(await followRow(artist, bob)).toBeDefined();

    await deliver(new Reject({ id: answerId('bob'), actor: new URL(remote.actor('bob')), object: follow }));
    await eventually(async () => (await followRow(artist, bob)) === undefined, 'the follow ended');
    expect(await counts(artist, bob)).toEqual({ following: before.following - 1, followers: before.followers - 1 });
    expect((await profile(artist, bob)).viewer).toMatchObject({ follows: false });
    // Ended, so an unfollow is refused as for anyone not followed.
    const again = await post(artist, `/api/users/unfollow/${bob}`);
    expect(again.statusCode).toBe(400);
  });

  it('sends the Undo of the same Follow when unfollowing', async () => {
    const bob = await shadowOf('bob');
    const artist = await signUp(ctx.app);
    expect((await post(artist, `/api/users/follow/${bob}`)).statusCode).toBe(200);
    const { activity_id: id } = (await followRow(artist, bob))!;
    const unfollowed = await post(artist, `/api/users/unfollow/${bob}`);
    expect(unfollowed.statusCode, unfollowed.body).toBe(200);
    expect(await followRow(artist, bob)).toBeUndefined();
    expect(await counts(artist, bob)).toMatchObject({ following: 0 });

    const [undo] = await arrived(artist, 'Undo');
    expect(objectOf(undo!)).toMatchObject({ type: 'Follow', id, object: remote.actor('bob') });
    expect(undo!.json.id).toBe(`${id}/undo`);
  });

  it('refuses following someone one blocks, who blocks one, or on a suspended server, with a sentence', async () => {
    const carol = await shadowOf('carol');
    const artist = await signUp(ctx.app);
    const [{ remote_actor_id: actorId }] = (await rows<{ remote_actor_id: string }>(
      sql`select remote_actor_id from users where id = ${carol}::uuid`,
    )) as [{ remote_actor_id: string }];
    await rows(
      sql`insert into remote_person_blocks (user_id, remote_actor_id) values (${artist.user._id}::uuid, ${actorId}::uuid)`,
    );
    const blocked = await post(artist, `/api/users/follow/${carol}`);
    expect(blocked.statusCode).toBe(403);
    expect(errorOf(blocked)).toBe(FOLLOW_OUT_ERRORS.blocked);
    await rows(sql`delete from remote_person_blocks where user_id = ${artist.user._id}::uuid`);

    // Carol blocks the artist (her server's Block): as for any blocked pair.
    await rows(
      sql`insert into remote_blocks (user_id, actor_iri, activity_id)
          values (${artist.user._id}::uuid, ${remote.actor('carol')}, ${`${remote.origin}/blocks/1`})`,
    );
    const blocksYou = await post(artist, `/api/users/follow/${carol}`);
    expect(blocksYou.statusCode).toBe(403);
    expect(errorOf(blocksYou)).toBe(SAFETY_ERRORS.blocked);
    await rows(sql`delete from remote_blocks where user_id = ${artist.user._id}::uuid`);

    // A suspension of the server's domain (127.0.0.1 here), lifted after: a block covers the host it names.
    const domain = new URL(remote.origin).hostname;
    await rows(
      sql`insert into server_blocks (domain, severity, created_by_username) values (${domain}, 'suspend', 'test')`,
    );
    try {
      const suspended = await post(artist, `/api/users/follow/${carol}`);
      expect(suspended.statusCode).toBe(403);
      expect(errorOf(suspended)).toBe(FOLLOW_OUT_ERRORS.suspended);
    } finally {
      await rows(sql`delete from server_blocks where domain = ${domain}`);
    }
    expect(await followRow(artist, carol)).toBeUndefined();
    expect(await counts(artist, carol)).toMatchObject({ following: 0 });
    // Lifted: the follow goes through, to carol's own inbox.
    expect((await post(artist, `/api/users/follow/${carol}`)).statusCode).toBe(200);
    await arrived(artist, 'Follow', 1, 'carol');
  });

  it('ends the follow when the artist blocks them: the Undo of the Follow goes first, then the Block', async () => {
    const carol = await shadowOf('carol');
    const artist = await signUp(ctx.app);
    expect((await post(artist, `/api/users/follow/${carol}`)).statusCode).toBe(200);
    const { activity_id: id } = (await followRow(artist, carol))!;
    const [{ remote_actor_id: actorId }] = (await rows<{ remote_actor_id: string }>(
      sql`select remote_actor_id from users where id = ${carol}::uuid`,
    )) as [{ remote_actor_id: string }];
    const blocked = await ctx.app.inject({
      method: 'POST',
      url: `/api/remote-people/${actorId}/block`,
      headers: auth(artist),
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(await followRow(artist, carol)).toBeUndefined();
    expect(await counts(artist, carol)).toMatchObject({ following: 0 });
    expect((await profile(artist, carol)).viewer.follows).toBe(false);

    const [block] = await arrived(artist, 'Block', 1, 'carol');
    const [undo] = await arrived(artist, 'Undo', 1, 'carol');
    expect(objectOf(undo!)).toMatchObject({ type: 'Follow', id });
    // Delivered in the order queued (one lane per inbox): the Undo of the Follow before the Block.
    const order = remote.received.filter((each) => each.json.actor === actorOf(artist)).map((each) => each.json.type);
    expect(order).toEqual(['Follow', 'Undo', 'Block']);
    expect(block!.json.object).toBe(remote.actor('carol'));
  });

  it("tells the people it follows on other servers when an account is deleted (its actor's Delete)", async () => {
    const carol = await shadowOf('carol');
    const leaving = await signUp(ctx.app);
    expect((await post(leaving, `/api/users/follow/${carol}`)).statusCode).toBe(200);
    await arrived(leaving, 'Follow', 1, 'carol');
    const deleted = await post(leaving, '/api/account/delete', { password: leaving.password });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const [farewell] = await arrived(leaving, 'Delete', 1, 'carol');
    expect(farewell!.json).toMatchObject({ actor: actorOf(leaving), object: actorOf(leaving) });
  });

  it('refuses following someone on another server where no Follow can be sent (no site address)', async () => {
    const local = await createTestApp();
    try {
      const shadow = await shadowOf('dave', local.database.db);
      const artist = await signUp(local.app);
      const response = await local.app.inject({
        method: 'POST',
        url: `/api/users/follow/${shadow}`,
        headers: auth(artist),
      });
      expect(response.statusCode).toBe(503);
      expect(errorOf(response)).toBe(FOLLOW_OUT_ERRORS.unsendable);
      const left = await rows(sql`select from follows where followee_id = ${shadow}::uuid`, local.database.db);
      expect(left).toHaveLength(0);
    } finally {
      await local.close();
    }
  });
});

describe('liking and commenting a work from another server', { timeout: 120_000 }, () => {
  it('sends a Like of its Note, and the Undo of that Like on the unlike; a dislike alone sends nothing', async () => {
    const bob = await shadowOf('bob');
    const { postId, noteIri } = await remoteWork(bob);
    const artist = await signUp(ctx.app);
    const liked = await post(artist, `/api/posts/like/${postId}`);
    expect(liked.statusCode, liked.body).toBe(201);
    // Counted here as any like.
    const [{ like_count: likeCount }] = (await rows<{ like_count: number }>(
      sql`select like_count from posts where id = ${postId}::uuid`,
    )) as [{ like_count: number }];
    expect(likeCount).toBe(1);

    const [like] = await arrived(artist, 'Like');
    expect(like!.json.object).toBe(noteIri);
    expect(like!.json.id).toMatch(new RegExp(`^${actorOf(artist)}#likes/${postId}/\\d+$`));
    expect(await shadowNotifications(bob)).toBe(0);

    const unliked = await post(artist, `/api/posts/dislike/${postId}`);
    expect(unliked.statusCode, unliked.body).toBe(201);
    const [undo] = await arrived(artist, 'Undo');
    expect(objectOf(undo!)).toMatchObject({ type: 'Like', id: like!.json.id, object: noteIri });

    // Liked again: a new Like, under a new id.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await post(artist, `/api/posts/like/${postId}`)).statusCode).toBe(201);
    const likes = await arrived(artist, 'Like', 2);
    expect(likes[1]!.json.id).not.toBe(like!.json.id);

    // Someone who never liked it dislikes it (likeCount > 0): nothing leaves.
    const other = await signUp(ctx.app);
    expect((await post(other, `/api/posts/dislike/${postId}`)).statusCode).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(remote.received.filter((each) => each.json.actor === actorOf(other))).toEqual([]);
    expect(await shadowNotifications(bob)).toBe(0);
  });

  it('sends a comment as a reply to its Note, mentioning its author; an edit as Update, a deletion as Delete', async () => {
    const bob = await shadowOf('bob');
    const { postId, noteIri } = await remoteWork(bob);
    const artist = await signUp(ctx.app);
    const added = await post(artist, `/api/posts/${postId}/comment`, {
      commentData: { content: 'Lovely light #heron' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const commentId = added.json().comment._id as string;
    const noteId = `${origin}/ap/comments/${commentId}`;

    const [create] = await arrived(artist, 'Create');
    // As sent (Mastodon's and Pixelfed's parsers read these fields): to Public, cc the commenter's followers and bob.
    const sent = remote.bodies.find((body) => body.id === create!.json.id)!;
    expect(sent).toMatchObject({ type: 'Create', actor: actorOf(artist), to: [PUBLIC] });
    const note = sent.object as Record<string, unknown>;
    expect(note).toMatchObject({
      id: noteId,
      type: 'Note',
      attributedTo: actorOf(artist),
      inReplyTo: noteIri,
      to: [PUBLIC],
      cc: [`${actorOf(artist)}/followers`, remote.actor('bob')],
    });
    expect(note.tag).toEqual([
      expect.objectContaining({ type: 'Hashtag', name: '#heron' }),
      expect.objectContaining({
        type: 'Mention',
        href: remote.actor('bob'),
        name: `@bob@${new URL(remote.origin).host}`,
      }),
    ]);
    expect(await shadowNotifications(bob)).toBe(0);

    // The reply's id answers, as its Note (a comment on a work from another server, public).
    const served = await ctx.app.inject({ method: 'GET', url: `/ap/comments/${commentId}`, headers: { accept: AP } });
    expect(served.statusCode, served.body).toBe(200);
    expect(served.json()).toMatchObject({ id: noteId, inReplyTo: noteIri });

    const edited = await post(artist, `/api/comments/edit/${postId}/${commentId}`, { content: 'Lovely light, really' });
    expect(edited.statusCode, edited.body).toBe(201);
    const [update] = await arrived(artist, 'Update');
    expect(objectOf(update!)).toMatchObject({ id: noteId, inReplyTo: noteIri });
    expect(String(objectOf(update!).content)).toContain('really');

    const removed = await post(artist, `/api/comments/delete/${postId}/${commentId}`);
    expect(removed.statusCode, removed.body).toBe(201);
    const [deletion] = await arrived(artist, 'Delete');
    expect(
      [deletion!.json.object].flat().map((each) => (typeof each === 'string' ? each : (each as { id: string }).id)),
    ).toEqual([noteId]);
    const gone = await ctx.app.inject({ method: 'GET', url: `/ap/comments/${commentId}`, headers: { accept: AP } });
    expect(gone.statusCode).toBe(404);
    expect(await shadowNotifications(bob)).toBe(0);
  });
});
