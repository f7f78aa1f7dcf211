import { Temporal } from '@js-temporal/polyfill';
import {
  Create,
  Delete,
  Document,
  Image,
  Note,
  OrderedCollection,
  OrderedCollectionPage,
  PUBLIC_COLLECTION,
  Tombstone,
  Update,
} from '@fedify/vocab';
import { LOOKUP_ERRORS, type Post } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endServerFollows } from '../../actions/federation.js';
import { queryRows } from '../../db/client.js';
import { createPost, signUp, storedFiles, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';
import { isPrivateAddress, RemoteRefused, safeFetch } from './federation.remote-fetch.js';
import { readLookup } from './federation.remote-people.js';

/**
 * Following out (issue 39): remote people and their works come in. A person is found by handle or address
 * (`GET /api/federation/lookup`) and kept as a shadow account; a followed person's public Note with pictures
 * (`Create`) becomes a post of that account with its pictures fetched and processed, changed by its `Update`,
 * removed with its files by its `Delete`, and everything of theirs goes with the actor's own `Delete`. The app runs
 * on a loopback port, the fake remote server (whose actors sign what they send, and which serves the Notes and
 * pictures) on another.
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;
let alice: SignedUp;

beforeAll(async () => {
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp());
  alice = await signUp(ctx.app);
}, 90_000);
afterAll(() => closeApp?.());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const host = () => new URL(remote.origin).host;
const sharedInbox = () => `${origin}/ap/inbox`;

const lookup = (q: string, who: SignedUp = alice) =>
  ctx.app.inject({ method: 'GET', url: `/api/federation/lookup?q=${encodeURIComponent(q)}`, headers: auth(who) });

/** A flat picture of `width` × `height` served by the remote at `/files/{name}.png`; answers its URL. */
async function picture(name: string, { width = 64, height = 48, r = 200 } = {}): Promise<string> {
  const body = await sharp({ create: { width, height, channels: 3, background: { r, g: 90, b: 40 } } })
    .png()
    .toBuffer();
  remote.files.set(`/files/${name}.png`, { type: 'image/png', body });
  return `${remote.origin}/files/${name}.png`;
}

let statuses = 0;

/**
 * A Note as Mastodon writes a status with pictures (its id under the actor's `statuses`, its page `url`, `to` the
 * Public, `cc` the followers, `Document` attachments with `name` as alt text), served by the remote at its id.
 */
async function workNote(
  values: {
    as?: string;
    attributedTo?: string;
    id?: string;
    html?: string;
    summary?: string;
    pictures?: { url: string; alt: string; type?: string }[];
    followersOnly?: boolean;
  } = {},
): Promise<Note> {
  const as = values.as ?? 'bob';
  statuses += 1;
  const id = values.id ?? `${remote.origin}/users/${as}/statuses/${statuses}`;
  const followers = new URL(`/users/${as}/followers`, remote.origin);
  const note = new Note({
    id: new URL(id),
    attribution: new URL(remote.actor(values.attributedTo ?? as)),
    url: new URL(`/@${as}/${statuses}`, remote.origin),
    tos: values.followersOnly ? [followers] : [PUBLIC_COLLECTION],
    ccs: values.followersOnly ? [] : [followers],
    summary: values.summary ?? null,
    sensitive: values.summary !== undefined,
    content:
      values.html ??
      `<p>New painting ${statuses} <a href="${remote.origin}/tags/art" class="mention hashtag">#<span>art</span></a></p>`,
    published: Temporal.Instant.from('2026-11-02T10:00:00Z'),
    attachments: (values.pictures ?? []).map(
      (p) => new Document({ mediaType: p.type ?? 'image/png', url: new URL(p.url), name: p.alt }),
    ),
  });
  if (new URL(id).origin === remote.origin) await remote.serve(new URL(id).pathname, note);
  return note;
}

const createOf = (note: Note, as = 'bob') =>
  new Create({
    id: new URL(`${note.id!.href}/activity`),
    actor: new URL(remote.actor(as)),
    object: note,
    tos: [PUBLIC_COLLECTION],
  });

async function send(activity: Create | Update | Delete, as = 'bob') {
  const response = await remote.deliver(sharedInbox(), activity, as);
  expect(response.status).toBe(202);
}

/** The post stored for a Note id, with its pictures' rows in order. */
async function storedWork(noteIri: string) {
  const [post] = await queryRows<{ id: string; author_id: string; content: string; content_warning: string | null }>(
    ctx.database.db,
    sql`select id, author_id, content, content_warning from posts where note_iri = ${noteIri}`,
  );
  if (!post) return undefined;
  const media = await queryRows<{ id: string; alt: string; remote_url: string; original_file: string }>(
    ctx.database.db,
    sql`select m.id, m.alt, m.remote_url, m.original_file from post_media pm join media m on m.id = pm.media_id
        where pm.post_id = ${post.id}::uuid order by pm.position`,
  );
  return { ...post, media };
}

/** Alice follows the remote person `as` (accepted), as H2's follow would once their server accepts. */
async function follow(as: string) {
  const [shadow] = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`select u.id from users u join remote_actors ra on ra.id = u.remote_actor_id where ra.iri = ${remote.actor(as)}`,
  );
  // The counts as a follow keeps them (the follow's own action is H2's).
  await queryRows(
    ctx.database.db,
    sql`with added as (
          insert into follows (follower_id, followee_id, pending) values (${alice.user._id}::uuid, ${shadow!.id}::uuid, false)
          on conflict do nothing returning follower_id, followee_id
        ),
        follower as (update users set following_count = following_count + 1 where id in (select follower_id from added))
        update users set follower_count = follower_count + 1 where id in (select followee_id from added)`,
  );
  return shadow!.id;
}

describe('finding a remote person (GET /api/federation/lookup)', () => {
  it('finds a person by handle and keeps them as a shadow account that can never sign in', async () => {
    remote.profiles.bob = { summary: '<p>I paint <b>birds</b>.</p>' };
    const response = await lookup(`@bob@${host()}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ kind: 'person', username: `bob@${host()}` });
    const [row] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select u.username, u.first_name, u.bio, u.link, u.email, u.password_hash, u.photo_url, ra.outbox, ra.username as preferred
          from users u join remote_actors ra on ra.id = u.remote_actor_id where ra.iri = ${remote.actor('bob')}`,
    );
    expect(row).toEqual({
      username: `bob@${host()}`,
      first_name: 'Bob Remote',
      bio: 'I paint birds.',
      link: `${remote.origin}/@bob`,
      email: '',
      password_hash: '',
      photo_url: null,
      outbox: `${remote.origin}/users/bob/outbox`,
      preferred: 'bob',
    });
    // The same handle again (without @, any case) is the same account, fetched again only after a day.
    const fetchedBefore = remote.fetched.length;
    const again = await lookup(`BOB@${host()}`);
    expect(again.json()).toEqual({ kind: 'person', username: `bob@${host()}` });
    expect(remote.fetched.length).toBe(fetchedBefore);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: `bob@${host()}`, password: '' },
    });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('finds a person by their profile address, and refreshes one fetched more than a day ago', async () => {
    const response = await lookup(`${remote.origin}/users/carol`);
    expect(response.json()).toEqual({ kind: 'person', username: `carol@${host()}` });
    remote.profiles.carol = { name: 'Carol Renamed' };
    await queryRows(
      ctx.database.db,
      sql`update remote_actors set fetched_at = now() - interval '2 days' where iri = ${remote.actor('carol')}`,
    );
    expect((await lookup(`carol@${host()}`)).statusCode).toBe(200);
    const [row] = await queryRows<{ first_name: string }>(
      ctx.database.db,
      sql`select first_name from users where username = ${`carol@${host()}`}`,
    );
    expect(row!.first_name).toBe('Carol Renamed');
  });

  it("finds a work by its address: a public Note with pictures becomes a post of its author's account", async () => {
    const note = await workNote({ as: 'carol', pictures: [{ url: await picture('looked-up'), alt: 'A heron' }] });
    const response = await lookup(note.id!.href);
    expect(response.statusCode, response.body).toBe(200);
    const { kind, postId } = response.json();
    expect(kind).toBe('work');
    const post = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}`, headers: auth(alice) })).json()
      .post as Post;
    expect(post.username).toBe(`carol@${host()}`);
    expect(post.origin).toEqual({ host: host(), url: note.url!.toString() });
    expect(post.media.map((m) => m.alt)).toEqual(['A heron']);
    // Its page address finds the same work, without fetching it again.
    expect((await lookup(note.id!.href)).json()).toEqual({ kind: 'work', postId });
  });

  it("reads a newly found person's newest public works with pictures from their outbox (at most two pages)", async () => {
    const withPictures = await workNote({ as: 'dave', pictures: [{ url: await picture('dave-1'), alt: 'One' }] });
    const wordsOnly = await workNote({ as: 'dave' });
    const followersOnly = await workNote({
      as: 'dave',
      followersOnly: true,
      pictures: [{ url: await picture('dave-2'), alt: 'Private' }],
    });
    const onPage2 = await workNote({ as: 'dave', pictures: [{ url: await picture('dave-3'), alt: 'Two' }] });
    const onPage3 = await workNote({ as: 'dave', pictures: [{ url: await picture('dave-4'), alt: 'Three' }] });
    const page = (n: number) => new URL(`/users/dave/outbox?page=${n}`, remote.origin);
    await remote.serve(
      '/users/dave/outbox',
      new OrderedCollection({ id: new URL('/users/dave/outbox', remote.origin), totalItems: 5, first: page(1) }),
    );
    const pages = [[withPictures, wordsOnly, followersOnly], [onPage2], [onPage3]];
    for (const [i, notes] of pages.entries()) {
      // The fake serves documents by path: each page under its own path, named by its id.
      remote.documents.set(
        page(i + 1).pathname + page(i + 1).search,
        await new OrderedCollectionPage({
          id: page(i + 1),
          items: notes!.map((note) => createOf(note, 'dave')),
          next: i + 1 < pages.length ? page(i + 2) : null,
        }).toJsonLd({ format: 'compact' }),
      );
    }
    expect((await lookup(`dave@${host()}`)).statusCode).toBe(200);
    await eventually(async () => (await storedWork(onPage2.id!.href)) !== undefined, 'the backfilled works');
    expect((await storedWork(withPictures.id!.href))!.media.map((m) => m.alt)).toEqual(['One']);
    expect(await storedWork(wordsOnly.id!.href)).toBeUndefined();
    expect(await storedWork(followersOnly.id!.href)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await storedWork(onPage3.id!.href)).toBeUndefined();
  });

  it('says why a post cannot be shown: no pictures, or not public', async () => {
    const words = await workNote({ as: 'carol' });
    expect((await lookup(words.id!.href)).json()).toEqual({ errors: [LOOKUP_ERRORS.notAWork] });
    const hidden = await workNote({
      as: 'carol',
      followersOnly: true,
      pictures: [{ url: await picture('h'), alt: '' }],
    });
    const response = await lookup(hidden.id!.href);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: [LOOKUP_ERRORS.notAWork] });
  });

  it('answers our own handles and addresses without fetching anything', async () => {
    const ours = new URL(origin).host;
    const fetchedBefore = remote.fetched.length;
    expect((await lookup(`@${alice.user.username}@${ours}`)).json()).toEqual({
      kind: 'person',
      username: alice.user.username,
    });
    const postId = await createPost(ctx.app, alice, 'mine');
    expect((await lookup(`${origin}/posts/${postId}`)).json()).toEqual({ kind: 'work', postId });
    expect((await lookup(`${origin}/${alice.user.username}`)).json()).toEqual({
      kind: 'person',
      username: alice.user.username,
    });
    expect(remote.fetched.length).toBe(fetchedBefore);
  });

  it('refuses what is not a handle or an address, says when nobody is there or the server does not answer', async () => {
    for (const q of ['bob', 'hello there', 'javascript:alert(1)', '@@x']) {
      const response = await lookup(q);
      expect(response.statusCode, q).toBe(400);
      expect(response.json()).toEqual({ errors: [LOOKUP_ERRORS.notAQuery] });
    }
    const nobody = await lookup(`@nobody@${host()}`);
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().errors[0]).toBe(`We found nobody at @nobody@${host()}. Check the handle or the address.`);
    const down = await lookup('bob@127.0.0.1:1');
    expect(down.statusCode).toBe(502);
    expect(down.json().errors[0]).toBe(LOOKUP_ERRORS.noServer.replace('{host}', '127.0.0.1:1'));
    const signedOut = await ctx.app.inject({ method: 'GET', url: `/api/federation/lookup?q=bob@${host()}` });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe("a followed person's works (Create, Update, Delete)", () => {
  let bobId: string;
  let noteWith3: Note;
  let noteNumber = 0;

  beforeAll(async () => {
    await lookup(`bob@${host()}`);
    bobId = await follow('bob');
  });

  it('takes a public Note with three pictures in as a post with its pictures and alt texts', async () => {
    noteWith3 = await workNote({
      summary: 'Blood',
      pictures: [
        { url: await picture('a', { r: 10 }), alt: 'First' },
        { url: await picture('b', { r: 90 }), alt: 'Second' },
        { url: await picture('c', { r: 160 }), alt: 'Third' },
      ],
    });
    await send(createOf(noteWith3));
    const work = await eventually(async () => storedWork(noteWith3.id!.href), 'the remote work');
    expect(work.author_id).toBe(bobId);
    noteNumber = statuses;
    expect(work.content).toBe(`New painting ${noteNumber} #art`);
    expect(work.content_warning).toBe('Blood');
    expect(work.media.map((m) => m.alt)).toEqual(['First', 'Second', 'Third']);
    expect(work.media.map((m) => m.remote_url)).toEqual(['a', 'b', 'c'].map((n) => `${remote.origin}/files/${n}.png`));
    const [post] = await queryRows<{ created_at: Date; tags: string[] }>(
      ctx.database.db,
      sql`select created_at, tags from posts where id = ${work.id}::uuid`,
    );
    expect(new Date(post!.created_at).toISOString()).toBe('2026-11-02T10:00:00.000Z');
    expect(post!.tags).toEqual(['art']);
    const [counts] = await queryRows<{ post_count: number }>(
      ctx.database.db,
      sql`select post_count from users where id = ${bobId}::uuid`,
    );
    expect(counts!.post_count).toBeGreaterThanOrEqual(1);
    // Sent again (a retry, another inbox): still one post.
    await send(createOf(noteWith3));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from posts where note_iri = ${noteWith3.id!.href}`,
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('keeps the pictures within the limits: one over 40 megapixels is refused, the others kept', async () => {
    const big = await picture('huge', { width: 8000, height: 5100 });
    const note = await workNote({
      pictures: [
        { url: big, alt: 'Too big' },
        { url: await picture('ok'), alt: 'Fine' },
      ],
    });
    await send(createOf(note));
    const work = await eventually(async () => storedWork(note.id!.href), 'the work without its huge picture');
    expect(work.media.map((m) => m.alt)).toEqual(['Fine']);
    // With no picture left, there is no work.
    const only = await workNote({ pictures: [{ url: big, alt: 'Too big' }] });
    const marker = await workNote({ pictures: [{ url: await picture('after-huge'), alt: 'Marker' }] });
    await send(createOf(only));
    await send(createOf(marker));
    await eventually(async () => storedWork(marker.id!.href), 'the marker work');
    expect(await storedWork(only.id!.href)).toBeUndefined();
  });

  it('ignores a Note from someone nobody here follows, and one in another actor\u2019s name', async () => {
    await lookup(`dave@${host()}`);
    const unfollowed = await workNote({ as: 'dave', pictures: [{ url: await picture('d'), alt: 'x' }] });
    await send(createOf(unfollowed, 'dave'), 'dave');
    // Bob's Note written as Carol's (attributedTo someone else), and one whose id is on another host.
    const forged = await workNote({ attributedTo: 'carol', pictures: [{ url: await picture('f'), alt: 'x' }] });
    await send(createOf(forged));
    const crossHost = await workNote({
      id: `http://elsewhere.example/users/bob/statuses/1`,
      pictures: [{ url: await picture('g'), alt: 'x' }],
    });
    await send(createOf(crossHost));
    const marker = await workNote({ pictures: [{ url: await picture('marker'), alt: 'Marker' }] });
    await send(createOf(marker));
    await eventually(async () => storedWork(marker.id!.href), 'the marker work');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await storedWork(unfollowed.id!.href)).toBeUndefined();
    expect(await storedWork(forged.id!.href)).toBeUndefined();
    expect(await storedWork(crossHost.id!.href)).toBeUndefined();
  });

  it("changes a work's words, warning and alt texts on its Update; only its own actor may", async () => {
    const changed = new Note({
      id: noteWith3.id,
      attribution: noteWith3.attributionId,
      url: noteWith3.url as URL,
      tos: [PUBLIC_COLLECTION],
      content: '<p>Retitled</p>',
      sensitive: false,
      attachments: ['a', 'b', 'c'].map(
        (n, i) =>
          new Image({ mediaType: 'image/png', url: new URL(`/files/${n}.png`, remote.origin), name: `Alt ${i + 1}` }),
      ),
    });
    // Carol cannot change Bob's work: her Update of it is ignored.
    const hijacked = changed.clone({ content: '<p>Hijacked</p>' });
    await send(
      new Update({
        id: new URL(`${remote.actor('carol')}#u1`),
        actor: new URL(remote.actor('carol')),
        object: hijacked,
      }),
      'carol',
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await storedWork(noteWith3.id!.href))!.content).toBe(`New painting ${noteNumber} #art`);
    await send(
      new Update({ id: new URL(`${remote.actor('bob')}#u1`), actor: new URL(remote.actor('bob')), object: changed }),
    );
    const work = await eventually(async () => {
      const found = await storedWork(noteWith3.id!.href);
      return found?.content === 'Retitled' ? found : undefined;
    }, 'the update');
    expect(work.content_warning).toBeNull();
    expect(work.media.map((m) => m.alt)).toEqual(['Alt 1', 'Alt 2', 'Alt 3']);
  });

  it('removes a work and its picture files on its Delete', async () => {
    const work = (await storedWork(noteWith3.id!.href))!;
    const files = work.media.map((m) => m.original_file);
    expect(await storedFiles(ctx)).toEqual(expect.arrayContaining(files));
    // Not by another actor.
    await send(
      new Delete({
        id: new URL(`${remote.actor('carol')}#d1`),
        actor: new URL(remote.actor('carol')),
        object: new Tombstone({ id: noteWith3.id }),
      }),
      'carol',
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await storedWork(noteWith3.id!.href)).toBeDefined();
    await send(
      new Delete({
        id: new URL(`${remote.actor('bob')}#d1`),
        actor: new URL(remote.actor('bob')),
        object: new Tombstone({ id: noteWith3.id }),
      }),
    );
    await eventually(async () => (await storedWork(noteWith3.id!.href)) === undefined, 'the deletion');
    await eventually(async () => {
      const left = await storedFiles(ctx);
      return files.every((file) => !left.includes(file));
    }, 'the files removed');
  });

  it("removes the person's shadow account, works and picture files when their actor is deleted", async () => {
    const last = await workNote({ pictures: [{ url: await picture('last'), alt: 'Last' }] });
    await send(createOf(last));
    const work = await eventually(async () => storedWork(last.id!.href), 'the last work');
    const [before] = await queryRows<{ following_count: number }>(
      ctx.database.db,
      sql`select following_count from users where id = ${alice.user._id}::uuid`,
    );
    const files = await queryRows<{ original_file: string }>(
      ctx.database.db,
      sql`select original_file from media where owner_id = ${bobId}::uuid`,
    );
    expect(files.length).toBeGreaterThan(0);
    await send(
      new Delete({
        id: new URL(`${remote.actor('bob')}#delete`),
        actor: new URL(remote.actor('bob')),
        object: new URL(remote.actor('bob')),
      }),
    );
    await eventually(async () => {
      const rows = await queryRows(ctx.database.db, sql`select from users where id = ${bobId}::uuid`);
      return rows.length === 0;
    }, 'the shadow account removed');
    expect(await storedWork(last.id!.href)).toBeUndefined();
    expect(work.id).toBeTruthy();
    // The files go once the rows' transaction committed.
    await eventually(async () => {
      const left = await storedFiles(ctx);
      return files.every((file) => !left.includes(file.original_file));
    }, 'the files removed');
    const [after] = await queryRows<{ following_count: number }>(
      ctx.database.db,
      sql`select following_count from users where id = ${alice.user._id}::uuid`,
    );
    // The follow went with the account, and alice's count with it.
    expect(after!.following_count).toBe(before!.following_count - 1);
  });
});

describe('a suspended server', () => {
  it('is refused by the lookup before anything is fetched', async () => {
    await queryRows(
      ctx.database.db,
      sql`insert into server_blocks (domain, severity, created_by_username) values ('blocked.example', 'suspend', 'test')`,
    );
    const fetchedBefore = remote.fetched.length;
    for (const q of ['@bob@blocked.example', 'https://sub.blocked.example/@bob']) {
      const response = await lookup(q);
      expect(response.statusCode, q).toBe(403);
      expect(response.json().errors[0]).toMatch(/^This server does not exchange with (sub\.)?blocked\.example\.$/);
    }
    expect(remote.fetched.length).toBe(fetchedBefore);
  });

  it("takes its people's shadow accounts and works away when it is suspended", async () => {
    const shadows = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select u.id from users u join remote_actors ra on ra.id = u.remote_actor_id where ra.iri like ${`${remote.origin}/%`}`,
    );
    expect(shadows.length).toBeGreaterThan(0);
    await ctx.database.db.transaction((tx) => endServerFollows(tx, '127.0.0.1'));
    const left = await queryRows(
      ctx.database.db,
      sql`select from users u join remote_actors ra on ra.id = u.remote_actor_id where ra.iri like ${`${remote.origin}/%`}`,
    );
    expect(left).toEqual([]);
    const works = await queryRows(ctx.database.db, sql`select from posts where note_iri like ${`${remote.origin}/%`}`);
    expect(works).toEqual([]);
  });
});

describe('what following out fetches', () => {
  it('never reaches a private, loopback or link-local address outside tests', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
      '0.0.0.0',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '2606:4700::1111']) expect(isPrivateAddress(address), address).toBe(false);
    const rules = { allowPrivateAddress: false, accept: 'image/*', maxBytes: 1000, timeoutMs: 2000 };
    await expect(safeFetch(new URL(`${remote.origin}/files/a.png`), rules)).rejects.toThrow(RemoteRefused);
    await expect(safeFetch(new URL('https://127.0.0.1/x'), rules)).rejects.toThrow(/not a public address/);
    await expect(safeFetch(new URL('https://localhost/x'), rules)).rejects.toThrow(RemoteRefused);
  });

  it('reads at most the size limit of an answer', async () => {
    remote.files.set('/files/big.bin', { type: 'image/png', body: Buffer.alloc(5000) });
    const rules = { allowPrivateAddress: true, accept: 'image/*', maxBytes: 1000, timeoutMs: 2000 };
    await expect(safeFetch(new URL(`${remote.origin}/files/big.bin`), rules)).rejects.toThrow(/larger than/);
  });

  it('reads handles and addresses, and nothing else', () => {
    expect(readLookup('@Bob@Pixelfed.Example', false)).toEqual({
      kind: 'handle',
      user: 'Bob',
      host: 'pixelfed.example',
    });
    expect(readLookup('acct:bob@bücher.example', false)).toEqual({
      kind: 'handle',
      user: 'bob',
      host: 'xn--bcher-kva.example',
    });
    expect(readLookup('https://mastodon.example/@bob/1', false)).toMatchObject({ kind: 'url' });
    for (const text of [
      'http://mastodon.example/@bob',
      'https://u:p@host.example/',
      'bob',
      'bob@host',
      'a b@host.example',
    ]) {
      expect(readLookup(text, false), text).toBeUndefined();
    }
  });
});
