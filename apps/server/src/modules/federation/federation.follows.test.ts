import { Delete, Follow, Undo } from '@fedify/vocab';
import type { LiveNotification, NotificationPage, PersonSummary } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import {
  createPost,
  createTestApp,
  liveSocket,
  signUp,
  uploadPicture,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { AP, eventually, freePort, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * Being followed, and what leaves (issue 39, part 2), between two real servers on loopback: the app on one port,
 * and on another a small fake remote server made with Fedify itself (its own keys and inboxes), whose actors
 * follow our artists with signed requests and whose inboxes verify what we deliver (an activity reaches
 * `received` only once Fedify there checked its signature against our actor's key). The app is allowed to reach
 * loopback by `federationAllowPrivateAddress`, a setting only tests set. Effects are waited for by polling, a
 * bounded time, never by a fixed sleep.
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
const inboxOf = (who: SignedUp) => `${actorOf(who)}/inbox`;

let follows = 0;
/** A Follow of `who` by the remote actor `as`, with a new id. */
const followOf = (who: SignedUp, as = 'bob') =>
  new Follow({
    id: new URL(`/follows/${(follows += 1)}`, remote.origin),
    actor: new URL(remote.actor(as)),
    object: new URL(actorOf(who)),
  });

async function remoteFollowers(who: SignedUp): Promise<string[]> {
  const rows = await queryRows<{ iri: string }>(
    ctx.database.db,
    sql`select ra.iri from remote_follows f join remote_actors ra on ra.id = f.remote_actor_id
        where f.user_id = ${who.user._id}::uuid order by ra.iri`,
  );
  return rows.map((row) => row.iri);
}

/** The account's follower count as the site shows it (its profile). */
async function followerCount(who: SignedUp): Promise<number> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/users/${who.user._id}` });
  expect(response.statusCode, response.body).toBe(200);
  const json = response.json();
  return (json.user ?? json).followerCount as number;
}

/** Waits until no activity taken in waits or runs (what an inbox accepted has had its effect, or none). */
async function inboxDrained() {
  await eventually(async () => {
    const counts = await ctx.app.jobs.counts();
    const inbox = counts.find((count) => count.kind === 'federation.inbox');
    return !inbox || inbox.queued + inbox.running === 0;
  }, 'the inbox jobs to be done');
}

/** Follows `who` from `as` and waits for the follow and the Accept that answers it. */
async function followFrom(who: SignedUp, as = 'bob') {
  const follow = followOf(who, as);
  const response = await remote.deliver(inboxOf(who), follow, as);
  expect(response.status, await response.text()).toBe(202);
  await eventually(async () => (await remoteFollowers(who)).includes(remote.actor(as)), 'the follow');
  await eventually(
    async () =>
      remote.received.find(
        (item) =>
          item.json.type === 'Accept' &&
          (typeof item.json.object === 'string' ? item.json.object : item.json.object.id) === follow.id!.href,
      ),
    'the Accept',
  );
  return follow;
}

/** The Undo of `follow`, as Mastodon sends it (the Follow embedded). */
const undoOf = (follow: Follow, as = 'bob') =>
  new Undo({
    id: new URL(`/undos/${follow.id!.pathname.split('/').pop()}`, remote.origin),
    actor: new URL(remote.actor(as)),
    object: follow,
  });

/** The remote actor `as`'s handle, as the site shows it (without the leading @). */
const handleOf = (as: string) => `${as}@${new URL(remote.origin).host}`;

/** The account's notifications, first page, as the site's API answers them. */
async function notificationsOf(who: SignedUp): Promise<NotificationPage> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: auth(who) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every page of the account's followers (`limit` a page), as the site's API answers them. */
const followersOf = (who: SignedUp, limit = 20) =>
  walkPages<PersonSummary>(
    ctx.app,
    (cursor) =>
      `/api/users/${who.user._id}/followers?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    'followers',
  );

/** The first activity of `type` received about the work `postId` (its Note or the Tombstone of it). */
const activityAbout = (type: string, postId: string) =>
  eventually(
    async () =>
      remote.received.find((item) => {
        if (item.json.type !== type || typeof item.json.object !== 'object') return false;
        return String(item.json.object.id).endsWith(`/ap/posts/${postId}`);
      }),
    `${type} of ${postId}`,
  );

describe('being followed from another server', { timeout: 120_000 }, () => {
  it('takes a signed Follow (202), keeps the remote actor and sends back a signed Accept; the followers include it', async () => {
    const artist = await signUp(ctx.app);
    await followFrom(artist);
    const [row] = await queryRows<{ handle: string; inbox: string; shared_inbox: string; name: string }>(
      ctx.database.db,
      sql`select handle, inbox, shared_inbox, name from remote_actors where iri = ${remote.actor('bob')}`,
    );
    expect(row).toEqual({
      handle: `bob@${new URL(remote.origin).host}`,
      inbox: `${remote.actor('bob')}/inbox`,
      shared_inbox: `${remote.origin}/inbox`,
      name: 'Bob Remote',
    });
    // The followers collection lists it and counts it; so does the profile.
    const collection = (await (await fetch(`${actorOf(artist)}/followers`, { headers: { accept: AP } })).json()) as {
      totalItems: number;
      first: string;
    };
    expect(collection.totalItems).toBe(1);
    const first = (await (await fetch(collection.first, { headers: { accept: AP } })).json()) as {
      orderedItems: string[];
    };
    expect(first.orderedItems).toEqual([remote.actor('bob')]);
    expect(await followerCount(artist)).toBe(1);

    // A second Follow of the same pair is answered again and counts once.
    await followFrom(artist);
    expect(await followerCount(artist)).toBe(1);
  });

  it('ends the follow on Undo(Follow)', async () => {
    const artist = await signUp(ctx.app);
    const follow = await followFrom(artist);
    const undo = new Undo({
      id: new URL(`/undos/${follow.id!.pathname.split('/').pop()}`, remote.origin),
      actor: new URL(remote.actor('bob')),
      object: follow,
    });
    const response = await remote.deliver(inboxOf(artist), undo, 'bob');
    expect(response.status).toBe(202);
    await eventually(async () => (await remoteFollowers(artist)).length === 0, 'the follow to end');
    expect(await followerCount(artist)).toBe(0);
  });

  it('refuses an unsigned or tampered Follow (401) and keeps nothing', async () => {
    const artist = await signUp(ctx.app);
    const unsigned = await fetch(inboxOf(artist), {
      method: 'POST',
      headers: { 'content-type': AP },
      body: JSON.stringify(await followOf(artist).toJsonLd({ format: 'compact' })),
    });
    expect(unsigned.status).toBe(401);
    const other = await signUp(ctx.app);
    // Signed for a Follow of `artist`, then changed to follow `other`: the digest no longer matches.
    const tampered = await remote.deliver(inboxOf(artist), followOf(artist), 'bob', (body) =>
      body.replace(artist.user._id, other.user._id),
    );
    expect(tampered.status).toBe(401);
    // Signed by carol's key but naming bob as the actor.
    const impostor = await remote.deliver(inboxOf(artist), followOf(artist, 'bob'), 'carol');
    expect(impostor.status).toBe(401);
    await inboxDrained();
    expect(await remoteFollowers(artist)).toEqual([]);
    expect(await remoteFollowers(other)).toEqual([]);
  });

  it('takes a Follow of an unknown or suspended account without effect', async () => {
    const artist = await signUp(ctx.app);
    await queryRows(
      ctx.database.db,
      sql`update users set suspended_until = now() + interval '1 day' where id = ${artist.user._id}::uuid`,
    );
    // Its own inbox is not there; the shared inbox takes the Follow and does nothing with it.
    expect((await remote.deliver(inboxOf(artist), followOf(artist), 'bob')).status).toBe(404);
    expect((await remote.deliver(`${origin}/ap/inbox`, followOf(artist), 'bob')).status).toBe(202);
    const nobody = new Follow({
      id: new URL('/follows/nobody', remote.origin),
      actor: new URL(remote.actor('bob')),
      object: new URL(`${origin}/ap/users/00000000-0000-4000-8000-000000000000`),
    });
    expect((await remote.deliver(`${origin}/ap/inbox`, nobody, 'bob')).status).toBe(202);
    await inboxDrained();
    expect(await remoteFollowers(artist)).toEqual([]);
  });
});

describe("a remote follow in the site's notifications and followers", { timeout: 120_000 }, () => {
  it('notifies the artist live with the remote handle, and lists the follower among the local ones, newest first', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const local = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/follow/${artist.user._id}`,
      headers: auth(fan),
    });
    expect(local.statusCode, local.body).toBe(200);
    const live = await liveSocket(ctx.app, artist.token);
    const frames = () => live.frames.filter((frame): frame is LiveNotification => frame.type === 'notification');
    try {
      await followFrom(artist);
      const bob = { handle: handleOf('bob'), url: `${remote.origin}/@bob` };
      const frame = await eventually(async () => frames().find((item) => item.actor.remote), 'the live notification');
      expect(frame).toMatchObject({
        kind: 'follow',
        text: `@${bob.handle} started following you`,
        actor: { username: bob.handle, firstName: 'Bob Remote', remote: bob },
        postId: null,
        unreadCount: 2,
      });

      const page = await notificationsOf(artist);
      expect(page.unreadCount).toBe(2);
      expect(page.notifications.map((item) => [item.kind, item.actors.map((actor) => actor.username)])).toEqual([
        ['follow', [bob.handle]],
        ['follow', [fan.user.username]],
      ]);
      expect(page.notifications[0]!.actors).toEqual([
        {
          _id: expect.any(String),
          username: bob.handle,
          firstName: 'Bob Remote',
          lastName: '',
          userPhoto: '/media/defaults/default-avatar.png',
          remote: bob,
        },
      ]);
      expect(page.notifications[1]!.actors[0]!.remote).toBeUndefined();
      const unread = await ctx.app.inject({
        method: 'GET',
        url: '/api/notifications/unread-count',
        headers: auth(artist),
      });
      expect(unread.json()).toEqual({ unreadCount: 2 });

      // The followers, a page of one at a time: the remote one followed last, so comes first; the list and the
      // profile's count agree.
      const pages = await followersOf(artist, 1);
      expect(pages.map((list) => list.map((person) => person.username))).toEqual([[bob.handle], [fan.user.username]]);
      expect(pages[0]![0]).toMatchObject({ firstName: 'Bob Remote', remote: bob });
      expect(pages[1]![0]!.remote).toBeUndefined();
      expect(await followerCount(artist)).toBe(pages.flat().length);
      // Signed out, the same.
      const anonymous = await ctx.app.inject({ method: 'GET', url: `/api/users/${artist.user._id}/followers` });
      expect(anonymous.json().followers.map((person: PersonSummary) => person.username)).toEqual([
        bob.handle,
        fan.user.username,
      ]);

      // A repeated Follow notifies nobody again.
      await followFrom(artist);
      expect((await notificationsOf(artist)).notifications).toHaveLength(2);
      expect(frames().filter((item) => item.actor.remote)).toHaveLength(1);
    } finally {
      live.socket.close();
    }
  });

  it('Undo withdraws the unread notification and the follower; a read one stays, and a new follow replaces it', async () => {
    const artist = await signUp(ctx.app);
    const first = await followFrom(artist);
    expect((await notificationsOf(artist)).unreadCount).toBe(1);
    expect((await remote.deliver(inboxOf(artist), undoOf(first), 'bob')).status).toBe(202);
    await eventually(async () => (await remoteFollowers(artist)).length === 0, 'the follow to end');
    expect(await notificationsOf(artist)).toMatchObject({ notifications: [], unreadCount: 0 });
    expect(await followersOf(artist)).toEqual([[]]);
    expect(await followerCount(artist)).toBe(0);

    // Read, then undone: it stays, as a local unfollow leaves a read notification.
    const second = await followFrom(artist);
    const read = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      payload: { all: true },
      headers: auth(artist),
    });
    expect(read.statusCode, read.body).toBe(200);
    expect((await remote.deliver(inboxOf(artist), undoOf(second), 'bob')).status).toBe(202);
    await eventually(async () => (await remoteFollowers(artist)).length === 0, 'the second follow to end');
    const kept = await notificationsOf(artist);
    expect(kept.notifications.map((item) => [item.actors[0]!.username, item.read])).toEqual([[handleOf('bob'), true]]);
    expect(await followersOf(artist)).toEqual([[]]);

    // Followed again: the new notification replaces the read one.
    await followFrom(artist);
    const again = await notificationsOf(artist);
    expect(again.notifications.map((item) => [item.actors[0]!.username, item.read])).toEqual([
      [handleOf('bob'), false],
    ]);
    expect(again.unreadCount).toBe(1);
  });

  it("a remote actor's Delete takes its notifications and its place among the followers", async () => {
    const artist = await signUp(ctx.app);
    await followFrom(artist, 'carol');
    expect((await notificationsOf(artist)).notifications).toHaveLength(1);
    expect((await followersOf(artist)).flat().map((person) => person.username)).toEqual([handleOf('carol')]);
    const deletion = new Delete({
      id: new URL('/users/carol#delete-notified', remote.origin),
      actor: new URL(remote.actor('carol')),
      object: new URL(remote.actor('carol')),
    });
    expect((await remote.deliver(`${origin}/ap/inbox`, deletion, 'carol')).status).toBe(202);
    await eventually(async () => (await remoteFollowers(artist)).length === 0, 'the deleted actor to be removed');
    expect(await notificationsOf(artist)).toMatchObject({ notifications: [], unreadCount: 0 });
    expect(await followersOf(artist)).toEqual([[]]);
    expect(await followerCount(artist)).toBe(0);
  });

  it("takes a careless server's actor: its handle from its id, its name without control characters, its id as its page", async () => {
    const artist = await signUp(ctx.app);
    await followFrom(artist, 'odd');
    const odd = { handle: handleOf('odd'), url: remote.actor('odd') };
    const [notification] = (await notificationsOf(artist)).notifications;
    expect(notification!.actors).toEqual([
      expect.objectContaining({ username: odd.handle, firstName: 'Odd One', lastName: '', remote: odd }),
    ]);
    expect((await followersOf(artist)).flat()).toEqual([expect.objectContaining({ remote: odd })]);
  });

  it('refuses an activity whose text holds a NUL, as every route does: 400 saying so, and nothing applied', async () => {
    const artist = await signUp(ctx.app);
    const follow = new Follow({
      id: new URL(`/follows/${(follows += 1)}`, remote.origin),
      actor: new URL(remote.actor('bob')),
      object: new URL(actorOf(artist)),
      summary: 'a\u0000b',
    });
    const response = await remote.deliver(inboxOf(artist), follow, 'bob');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: ['Text must not contain the NUL character (\\u0000 or %00): remove it and try again.'],
    });
    // Refused before anything is queued: there is nothing to wait for.
    expect(await remoteFollowers(artist)).toEqual([]);
    expect(await followerCount(artist)).toBe(0);
  });
});

describe('what leaves', { timeout: 120_000 }, () => {
  let artist: SignedUp;

  beforeAll(async () => {
    artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    await followFrom(artist);
  }, 90_000);

  it('sends a public work as Create(Note) with its pictures, an edit as Update, a deletion as Delete', async () => {
    const pictures = [
      await uploadPicture(ctx.app, artist, 'A harbour at dawn'),
      await uploadPicture(ctx.app, artist, ''),
    ];
    const postId = await createPost(
      ctx.app,
      artist,
      'Harbour #ink',
      pictures.map((picture) => picture._id),
    );
    const create = await activityAbout('Create', postId);
    // Bob's server has a shared inbox: it is preferred.
    expect(create.path).toBe('/inbox');
    // As sent: the audience and the lists as arrays, the public address in full (Pixelfed's
    // Helpers::normalizeAudience reads `to` and `cc` only as arrays, and verifyAttachments `attachment`).
    const sent = remote.bodies.find((body) => body.id === create.json.id)!;
    const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
    expect(sent).toMatchObject({ to: [PUBLIC], cc: [expect.stringMatching(/\/followers$/)] });
    const sentNote = sent.object as Record<string, unknown>;
    expect(sentNote).toMatchObject({ to: [PUBLIC], cc: [expect.stringMatching(/\/followers$/)] });
    expect(sentNote.attachment).toHaveLength(2);
    expect(sentNote.tag).toEqual([expect.objectContaining({ type: 'Hashtag', name: '#ink' })]);
    const note = create.json.object as Record<string, unknown>;
    expect(note.type).toBe('Note');
    const attachments = ([] as Record<string, unknown>[]).concat(note.attachment as Record<string, unknown>[]);
    expect(attachments).toHaveLength(2);
    expect(attachments[0]).toMatchObject({ type: 'Image', mediaType: 'image/jpeg', name: 'A harbour at dawn' });

    const edited = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      payload: { postData: { content: 'Harbour at dawn #ink' } },
      headers: auth(artist),
    });
    expect(edited.statusCode, edited.body).toBe(201);
    const update = await activityAbout('Update', postId);
    expect(String((update.json.object as Record<string, unknown>).content)).toContain('Harbour at dawn');

    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: auth(artist) });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const deletion = await activityAbout('Delete', postId);
    expect((deletion.json.object as Record<string, unknown>).type).toBe('Tombstone');
  });

  it('sends a Delete of a work a moderator removes', async () => {
    const moderator = await signUp(ctx.app);
    await queryRows(ctx.database.db, sql`update users set role = 'moderator' where id = ${moderator.user._id}::uuid`);
    const postId = await createPost(ctx.app, artist, 'Spam, allegedly');
    await activityAbout('Create', postId);
    const removed = await ctx.app.inject({
      method: 'POST',
      url: '/api/moderation/actions',
      payload: { targetType: 'post', targetId: postId, action: 'remove', reason: 'Spam' },
      headers: auth(moderator),
    });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    const deletion = await activityAbout('Delete', postId);
    expect((deletion.json.object as Record<string, unknown>).type).toBe('Tombstone');
  });

  it('sends nothing of an artist who shows their works to signed-in people only', async () => {
    const private_ = await signUp(ctx.app);
    await followFrom(private_);
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      payload: { userData: { worksSignedInOnly: true } },
      headers: auth(private_),
    });
    expect(edit.statusCode, edit.body).toBeLessThan(300);
    const hidden = await createPost(ctx.app, private_, 'For members');
    // A later public work of another artist arrives: the events are handled in order, so the first was too.
    const later = await createPost(ctx.app, artist, 'A public one');
    await activityAbout('Create', later);
    const recorded = await queryRows(ctx.database.db, sql`select from federated_posts where post_id = ${hidden}::uuid`);
    expect(recorded).toEqual([]);
    expect(remote.received.some((item) => JSON.stringify(item.json).includes(hidden))).toBe(false);
  });

  it('ends the follows of an inbox that answers 410 Gone', async () => {
    const other = await signUp(ctx.app);
    await followFrom(other, 'carol');
    expect(await remoteFollowers(other)).toEqual([remote.actor('carol')]);
    remote.gone.add('carol');
    await createPost(ctx.app, other, 'Into the void');
    await eventually(async () => (await remoteFollowers(other)).length === 0, 'the gone follower to be removed');
    expect(await followerCount(other)).toBe(0);
    remote.gone.delete('carol');
  });

  it('ends the follows of a remote actor that is deleted', async () => {
    const other = await signUp(ctx.app);
    await followFrom(other, 'carol');
    const deletion = new Delete({
      id: new URL('/users/carol#delete', remote.origin),
      actor: new URL(remote.actor('carol')),
      object: new URL(remote.actor('carol')),
    });
    expect((await remote.deliver(`${origin}/ap/inbox`, deletion, 'carol')).status).toBe(202);
    await eventually(async () => (await remoteFollowers(other)).length === 0, 'the deleted actor to be removed');
    expect(await followerCount(other)).toBe(0);
  });
});

describe('deliveries that fail, and loopback', { timeout: 120_000 }, () => {
  it('retries a delivery an inbox refuses with a 5xx later, on the job queue, and keeps the follower', async () => {
    const other = await signUp(ctx.app);
    await followFrom(other, 'carol');
    remote.failing.add('carol');
    try {
      await createPost(ctx.app, other, 'Try again later');
      const [job] = await eventually(
        () =>
          queryRows<{ later: boolean }>(
            ctx.database.db,
            sql`select start_after > now() as later from pgboss.job
                where name = 'federation.outbox' and state = 'retry' and output->>'message' like '%503%'`,
          ).then((rows) => rows.length > 0 && rows),
        'the delivery to wait for its retry',
      );
      // Waiting for its back-off, not failed for good; the follower stays.
      expect(job).toMatchObject({ later: true });
      expect(await remoteFollowers(other)).toEqual([remote.actor('carol')]);
    } finally {
      remote.failing.delete('carol');
    }
  });

  it('never reaches a loopback address unless the config allows it: a Follow from there is refused', async () => {
    const port = await freePort();
    const strict = await createTestApp({ config: { publicOrigin: `http://127.0.0.1:${port}`, logLevel: 'silent' } });
    try {
      await strict.app.listen({ port, host: '127.0.0.1' });
      const artist = await signUp(strict.app);
      const follow = new Follow({
        id: new URL('/follows/strict', remote.origin),
        actor: new URL(remote.actor('bob')),
        object: new URL(`http://127.0.0.1:${port}/ap/users/${artist.user._id}`),
      });
      // The signature's key is on a loopback address, which this server does not fetch: it cannot be verified.
      const response = await remote.deliver(
        `http://127.0.0.1:${port}/ap/users/${artist.user._id}/inbox`,
        follow,
        'bob',
      );
      expect(response.status).toBe(401);
      const rows = await queryRows(strict.database.db, sql`select from remote_follows`);
      expect(rows).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('"Follow from your server"', { timeout: 120_000 }, () => {
  const followFrom = (username: string, account: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/users/${username}/follow-from?account=${encodeURIComponent(account)}`,
      headers: { host: new URL(origin).host },
    });

  it("sends the visitor to their server's follow page, named by its WebFinger, with the artist's handle in it", async () => {
    const artist = await signUp(ctx.app);
    const handle = `${artist.user.username}@${new URL(origin).host}`;
    const answer = await followFrom(artist.user.username, `${remote.origin}/@bob`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      url: `${remote.origin}/authorize_interaction?uri=${encodeURIComponent(handle)}`,
      handle,
    });
    // The server alone does as well: its WebFinger is asked for the server's URL.
    const server = await followFrom(artist.user.username, `${remote.origin}/`);
    expect(server.json().url).toBe(answer.json().url);
  });

  it('says what to do when the server names no follow page, cannot be reached, or what was typed is no handle', async () => {
    const artist = await signUp(ctx.app);
    const handle = `@${artist.user.username}@${new URL(origin).host}`;
    remote.webfinger.subscribe = false;
    try {
      const none = await followFrom(artist.user.username, `${remote.origin}/@bob`);
      expect(none.statusCode).toBe(422);
      expect(none.json().errors[0]).toBe(
        `${new URL(remote.origin).host} did not name a page for following people from other sites. Search for ${handle} on your server and follow from there.`,
      );
    } finally {
      remote.webfinger.subscribe = true;
    }
    // A handle is looked up over HTTPS, which nothing on this port speaks.
    const down = await followFrom(artist.user.username, `@bob@${new URL(remote.origin).host}`);
    expect(down.statusCode).toBe(422);
    expect(down.json().errors[0]).toContain(`Check the address, or search for ${handle} on your server.`);

    for (const typed of [
      '',
      'bob',
      'two words.example',
      '@bob@',
      'bob@exa mple.org',
      'https://user:pw@host.example/',
    ]) {
      const bad = await followFrom(artist.user.username, typed);
      expect(bad.statusCode, typed).toBe(400);
      expect(bad.json().errors[0]).toMatch(/^Type your fediverse handle/);
    }
    const here = await followFrom(artist.user.username, `someone@${new URL(origin).host}`);
    expect(here.statusCode).toBe(400);
    expect(here.json().errors[0]).toBe('That is an account here: sign in and use Follow.');
    expect((await followFrom('nobody_here_at_all', 'mastodon.example')).statusCode).toBe(404);
  });

  it('never asks a server on a private address unless the config allows it', async () => {
    const strict = await createTestApp({ config: { publicOrigin: 'https://share.example', logLevel: 'silent' } });
    try {
      const artist = await signUp(strict.app);
      const plain = await strict.app.inject({
        method: 'GET',
        url: `/api/users/${artist.user.username}/follow-from?account=${encodeURIComponent(`${remote.origin}/@bob`)}`,
      });
      // http:// is not taken outside tests; and over https the loopback address is refused before any request.
      expect(plain.statusCode).toBe(400);
      const loopback = await strict.app.inject({
        method: 'GET',
        url: `/api/users/${artist.user.username}/follow-from?account=${encodeURIComponent('bob@127.0.0.1')}`,
      });
      expect(loopback.statusCode).toBe(422);
    } finally {
      await strict.close();
    }
  });
});
