import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Follow } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { ERRORS, MODERATION_MESSAGES } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { publish } from '../../events/events.js';
import { createPost, signUp, uploadPicture, type SignedUp, type TestContext } from '../../test/helpers.js';
import { AP, eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * Following out (issue 39): the remote people an artist here follows are shadow accounts (a `users` row with
 * `remote_actor_id`) and their works ordinary posts (with `note_iri`). They appear on Home of the people who follow
 * them, on their profile here, on a work's own page, in bookmarks and comments, and nowhere else: no people list,
 * search, suggestion, Explore, tag page or count, feed, NodeInfo count, actor, WebFinger or collection of ours, no
 * Create sent as ours, no sign-in or mail. The shadow accounts and works are made by SQL as the resolver writes them
 * (federation.remote-people.ts, federation.remote-works.ts); every check goes through the HTTP API.
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;
/** Who uploads the pictures the remote works then take (an account here: the upload route needs one). */
let pictureOwner: SignedUp;

beforeAll(async () => {
  // A built web app's index.html, so that a profile's and a post's pages answer as the pages module draws them.
  const webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-web-'));
  await writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Share Arts</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n',
  );
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp({ webDistDir }));
  pictureOwner = await signUp(ctx.app);
}, 90_000);
afterAll(() => closeApp?.());

const REMOTE_HOST = 'pixelfed.example';
const db = () => ctx.database.db;
/** A word no other test uses: searches, tags and usernames of one test never meet another's. */
const word = (prefix = 'w') => `${prefix}${randomBytes(5).toString('hex')}`;

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: SignedUp, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    headers: { ...(who ? { authorization: `Bearer ${who.token}` } : {}), accept: 'application/json' },
    ...(payload ? { payload } : {}),
  });
}

async function ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: SignedUp, payload?: object) {
  const response = await call(method, url, who, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json();
}

const ids = (items: { _id: string }[]) => items.map((item) => item._id);

interface Shadow {
  id: string;
  username: string;
  iri: string;
  profileUrl: string;
  actorRowId: string;
}

/**
 * A remote person's shadow account as the resolver writes it: their `remote_actors` row and a `users` row joined to
 * it (username `preferredUsername@host`, no email, no password, no photo).
 */
async function shadowAccount(
  name: string,
  { displayName = 'Remote Painter', bio = '', iri, followers = 0 } = {} as {
    displayName?: string;
    bio?: string;
    iri?: string;
    followers?: number;
  },
): Promise<Shadow> {
  const actorIri = iri ?? `https://${REMOTE_HOST}/users/${name}`;
  const profileUrl = `https://${REMOTE_HOST}/${name}`;
  const [actor] = await queryRows<{ id: string }>(
    db(),
    sql`insert into remote_actors (iri, handle, inbox, shared_inbox, name, profile_url, outbox, username)
        values (${actorIri}, ${`${name}@${REMOTE_HOST}`}, ${`${actorIri}/inbox`}, ${`https://${REMOTE_HOST}/inbox`},
                ${displayName}, ${profileUrl}, ${`${actorIri}/outbox`}, ${name})
        on conflict (iri) do update set username = excluded.username
        returning id`,
  );
  const username = `${name}@${REMOTE_HOST}`;
  const [user] = await queryRows<{ id: string }>(
    db(),
    sql`insert into users (username, first_name, last_name, email, password_hash, bio, link, remote_actor_id,
                           follower_count)
        values (${username}, ${displayName}, '', '', '', ${bio}, ${profileUrl}, ${actor!.id}::uuid, ${followers})
        returning id`,
  );
  return { id: user!.id, username, iri: actorIri, profileUrl, actorRowId: actor!.id };
}

/**
 * A work of `owner` from their server, as the remote-work job writes it: its picture (run through the upload
 * pipeline, then the shadow account's, with where it came from), the post with its Note's id and page, its
 * `post_media` row and the author's post count. `event` publishes its `post-published` as a plain new post would.
 */
async function remoteWork(owner: Shadow, content: string, { event = false } = {}): Promise<string> {
  const picture = await uploadPicture(ctx.app, pictureOwner, 'A fox in the snow, from elsewhere');
  const noteId = word('note');
  const tags = [...content.matchAll(/#([a-z0-9_]+)/gu)].map((match) => match[1]!);
  return db().transaction(async (tx) => {
    await queryRows(
      tx,
      sql`update media set owner_id = ${owner.id}::uuid, remote_url = ${`https://${REMOTE_HOST}/storage/${noteId}.jpg`}
          where id = ${picture._id}::uuid`,
    );
    const [row] = await queryRows<{ id: string; created_at: string }>(
      tx,
      sql`insert into posts (author_id, content, tags, note_iri, note_url)
          values (${owner.id}::uuid, ${content}, ${`{${tags.join(',')}}`}::text[],
                  ${`https://${REMOTE_HOST}/p/${owner.username.split('@')[0]}/${noteId}`},
                  ${`https://${REMOTE_HOST}/i/web/post/${noteId}`})
          returning id, created_at`,
    );
    await queryRows(
      tx,
      sql`insert into post_media (post_id, media_id, position) values (${row!.id}::uuid, ${picture._id}::uuid, 0)`,
    );
    await queryRows(tx, sql`update users set post_count = post_count + 1 where id = ${owner.id}::uuid`);
    if (event) {
      await publish(tx, {
        type: 'post-published',
        postId: row!.id,
        authorId: owner.id,
        createdAt: new Date(row!.created_at).toISOString(),
        tags,
      });
    }
    return row!.id;
  });
}

/** `who` follows the remote person, as the follow writes it (and, unless pending, as their Accept leaves it). */
async function followShadow(who: SignedUp, shadow: Shadow, { pending = false } = {}) {
  await db().transaction(async (tx) => {
    await queryRows(
      tx,
      sql`insert into follows (follower_id, followee_id, pending, activity_id)
          values (${who.user._id}::uuid, ${shadow.id}::uuid, ${pending}, ${`${origin}/follows/${word()}`})`,
    );
    await queryRows(tx, sql`update users set follower_count = follower_count + 1 where id = ${shadow.id}::uuid`);
    await queryRows(tx, sql`update users set following_count = following_count + 1 where id = ${who.user._id}::uuid`);
  });
}

const notes = (page: { posts: { _id: string }[] }) => ids(page.posts);

describe('where a remote person and their works never appear', () => {
  it('no people list, suggestion, @ suggestion or people search holds a shadow account', async () => {
    const stem = word('p');
    const viewer = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const local = await signUp(ctx.app, { username: `${stem}_ana`, fullname: `${stem} Anaya` });
    // Popular (in the 200 most followed suggestions read), named like the search, its username the @ prefix.
    const shadow = await shadowAccount(`${stem}_bob`, { displayName: `${stem} Bobo`, followers: 1_000_000 });
    await followShadow(viewer, shadow);

    const everyone = await ok('GET', '/api/users?limit=50', viewer);
    expect(ids(everyone.users)).toContain(local.user._id);
    expect(ids(everyone.users)).not.toContain(shadow.id);
    expect(ids((await ok('GET', '/api/users?limit=50')).users)).not.toContain(shadow.id);

    const suggested = await ok('GET', '/api/users/suggestions?limit=50', stranger);
    expect(ids(suggested.users)).toContain(local.user._id);
    expect(ids(suggested.users)).not.toContain(shadow.id);

    // Those the viewer follows come first in @ suggestions: a followed shadow account would lead the list.
    for (const who of [viewer, stranger]) {
      const mentionable = await ok('GET', `/api/users/mentionable?prefix=${stem}`, who);
      expect(ids(mentionable.users)).toEqual([local.user._id]);
    }
    expect(ids((await ok('GET', `/api/users/mentionable?prefix=${stem}`)).users)).toEqual([local.user._id]);

    for (const type of ['users', 'all']) {
      const found = await ok('GET', `/api/search?q=${stem}&type=${type}`, viewer);
      expect(ids(found.users)).toEqual([local.user._id]);
    }
  });

  it('cannot sign in, nor be sent a password reset even with a confirmed address', async () => {
    const shadow = await shadowAccount(word('s'));
    const login = await call('POST', '/api/auth/login', undefined, { username: shadow.username, password: 'x' });
    // Their handle is no username here (it holds '@'): the log-in's schema refuses it before any look-up.
    expect(login.statusCode).toBe(400);
    expect(login.json().errors[0]).toMatch(/^username has only the letters A to Z/);

    // Were a shadow account ever to hold a confirmed address (it holds none), "Forgot password?" still passes it by:
    // the same address of an account here gets its link, in the same job.
    const address = `${word('m')}@example.test`;
    const local = await signUp(ctx.app, { email: address });
    // Two statements: a trigger (migration 0020) unconfirms an address as it changes.
    await queryRows(db(), sql`update users set email = ${address} where id = ${shadow.id}::uuid`);
    await queryRows(
      db(),
      sql`update users set email_verified_at = now() where id in (${shadow.id}::uuid, ${local.user._id}::uuid)`,
    );
    for (const login of [shadow.username, address]) {
      expect((await call('POST', '/api/auth/forgot', undefined, { login })).statusCode).toBe(202);
    }
    const tokensOf = async (userId: string) =>
      (
        await queryRows<{ n: number }>(
          db(),
          sql`select count(*)::int as n from account_tokens where user_id = ${userId}::uuid and purpose = 'reset-password'`,
        )
      )[0]!.n;
    // Both mail jobs done (the job queue's own table says so): whatever they would mail was decided.
    await eventually(async () => {
      const [jobs] = await queryRows<{ done: number }>(
        db(),
        sql`select count(*) filter (where state = 'completed')::int as done from pgboss.job
            where name = 'mail.password-reset' and data->>'login' in (${shadow.username}, ${address})`,
      );
      return jobs!.done === 2;
    }, 'the reset jobs');
    expect(await tokensOf(local.user._id)).toBe(1);
    expect(await tokensOf(shadow.id)).toBe(0);
  });

  it('Explore, its trending sort, tag pages, tag counts and suggestions, posts search and a followed tag leave remote works out', async () => {
    const tag = word('t');
    const lonelyTag = word('t');
    const term = word('q');
    const viewer = await signUp(ctx.app);
    const follower = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const shadow = await shadowAccount(word('r'));
    await followShadow(follower, shadow);
    // The viewer follows both tags, and their Home is read once: the timeline kept in memory then takes in what is
    // published (the works' events), and must leave another server's work out as the database's order does.
    await ok('POST', `/api/tags/${tag}/follow`, viewer);
    await ok('POST', `/api/tags/${lonelyTag}/follow`, viewer);
    expect(notes(await ok('GET', '/api/feed?limit=50', viewer))).toEqual([]);
    const ours = await createPost(ctx.app, artist, `Ours ${term} #${tag}`);
    const theirs = await remoteWork(shadow, `Theirs ${term} #${tag} #${lonelyTag}`, { event: true });
    // Liked a lot: at the top of trending, were it there.
    await queryRows(db(), sql`update posts set like_count = 1000000 where id = ${theirs}::uuid`);

    for (const who of [viewer, follower, undefined]) {
      for (const sort of ['latest', 'trending']) {
        const explore = await ok('GET', `/api/posts?sort=${sort}&limit=50`, who);
        expect(notes(explore)).not.toContain(theirs);
      }
      expect(notes(await ok('GET', '/api/posts?sort=latest&limit=50', who))).toContain(ours);
      expect(notes(await ok('GET', `/api/tags/${tag}/posts`, who))).toEqual([ours]);
      expect(notes(await ok('GET', `/api/tags/${lonelyTag}/posts`, who))).toEqual([]);
      for (const type of ['posts', 'all']) {
        expect(notes(await ok('GET', `/api/search?q=${term}&type=${type}`, who))).toEqual([ours]);
      }
      expect(notes(await ok('GET', `/api/search?q=%23${tag}&type=posts`, who))).toEqual([ours]);
    }

    // The counts (kept by the trigger of migrations 0025 and 0039) and the # suggestions read from them.
    expect((await ok('GET', `/api/tags/${tag}`)).postCount).toBe(1);
    expect((await ok('GET', `/api/tags/${lonelyTag}`)).postCount).toBe(0);
    const suggested = await ok('GET', `/api/tags?prefix=${lonelyTag}`);
    expect(suggested.tags).toEqual([]);
    expect((await ok('GET', `/api/tags?prefix=${tag}`)).tags).toEqual([{ tag, postCount: 1 }]);

    // Following the tag brings works made here to Home, not another server's (only following their author does).
    const home = await ok('GET', '/api/feed?limit=50', viewer);
    expect(notes(home)).toContain(ours);
    expect(notes(home)).not.toContain(theirs);
    // Read again from the database's order, not the timeline kept in memory.
    const oldest = await ok('GET', '/api/feed?sort=oldest&limit=50', viewer);
    expect(notes(oldest)).toContain(ours);
    expect(notes(oldest)).not.toContain(theirs);
  });

  it('has no Atom feed, no actor, WebFinger, outbox or collections of ours, and no Note served as ours', async () => {
    const shadow = await shadowAccount(word('f'));
    const work = await remoteWork(shadow, 'A study in blue');
    const atom = await call('GET', `/api/users/${encodeURIComponent(shadow.username)}/feed.atom`);
    expect(atom.statusCode).toBe(404);
    expect(atom.json().errors).toEqual([ERRORS.userNotFound]);

    const activity = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { accept: AP } });
    for (const part of ['', '/outbox', '/followers', '/following', '/featured']) {
      expect((await activity(`/ap/users/${shadow.id}${part}`)).statusCode, part).toBe(404);
    }
    expect((await activity(`/ap/posts/${work}`)).statusCode).toBe(404);
    for (const resource of [`${origin}/ap/users/${shadow.id}`, `acct:${shadow.username}@${new URL(origin).host}`]) {
      const finger = await ctx.app.inject({
        method: 'GET',
        url: `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
        headers: { accept: 'application/jrd+json' },
      });
      expect(finger.statusCode, resource).toBe(404);
    }
  });

  it('NodeInfo counts neither shadow accounts nor their works, and our comments on those works stay ours', async () => {
    const usage = async () => (await ok('GET', '/nodeinfo/2.1')).usage;
    const before = await usage();
    const shadow = await shadowAccount(word('n'));
    const work = await remoteWork(shadow, 'Counted elsewhere');
    const after = await usage();
    expect(after.users).toEqual(before.users);
    expect(after.localPosts).toBe(before.localPosts);
    const commenter = await signUp(ctx.app);
    await ok('POST', `/api/posts/${work}/comment`, commenter, { commentData: { content: 'Lovely blues.' } });
    expect((await usage()).localComments).toBe(before.localComments + 1);
  });

  it('never sends a remote work as our Create, even when its event is not marked', async () => {
    const artist = await signUp(ctx.app);
    const shadow = await shadowAccount(word('c'));
    // bob (of the fake remote server) follows our artist; were a Create of a remote work sent, bob would be sent
    // it too: his row is made to follow the shadow account as well.
    const follow = new Follow({
      id: new URL(`/follows/shadow-${word()}`, remote.origin),
      actor: new URL(remote.actor('bob')),
      object: new URL(`${origin}/ap/users/${artist.user._id}`),
    });
    const delivered = await remote.deliver(`${origin}/ap/users/${artist.user._id}/inbox`, follow, 'bob');
    expect(delivered.status).toBe(202);
    await eventually(async () => remote.received.find((item) => item.json.type === 'Accept'), 'the Accept');
    await queryRows(
      db(),
      sql`insert into remote_follows (user_id, remote_actor_id, activity_id)
          select ${shadow.id}::uuid, id, ${`${remote.origin}/follows/${word()}`} from remote_actors
          where iri = ${remote.actor('bob')}`,
    );

    const theirs = await remoteWork(shadow, 'Not ours to send', { event: true });
    const ours = await createPost(ctx.app, artist, 'Ours to send');
    // The events are handled in order: once our work's Create arrived, the remote work's event was handled.
    const createOf = (postId: string) =>
      remote.received.find(
        (item) =>
          item.json.type === 'Create' &&
          String(typeof item.json.object === 'string' ? item.json.object : item.json.object.id).includes(postId),
      );
    await eventually(async () => createOf(ours), 'the Create of our work');
    expect(createOf(theirs)).toBeUndefined();
    const claimed = await queryRows(db(), sql`select from federated_posts where post_id = ${theirs}::uuid`);
    expect(claimed).toEqual([]);
  });
});

describe('where they do appear', () => {
  it("on Home of their followers, on their profile and its grid, on a work's page, in bookmarks and comments", async () => {
    const follower = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const shadow = await shadowAccount(word('h'), { displayName: 'Hana Remote', bio: 'Paints foxes.' });
    const work = await remoteWork(shadow, 'Foxes at dusk #foxes');
    await followShadow(follower, shadow);

    expect(notes(await ok('GET', '/api/feed?limit=50', follower))).toContain(work);
    expect(notes(await ok('GET', '/api/feed?sort=oldest&limit=50', follower))).toContain(work);
    expect(notes(await ok('GET', '/api/feed?limit=50', stranger))).not.toContain(work);

    for (const who of [follower, stranger, undefined]) {
      const profile = await ok('GET', `/api/users/by-username/${encodeURIComponent(shadow.username)}`, who);
      expect(profile.user).toMatchObject({ _id: shadow.id, username: shadow.username, postCount: 1 });
      const grid = await ok('GET', `/api/posts/user/${encodeURIComponent(shadow.username)}`, who);
      expect(notes(grid)).toEqual([work]);
      const post = await ok('GET', `/api/posts/${work}`, who);
      expect(post.post).toMatchObject({ _id: work, userId: shadow.id, username: shadow.username });
    }
    expect(
      (await ok('GET', `/api/users/by-username/${encodeURIComponent(shadow.username)}`, follower)).user.viewer,
    ).toMatchObject({ follows: true });

    await ok('POST', `/api/users/bookmark/${work}`, stranger);
    expect(ids((await ok('GET', '/api/users/bookmark', stranger)).bookmarks)).toEqual([work]);
    await ok('POST', `/api/posts/${work}/comment`, stranger, { commentData: { content: 'What a fox.' } });
    const comments = await ok('GET', `/api/comments/${work}`, follower);
    expect(comments.comments.map((comment: { content: string }) => comment.content)).toEqual(['What a fox.']);
  });

  it("draws their profile's and work's shared pages as theirs: noindex, canonical at their home, no Open Graph card", async () => {
    const shadow = await shadowAccount(word('g'), { displayName: 'Gus Remote', bio: 'Etchings.' });
    const work = await remoteWork(shadow, 'An etching of a heron');
    const page = async (url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
      return response.body;
    };
    const profile = await page(`/${shadow.username}`);
    expect(profile).toContain('<meta name="robots" content="noindex, noai, noimageai">');
    expect(profile).toContain(`<link rel="canonical" href="${shadow.profileUrl}">`);
    expect(profile).toContain(`<title>Gus Remote (@${shadow.username})</title>`);
    expect(profile).not.toContain('og:');
    expect(profile).not.toContain('twitter:');
    // The same page by the address a browser may send ('@' escaped).
    expect(await page(`/${encodeURIComponent(shadow.username)}`)).toContain('noindex');

    const [row] = await queryRows<{ note_url: string }>(db(), sql`select note_url from posts where id = ${work}::uuid`);
    const noteUrl = row!.note_url;
    const post = await page(`/posts/${work}`);
    expect(post).toContain('<meta name="robots" content="noindex, noai, noimageai">');
    expect(post).toContain(`<link rel="canonical" href="${noteUrl}">`);
    expect(post).toContain(`Gus Remote (@${shadow.username}): “An etching of a heron”`);
    expect(post).not.toContain('og:');
    expect(post).not.toContain('application/ld+json');
    expect(post).not.toContain('rel="license"');
    // Still the app's page: the post's answer is in it for the app.
    expect(post).toContain('id="page-data"');

    // A handle nobody here follows is no page at all.
    const nobody = await ctx.app.inject({
      method: 'GET',
      url: `/${word('x')}@${REMOTE_HOST}`,
      headers: { accept: 'text/html' },
    });
    expect(nobody.statusCode).toBe(404);
  });

  it('our /following lists the remote people an account follows by their actor ids, once their server accepted', async () => {
    const artist = await signUp(ctx.app);
    const friend = await signUp(ctx.app);
    const accepted = await shadowAccount(word('a'));
    const pending = await shadowAccount(word('b'));
    await ok('POST', `/api/users/follow/${friend.user._id}`, artist);
    await followShadow(artist, accepted);
    await followShadow(artist, pending, { pending: true });

    const collection = await ctx.app.inject({
      method: 'GET',
      url: `/ap/users/${artist.user._id}/following`,
      headers: { accept: AP },
    });
    expect(collection.statusCode).toBe(200);
    const json = collection.json();
    expect(json.totalItems).toBe(2);
    const first = typeof json.first === 'string' ? json.first : json.first.id;
    const page = await ctx.app.inject({
      method: 'GET',
      url: new URL(first).pathname + new URL(first).search,
      headers: { accept: AP },
    });
    const items = page.json().orderedItems as string[];
    expect(items).toEqual([accepted.iri, `${origin}/ap/users/${friend.user._id}`]);
  });

  it('the export names the remote people an account follows by handle and actor', async () => {
    const artist = await signUp(ctx.app);
    const shadow = await shadowAccount(word('e'));
    await followShadow(artist, shadow, { pending: true });
    const link = await ok('POST', '/api/account/export', artist);
    const zip = await ctx.app.inject({ method: 'GET', url: link.url });
    expect(zip.statusCode).toBe(200);
    const following = JSON.parse((await unzipEntry(zip.rawPayload, 'following.json')).toString('utf8'));
    expect(following).toEqual([
      {
        userId: shadow.id,
        username: shadow.username,
        remote: { handle: `@${shadow.username}`, actor: shadow.iri, pending: true },
        createdAt: expect.any(String),
      },
    ]);
  });

  it('deleting an account here deletes its follows of remote people and counts their followers down', async () => {
    const artist = await signUp(ctx.app);
    const shadow = await shadowAccount(word('d'));
    await followShadow(artist, shadow);
    const count = async () =>
      (await ok('GET', `/api/users/by-username/${encodeURIComponent(shadow.username)}`)).user.followerCount;
    expect(await count()).toBe(1);
    const deleted = await call('POST', '/api/account/delete', artist, { password: artist.password });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await count()).toBe(0);
    const rows = await queryRows(db(), sql`select from follows where followee_id = ${shadow.id}::uuid`);
    expect(rows).toEqual([]);
  });
});

describe('moderation of remote people and works', () => {
  async function moderator(): Promise<SignedUp> {
    const who = await signUp(ctx.app);
    await queryRows(db(), sql`update users set role = 'admin' where id = ${who.user._id}::uuid`);
    return who;
  }

  it('a remote work is reported, hidden and removed as ours are; suspending its author hides their works here', async () => {
    const follower = await signUp(ctx.app);
    const mod = await moderator();
    const shadow = await shadowAccount(word('m'));
    const [hidden, removed, kept] = [
      await remoteWork(shadow, 'To be hidden'),
      await remoteWork(shadow, 'To be removed'),
      await remoteWork(shadow, 'Kept until the suspension'),
    ];
    await followShadow(follower, shadow);

    const report = await call('POST', '/api/reports', follower, {
      targetType: 'post',
      targetId: hidden,
      reason: 'spam',
    });
    expect(report.statusCode, report.body).toBe(201);
    const act = (targetType: string, targetId: string, action: string) =>
      ok('POST', '/api/moderation/actions', mod, { targetType, targetId, action, reason: 'Against the rules here.' });
    expect((await act('post', hidden, 'hide')).resolvedReports).toBe(1);
    await act('post', removed, 'remove');
    for (const id of [hidden, removed]) expect((await call('GET', `/api/posts/${id}`, follower)).statusCode).toBe(404);
    expect(notes(await ok('GET', '/api/feed?limit=50', follower))).toEqual([kept]);

    // A person on another server is reported by their handle, and suspended like anyone.
    const reported = await call('POST', '/api/reports', follower, {
      targetType: 'user',
      targetId: shadow.username,
      reason: 'spam',
    });
    expect(reported.statusCode, reported.body).toBe(201);
    await act('user', shadow.username, 'suspend');
    expect((await call('GET', `/api/posts/${kept}`, follower)).statusCode).toBe(404);
    expect(notes(await ok('GET', '/api/feed?limit=50', follower))).toEqual([]);
    expect(notes(await ok('GET', `/api/posts/user/${encodeURIComponent(shadow.username)}`, follower))).toEqual([]);
  });

  it('a remote person is given no role', async () => {
    const admin = await moderator();
    const shadow = await shadowAccount(word('o'));
    const refused = await call('PUT', `/api/admin/users/${encodeURIComponent(shadow.username)}/role`, admin, {
      role: 'moderator',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([MODERATION_MESSAGES.remoteRole]);
    const [row] = await queryRows<{ role: string }>(db(), sql`select role from users where id = ${shadow.id}::uuid`);
    expect(row!.role).toBe('user');
  });
});

/** One entry of a zip, read whole. */
function unzipEntry(zip: Buffer, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      file.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return file.readEntry();
        file.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => resolve(Buffer.concat(chunks)));
          stream.on('error', reject);
        });
      });
      file.on('end', () => reject(new Error(`${name} is not in the zip`)));
      file.on('error', reject);
      file.readEntry();
    });
  });
}
