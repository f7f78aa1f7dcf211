import { Follow } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { publish } from '../../events/events.js';
import { createPost, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { AP, eventually, startFederatedApp, type Received, type Remote } from '../../test/fake-remote.js';

/**
 * What else leaves (issue 39, part 3), between two real servers on loopback: the app on one port and a fake remote
 * server made with Fedify on another (src/test/fake-remote.ts), which follows our artists with signed requests
 * and keeps only what its inboxes verified against our actors' keys. Each test waits, a bounded time, for what
 * the remote received: an Update of the actor on a profile change, the Delete of a work no longer public and its
 * Create under a new id once public again, a comment as a reply and its Delete, the Delete of a deleted account.
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

let follows = 0;
/** Follows `who` from the remote actor `as` and waits for the Accept that answers it. */
async function followFrom(who: SignedUp, as = 'bob') {
  const follow = new Follow({
    id: new URL(`/follows/outbound-${(follows += 1)}`, remote.origin),
    actor: new URL(remote.actor(as)),
    object: new URL(actorOf(who)),
  });
  const response = await remote.deliver(`${actorOf(who)}/inbox`, follow, as);
  expect(response.status, await response.text()).toBe(202);
  await eventually(
    async () =>
      remote.received.find(
        (item) =>
          item.json.type === 'Accept' &&
          (typeof item.json.object === 'string' ? item.json.object : item.json.object.id) === follow.id!.href,
      ),
    'the Accept',
  );
}

const objectId = (item: Received) =>
  typeof item.json.object === 'string' ? item.json.object : String(item.json.object.id);

/** What the remote received of `type` whose object's id is `id` (a Note, a Tombstone, an actor), in order. */
const receivedOf = (type: string, id: string) =>
  remote.received.filter((item) => item.json.type === type && objectId(item) === id);

/** Waits for the `nth` (1 first) activity of `type` about `id`, and answers it. */
const arrived = (type: string, id: string, nth = 1) =>
  eventually(async () => receivedOf(type, id)[nth - 1], `${type} #${nth} of ${id}`);

/** The body as it was POSTed (the remote's `received` holds it as Fedify reads it). */
const sentBody = (item: Received) => remote.bodies.find((body) => body.id === item.json.id)!;

async function editProfile(who: SignedUp, userData: Record<string, unknown>) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData },
    headers: auth(who),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

async function moderator(): Promise<SignedUp> {
  const who = await signUp(ctx.app);
  await queryRows(ctx.database.db, sql`update users set role = 'moderator' where id = ${who.user._id}::uuid`);
  return who;
}

async function moderate(by: SignedUp, targetType: 'post' | 'comment', targetId: string, action: 'hide' | 'remove') {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/moderation/actions',
    payload: { targetType, targetId, action, reason: 'Spam' },
    headers: auth(by),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { accept: AP } });

describe('what else leaves', { timeout: 120_000 }, () => {
  it('a profile change goes out as Update(Person) to the shared inbox, once per version of the actor and its pins', async () => {
    const artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    await followFrom(artist);
    const person = actorOf(artist);

    await editProfile(artist, { firstName: 'Mira', lastName: 'Okafor-Lee', bio: 'Ink and #snow' });
    const first = await arrived('Update', person);
    expect(first.path).toBe('/inbox');
    const sent = sentBody(first);
    expect(sent).toMatchObject({ type: 'Update', actor: person, to: [PUBLIC], cc: [`${person}/followers`] });
    expect(sent.object).toMatchObject({
      type: 'Person',
      id: person,
      name: 'Mira Okafor-Lee',
      preferredUsername: artist.user.username,
      discoverable: true,
      // The AI-training opt-out is on by default: it travels with the actor.
      indexable: false,
      featured: `${person}/featured`,
    });
    expect(String((sent.object as Record<string, unknown>).summary)).toContain('Ink and');

    // Saved unchanged: nothing. Then the opt-out off: the next Update, and only it.
    await editProfile(artist, { firstName: 'Mira', lastName: 'Okafor-Lee', bio: 'Ink and #snow' });
    await editProfile(artist, { settings: { aiTrainingOptOut: false } });
    const second = await arrived('Update', person, 2);
    expect((second.json.object as Record<string, unknown>).indexable).toBe(true);

    // A pin changes what the featured collection lists (Mastodon reads it again on the Update): a third.
    const postId = await createPost(ctx.app, artist, 'Pinned fox');
    await arrived('Create', `${origin}/ap/posts/${postId}`);
    const pin = await ctx.app.inject({ method: 'POST', url: `/api/posts/${postId}/pin`, headers: auth(artist) });
    expect(pin.statusCode, pin.body).toBeLessThan(300);
    await arrived('Update', person, 3);
    expect(receivedOf('Update', person)).toHaveLength(3);
  });

  it('a work hidden by a moderator goes out as Delete, and restored as Create under a new id, in order; so does signed-in only', async () => {
    const artist = await signUp(ctx.app);
    await followFrom(artist);
    const mod = await moderator();
    const postId = await createPost(ctx.app, artist, 'Harbour at dawn #ink');
    const note = `${origin}/ap/posts/${postId}`;
    await arrived('Create', note);

    await moderate(mod, 'post', postId, 'hide');
    const deletion = await arrived('Delete', note);
    expect(deletion.json.object).toMatchObject({ type: 'Tombstone', id: note });
    expect((await get(`/ap/posts/${postId}`)).statusCode).toBe(404);

    // Given back by a moderator (no route does this yet: the write and its event, as one would).
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`update posts set moderation_state = null, moderation_reason = null where id = ${postId}::uuid`,
      );
      await publish(tx, { type: 'post-changed', postId });
    });
    // Mastodon refuses a Create of an id it was told was deleted (its Tombstone): the work's Note has a new id.
    const again = `${note}.1`;
    const recreated = await arrived('Create', again);
    expect(recreated.json.id).toBe(`${again}#create`);
    expect(sentBody(recreated)).toMatchObject({ to: [PUBLIC], object: { id: again, to: [PUBLIC] } });
    expect(remote.received.indexOf(deletion)).toBeLessThan(remote.received.indexOf(recreated));
    // Served under its new id, and at the old address and the page's too (as the current Note).
    expect((await get(`/ap/posts/${postId}.1`)).json().id).toBe(again);
    expect((await get(`/ap/posts/${postId}`)).json().id).toBe(again);
    expect((await get(`/posts/${postId}`)).json().id).toBe(again);
    expect((await get(`/ap/posts/${postId}.2`)).statusCode).toBe(404);

    // Its words edited: an Update of the new id.
    const edited = await ctx.app.inject({
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      payload: { postData: { content: 'Harbour at dusk #ink' } },
      headers: auth(artist),
    });
    expect(edited.statusCode, edited.body).toBe(201);
    const update = await arrived('Update', again);
    expect(String((update.json.object as Record<string, unknown>).content)).toContain('Harbour at dusk');

    // The artist shows their works to signed-in people only: the Delete of it; public again, its Create again.
    await editProfile(artist, { worksSignedInOnly: true });
    await arrived('Delete', again);
    const person = await eventually(
      async () =>
        receivedOf('Update', actorOf(artist)).find(
          (item) => (item.json.object as Record<string, unknown>).discoverable === false,
        ),
      'the Update of the actor, not discoverable',
    );
    expect((person.json.object as Record<string, unknown>).indexable).toBe(false);
    await editProfile(artist, { worksSignedInOnly: false });
    await arrived('Create', `${note}.2`);
    const order = remote.received
      .filter((item) => ['Create', 'Update', 'Delete'].includes(item.json.type) && objectId(item).startsWith(note))
      .map((item) => `${item.json.type} ${objectId(item).slice(note.length) || '.0'}`);
    expect(order).toEqual(['Create .0', 'Delete .0', 'Create .1', 'Update .1', 'Delete .1', 'Create .2']);
  });

  it('a comment on a public work goes out as a reply to its Note, is served at /ap/comments/{id}, and its deletion as Delete', async () => {
    const artist = await signUp(ctx.app);
    await followFrom(artist);
    // The commenter has no remote follower: the reply reaches the work's followers' servers.
    const commenter = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'Fox in snow');
    const note = `${origin}/ap/posts/${postId}`;
    await arrived('Create', note);

    const comment = async (content: string): Promise<string> => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/posts/${postId}/comment`,
        payload: { commentData: { content } },
        headers: { ...auth(commenter), prefer: 'return=minimal' },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().comment._id as string;
    };
    const commentId = await comment(`Lovely #ink, @${artist.user.username}`);
    const reply = `${origin}/ap/comments/${commentId}`;
    const create = await arrived('Create', reply);
    expect(create.path).toBe('/inbox');
    const sent = sentBody(create);
    expect(sent).toMatchObject({
      id: `${reply}#create`,
      actor: actorOf(commenter),
      to: [PUBLIC],
      cc: [`${actorOf(commenter)}/followers`, actorOf(artist)],
    });
    const object = sent.object as Record<string, unknown>;
    expect(object).toMatchObject({
      type: 'Note',
      id: reply,
      attributedTo: actorOf(commenter),
      inReplyTo: note,
      to: [PUBLIC],
      cc: [`${actorOf(commenter)}/followers`, actorOf(artist)],
      url: `${origin}/posts/${postId}#comments`,
    });
    expect(String(object.content)).toContain('Lovely');
    expect(object.tag).toEqual([
      expect.objectContaining({ type: 'Hashtag', name: '#ink' }),
      expect.objectContaining({ type: 'Mention', href: actorOf(artist) }),
    ]);

    // Served by itself, as the parsers read it.
    const served = await get(`/ap/comments/${commentId}`);
    expect(served.statusCode, served.body).toBe(200);
    expect(served.headers['content-type']).toMatch(/^application\/activity\+json/);
    expect(served.json()).toMatchObject({ id: reply, inReplyTo: note, to: [PUBLIC], tag: expect.any(Array) });

    // Deleted: its Delete (a Tombstone), and no longer served.
    const deleted = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/delete/${postId}/${commentId}`,
      headers: auth(commenter),
    });
    expect(deleted.statusCode, deleted.body).toBe(201);
    const deletion = await arrived('Delete', reply);
    expect(deletion.json).toMatchObject({ actor: actorOf(commenter), object: { type: 'Tombstone', id: reply } });
    expect((await get(`/ap/comments/${commentId}`)).statusCode).toBe(404);

    // A comment hidden by a moderator goes the same way; on a hidden work, a comment is not served.
    const mod = await moderator();
    const hiddenId = await comment('Buy followers at spam.example');
    await arrived('Create', `${origin}/ap/comments/${hiddenId}`);
    await moderate(mod, 'comment', hiddenId, 'hide');
    await arrived('Delete', `${origin}/ap/comments/${hiddenId}`);
    const keptId = await comment('Still here');
    await arrived('Create', `${origin}/ap/comments/${keptId}`);
    expect((await get(`/ap/comments/${keptId}`)).statusCode).toBe(200);
    await moderate(mod, 'post', postId, 'hide');
    await arrived('Delete', note);
    await arrived('Delete', `${origin}/ap/comments/${keptId}`);
    expect((await get(`/ap/comments/${keptId}`)).statusCode).toBe(404);
    expect((await get('/ap/comments/not-a-uuid')).statusCode).toBe(404);
  });

  it('deleting an account sends the Delete of its actor, signed with its key, to every server that follows it', async () => {
    const leaving = await signUp(ctx.app);
    await followFrom(leaving, 'bob');
    await followFrom(leaving, 'carol');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      payload: { password: leaving.password },
      headers: auth(leaving),
    });
    expect(response.statusCode, response.body).toBe(200);
    const person = actorOf(leaving);
    // Bob's server by its shared inbox, carol's by her own: each verified the signature, though the key is gone.
    const deliveries = await eventually(async () => {
      const found = receivedOf('Delete', person);
      return found.length >= 2 && found;
    }, "the actor's Delete at both servers");
    expect(deliveries.map((item) => item.path).sort()).toEqual(['/inbox', '/users/carol/inbox']);
    expect(deliveries[0]!.json).toMatchObject({ id: `${person}#delete`, actor: person, object: person });
    const keys = await queryRows(
      ctx.database.db,
      sql`select from actor_keys where user_id = ${leaving.user._id}::uuid`,
    );
    expect(keys).toEqual([]);
    expect((await get(`/ap/users/${leaving.user._id}`)).statusCode).toBe(404);
  });
});
