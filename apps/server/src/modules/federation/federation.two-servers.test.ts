import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post, User } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { eventually } from '../../test/fake-remote.js';
import { signUp, uploadPicture, type SignedUp } from '../../test/helpers.js';
import { startOurServers, type OurServer } from '../../test/two-servers.js';

/**
 * Two Share Arts servers federating (issue 39, "Tests, without the internet"): `a.test` and `b.test`, each its own
 * app, database and keys, behind HTTPS with a certificate of the test's own authority, every `.test` name sent to
 * 127.0.0.1. Nothing is faked on either side: each server's pages (its API) and rows show what the other did.
 * The short version runs here; the whole scenario of every action is this same file (it is short enough for CI).
 */

let pair: Awaited<ReturnType<typeof startOurServers>>;
let a: OurServer;
let b: OurServer;
let mira: SignedUp; // on a.test
let bob: SignedUp; // on b.test

beforeAll(async () => {
  pair = await startOurServers(['a.test', 'b.test']);
  [a, b] = pair.servers as [OurServer, OurServer];
  mira = await signUp(a.ctx.app, { username: 'mira' });
  bob = await signUp(b.ctx.app, { username: 'bob' });
}, 180_000);
afterAll(async () => pair?.close());

const WAIT = 60_000;
const handleOf = (server: OurServer, username: string) => `${username}@${new URL(server.origin).host}`;
const rows = <T>(server: OurServer, query: ReturnType<typeof sql>) => queryRows<T>(server.ctx.database.db, query);

async function api<T = unknown>(
  server: OurServer,
  who: SignedUp | null,
  method: string,
  url: string,
  payload?: object,
) {
  const response = await server.ctx.app.inject({
    method: method as 'GET',
    url,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.body.slice(0, 200), json: () => response.json() as T };
}

/** `who` on `server` looks `handle` up, and answers the shadow account's id there. */
async function lookUp(server: OurServer, who: SignedUp, handle: string): Promise<User> {
  const found = await api<{ kind: string; username: string }>(
    server,
    who,
    'GET',
    `/api/federation/lookup?q=${encodeURIComponent(`@${handle}`)}`,
  );
  expect(found.status, found.body).toBe(200);
  expect(found.json().kind).toBe('person');
  const user = await api<{ user: User }>(
    server,
    who,
    'GET',
    `/api/users/by-username/${encodeURIComponent(found.json().username)}`,
  );
  expect(user.status, user.body).toBe(200);
  return user.json().user;
}

async function followAccepted(server: OurServer, who: SignedUp, shadow: User) {
  const follow = await api(server, who, 'POST', `/api/users/follow/${shadow._id}`);
  expect(follow.status, follow.body).toBe(200);
  await eventually(
    async () =>
      (
        await rows<{ pending: boolean }>(
          server,
          sql`select pending from follows where follower_id = ${who.user._id}::uuid and followee_id = ${shadow._id}::uuid`,
        )
      )[0]?.pending === false,
    `${server.name}'s follow accepted`,
    WAIT,
  );
}

/** The post of `server` that came from the Note of our post `postId` on `origin`, once it is there. */
async function arrived(server: OurServer, from: OurServer, postId: string) {
  return eventually(
    async () =>
      (
        await rows<{ id: string; content: string; content_warning: string | null }>(
          server,
          sql`select id, content, content_warning from posts where note_iri like ${`${from.origin}/ap/posts/${postId}%`}`,
        )
      )[0],
    `the work on ${server.name}`,
    WAIT,
  );
}

describe('two of our servers, over HTTPS on loopback', () => {
  let miraOnB: User;
  let bobOnA: User;
  let workOnA: string;
  let workOnB: string;

  it('follow each other both ways, each side showing the other', async () => {
    miraOnB = await lookUp(b, bob, handleOf(a, 'mira'));
    expect(miraOnB.remote?.handle).toBe(handleOf(a, 'mira'));
    await followAccepted(b, bob, miraOnB);
    // a.test shows bob among mira's followers, by his handle.
    const followers = await api<{ followers: { username: string; remote?: { handle: string } }[] }>(
      a,
      mira,
      'GET',
      `/api/users/${mira.user._id}/followers`,
    );
    expect(followers.json().followers.map((person) => person.remote?.handle)).toContain(handleOf(b, 'bob'));

    bobOnA = await lookUp(a, mira, handleOf(b, 'bob'));
    await followAccepted(a, mira, bobOnA);
    const bobsFollowers = await api<{ followers: { remote?: { handle: string } }[] }>(
      b,
      bob,
      'GET',
      `/api/users/${bob.user._id}/followers`,
    );
    expect(bobsFollowers.json().followers.map((person) => person.remote?.handle)).toContain(handleOf(a, 'mira'));
  }, 120_000);

  it("a work of 20 pictures with alt texts and a warning reaches the other's Home whole", async () => {
    const mediaIds: string[] = [];
    for (let index = 0; index < 20; index += 1)
      mediaIds.push(
        (await uploadPicture(a.ctx.app, mira, `Study ${index + 1} of 20`, { width: 64 + index, height: 48 }))._id,
      );
    const created = await api<{ post: { _id: string } }>(a, mira, 'POST', '/api/posts', {
      content: 'Twenty studies of a heron #herons',
      mediaIds,
      contentWarning: 'blood',
    });
    expect(created.status, created.body).toBe(201);
    workOnA = created.json().post._id;
    const stored = await arrived(b, a, workOnA);
    workOnB = stored.id;
    expect(stored.content_warning).toBe('blood');
    const home = await eventually(
      async () => {
        const feed = await api<{ posts: Post[] }>(b, bob, 'GET', '/api/feed');
        const post = feed.json().posts.find((item) => item._id === workOnB);
        return post && post.media.length === 20 ? post : undefined;
      },
      "the work's 20 pictures on bob's Home",
      WAIT,
    );
    expect(home.media.map((picture) => picture.alt)).toEqual(mediaIds.map((_, index) => `Study ${index + 1} of 20`));
    expect(home.origin?.host).toBe(new URL(a.origin).host);
    expect(home.username).toBe(handleOf(a, 'mira'));
  }, 240_000);

  it("a like and a comment on b.test count and show on a.test's work", async () => {
    const liked = await api(b, bob, 'POST', `/api/posts/like/${workOnB}`);
    expect([200, 201], liked.body).toContain(liked.status);
    const commented = await api(b, bob, 'POST', `/api/posts/${workOnB}/comment`, {
      commentData: { content: 'The light on the water!' },
    });
    expect(commented.status, commented.body).toBe(201);
    const seen = await eventually(
      async () => {
        const post = (await api<{ post: Post }>(a, null, 'GET', `/api/posts/${workOnA}`)).json().post;
        return post.likes.likeCount === 1 && post.commentCount === 1 ? post : undefined;
      },
      'the like and the comment on a.test',
      WAIT,
    );
    const comments = await api<{ comments: { content: string; username: string }[] }>(
      a,
      null,
      'GET',
      `/api/comments/${workOnA}`,
    );
    expect(comments.json().comments.map((comment) => [comment.username, comment.content])).toEqual([
      [handleOf(b, 'bob'), 'The light on the water!'],
    ]);
    expect(seen.likes.likeCount).toBe(1);
  }, 120_000);

  it("an edit on a.test changes b.test's copy; a deletion removes it", async () => {
    const edited = await api(a, mira, 'POST', `/api/posts/edit/${workOnA}`, {
      postData: { content: 'Twenty studies of a grey heron #herons' },
    });
    expect([200, 201], edited.body).toContain(edited.status);
    await eventually(
      async () =>
        (
          await rows<{ content: string }>(b, sql`select content from posts where id = ${workOnB}::uuid`)
        )[0]?.content.includes('grey heron'),
      'the edit on b.test',
      WAIT,
    );
    expect((await api(a, mira, 'DELETE', `/api/posts/${workOnA}`)).status).toBe(201);
    await eventually(
      async () => (await rows(b, sql`select 1 from posts where id = ${workOnB}::uuid`)).length === 0,
      'the deletion on b.test',
      WAIT,
    );
    expect((await api(b, bob, 'GET', `/api/posts/${workOnB}`)).status).toBe(404);
  }, 120_000);

  it('deleting an account on a.test removes it, its works and its follows from b.test', async () => {
    const sana = await signUp(a.ctx.app, { username: 'sana' });
    const sanaOnB = await lookUp(b, bob, handleOf(a, 'sana'));
    await followAccepted(b, bob, sanaOnB);
    const deleted = await api(a, sana, 'POST', '/api/account/delete', { password: sana.password });
    expect(deleted.status, deleted.body).toBe(200);
    await eventually(
      async () => (await rows(b, sql`select 1 from users where id = ${sanaOnB._id}::uuid`)).length === 0,
      "sana's shadow account gone from b.test",
      WAIT,
    );
    const bobNow = await api<{ user: User }>(b, bob, 'GET', `/api/users/${bob.user._id}`);
    expect(bobNow.json().user.followingCount).toBe(1);
  }, 120_000);

  it('an artist moves from a.test to b.test: their followers on both servers follow the new account', async () => {
    const ana = await signUp(a.ctx.app, { username: 'ana' });
    const dan = await signUp(a.ctx.app, { username: 'dan' }); // follows ana on a.test
    const ben = await signUp(b.ctx.app, { username: 'ben' }); // ana's new account
    const cat = await signUp(b.ctx.app, { username: 'cat' }); // follows ana from b.test
    expect((await api(a, dan, 'POST', `/api/users/follow/${ana.user._id}`)).status).toBe(200);
    await followAccepted(b, cat, await lookUp(b, cat, handleOf(a, 'ana')));

    // The new account does not name the old one yet: nothing moves.
    const refused = await api<{ errors: string[] }>(a, ana, 'POST', '/api/federation/move', {
      account: `@${handleOf(b, 'ben')}`,
    });
    expect(refused.status, refused.body).toBe(400);
    expect(refused.json().errors[0]).toContain('does not name this account yet');

    const named = await api(b, ben, 'PUT', '/api/federation/aliases', { accounts: [`@${handleOf(a, 'ana')}`] });
    expect(named.status, named.body).toBe(200);
    const moved = await api<{ movedTo: { remote?: { handle: string } }; followersMoved: number }>(
      a,
      ana,
      'POST',
      '/api/federation/move',
      { account: `@${handleOf(b, 'ben')}` },
    );
    expect(moved.status, moved.body).toBe(200);
    expect(moved.json().movedTo.remote?.handle).toBe(handleOf(b, 'ben'));
    expect(moved.json().followersMoved).toBe(1);

    // a.test: the profile and the actor say where ana went; dan now follows ben, accepted by b.test.
    const profile = await api<{ user: User }>(a, null, 'GET', '/api/users/by-username/ana');
    expect(profile.json().user.movedTo?.remote?.handle).toBe(handleOf(b, 'ben'));
    const actor = await a.ctx.app.inject({
      method: 'GET',
      url: `/ap/users/${ana.user._id}`,
      headers: { accept: 'application/activity+json' },
    });
    expect(actor.json<{ movedTo?: string }>().movedTo).toBe(`${b.origin}/ap/users/${ben.user._id}`);
    const benOnA = await rows<{ id: string }>(a, sql`select id from users where username = ${handleOf(b, 'ben')}`);
    await eventually(
      async () =>
        (
          await rows<{ pending: boolean }>(
            a,
            sql`select pending from follows where follower_id = ${dan.user._id}::uuid and followee_id = ${benOnA[0]!.id}::uuid`,
          )
        )[0]?.pending === false,
      "dan's follow of ben accepted by b.test",
      WAIT,
    );
    expect(
      await rows(
        a,
        sql`select 1 from follows where follower_id = ${dan.user._id}::uuid and followee_id = ${ana.user._id}::uuid`,
      ),
    ).toHaveLength(0);

    // b.test took the Move: cat follows ben, here, and no longer ana.
    await eventually(
      async () =>
        (
          await rows(
            b,
            sql`select 1 from follows where follower_id = ${cat.user._id}::uuid and followee_id = ${ben.user._id}::uuid`,
          )
        ).length === 1,
      "cat's follow moved to ben on b.test",
      WAIT,
    );
    const catFollows = await api<{ user: User }>(b, cat, 'GET', `/api/users/${cat.user._id}`);
    expect(catFollows.json().user.followingCount).toBe(1);

    // A second move within 30 days is refused; cancelling the redirect keeps the moved follows.
    const again = await api(a, ana, 'POST', '/api/federation/move', { account: `@${handleOf(b, 'ben')}` });
    expect(again.status, again.body).toBe(400);
    const cancelled = await api<{ movedTo: null }>(a, ana, 'DELETE', '/api/federation/move');
    expect(cancelled.json().movedTo).toBeNull();
    expect(
      (await api<{ user: User }>(a, null, 'GET', '/api/users/by-username/ana')).json().user.movedTo,
    ).toBeUndefined();
  }, 240_000);

  it("a block on a.test ends bob's follow there and reaches b.test", async () => {
    const [actor] = await rows<{ id: string }>(
      a,
      sql`select id from remote_actors where handle = ${handleOf(b, 'bob')}`,
    );
    const blocked = await api(a, mira, 'POST', `/api/remote-people/${actor!.id}/block`);
    expect(blocked.status, blocked.body).toBe(200);
    expect(
      await rows(
        a,
        sql`select 1 from remote_follows where user_id = ${mira.user._id}::uuid and remote_actor_id = ${actor!.id}::uuid`,
      ),
    ).toHaveLength(0);
    await eventually(
      async () => (await rows(b, sql`select 1 from remote_blocks where user_id = ${bob.user._id}::uuid`)).length === 1,
      'the Block on b.test',
      WAIT,
    );
  }, 120_000);
});
