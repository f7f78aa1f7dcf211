import { Temporal } from '@js-temporal/polyfill';
import { Create, Document, Follow, Like, Note, PUBLIC_COLLECTION, type Activity } from '@fedify/vocab';
import { LOOKUP_ERRORS, type NotificationPage } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { createPost, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * A server's moderation levels below suspension (issue 39, docs/federation.md "Blocking a server"): `silence` (its
 * people notify only those here who follow them; their works, as every remote work, reach only their followers'
 * Home) and `reject_media` (its works are not taken in, no picture of it is fetched; follows and likes still come).
 * The fake remote server is on 127.0.0.1, so the blocks here name that address. And a report here sent to the reported
 * person's server (an outbound `Flag`).
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp());
}, 90_000);
afterAll(() => closeApp?.());
afterEach(() => level(null));

const db = () => ctx.database.db;
const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const sharedInbox = () => `${origin}/ap/inbox`;
const host = () => new URL(remote.origin).host;
let activities = 0;
const nextId = (kind: string) => new URL(`/${kind}/levels-${(activities += 1)}`, remote.origin);

/** The fake remote's server given this level here (or none). */
async function level(severity: 'silence' | 'reject_media' | null) {
  await queryRows(db(), sql`delete from server_blocks where domain = '127.0.0.1'`);
  if (severity) {
    await queryRows(
      db(),
      sql`insert into server_blocks (domain, severity, created_by_username) values ('127.0.0.1', ${severity}, 'test')`,
    );
  }
}

async function deliver(activity: Activity, as = 'bob') {
  const response = await remote.deliver(sharedInbox(), activity, as);
  expect(response.status, await response.text()).toBe(202);
}

/** Waits until no activity or remote work taken in waits or runs. */
async function drained() {
  await eventually(async () => {
    const counts = await ctx.app.jobs.counts();
    return counts
      .filter((count) => ['federation.inbox', 'federation.remote-work'].includes(count.kind))
      .every((count) => count.queued + count.running === 0);
  }, 'the inbox jobs to be done');
}

async function notificationKinds(who: SignedUp): Promise<string[]> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: auth(who) });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as NotificationPage).notifications.map((n) => `${n.kind} ${n.actors[0]?.username}`);
}

const likeOf = (postId: string, as = 'bob') =>
  new Like({ id: nextId('likes'), actor: new URL(remote.actor(as)), object: new URL(`${origin}/ap/posts/${postId}`) });

/** `who` follows the remote person `as` (looked up, then accepted by their server, as after their Accept). */
async function followRemote(who: SignedUp, as: string): Promise<string> {
  const found = await ctx.app.inject({
    method: 'GET',
    url: `/api/federation/lookup?q=${encodeURIComponent(`${as}@${host()}`)}`,
    headers: auth(who),
  });
  expect(found.statusCode, found.body).toBe(200);
  const [shadow] = await queryRows<{ id: string }>(
    db(),
    sql`select u.id from users u join remote_actors ra on ra.id = u.remote_actor_id where ra.iri = ${remote.actor(as)}`,
  );
  const followed = await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${shadow!.id}`, headers: auth(who) });
  expect(followed.statusCode, followed.body).toBeLessThan(300);
  await queryRows(
    db(),
    sql`update follows set pending = false where follower_id = ${who.user._id}::uuid and followee_id = ${shadow!.id}::uuid`,
  );
  return shadow!.id;
}

/** A public Note with one picture by the remote `as`, served at its id; answers it. */
async function workNote(as: string, name: string): Promise<Note> {
  const body = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 90, b: 200 } } })
    .png()
    .toBuffer();
  remote.files.set(`/files/${name}.png`, { type: 'image/png', body });
  const id = nextId(`users/${as}/statuses`);
  const note = new Note({
    id,
    attribution: new URL(remote.actor(as)),
    url: id,
    tos: [PUBLIC_COLLECTION],
    content: `<p>Painting ${name}</p>`,
    published: Temporal.Now.instant(),
    attachments: [new Document({ mediaType: 'image/png', url: new URL(`/files/${name}.png`, remote.origin), name })],
  });
  await remote.serve(id.pathname, note);
  return note;
}

const createOf = (note: Note, as: string) =>
  new Create({ id: nextId('creates'), actor: new URL(remote.actor(as)), object: note, tos: [PUBLIC_COLLECTION] });

const storedWork = async (note: Note) =>
  (await queryRows<{ id: string }>(db(), sql`select id from posts where note_iri = ${note.id!.href}`))[0]?.id;

const ids = (page: { posts?: { _id: string }[] }) => (page.posts ?? []).map((post) => post._id);

describe('a silenced server', { timeout: 120_000 }, () => {
  it('notifies only those here who follow its people; its follows and likes still count', async () => {
    const artist = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Seen from a silenced server');
    const otherWork = await createPost(ctx.app, other, 'Liked by someone they follow');
    await followRemote(other, 'carol');
    await level('silence');

    const follow = new Follow({
      id: nextId('follows'),
      actor: new URL(remote.actor('carol')),
      object: new URL(`${origin}/ap/users/${artist.user._id}`),
    });
    await deliver(follow, 'carol');
    await deliver(likeOf(work, 'carol'), 'carol');
    await deliver(likeOf(otherWork, 'carol'), 'carol');
    await drained();

    // Kept and counted, as from any server…
    const [counts] = await queryRows<{ remote_follower_count: number; remote_like_count: number }>(
      db(),
      sql`select u.remote_follower_count, p.remote_like_count from users u join posts p on p.author_id = u.id
          where p.id = ${work}::uuid`,
    );
    expect(counts).toEqual({ remote_follower_count: 1, remote_like_count: 1 });
    // …but the artist, who does not follow carol, is told nothing; `other`, who does, is told of the like.
    expect(await notificationKinds(artist)).toEqual([]);
    expect(await notificationKinds(other)).toEqual([`like carol@${host()}`]);

    // Once the server is no longer silenced, a like notifies the artist again.
    await level(null);
    const later = await createPost(ctx.app, artist, 'Liked once the silence is lifted');
    await deliver(likeOf(later, 'carol'), 'carol');
    await drained();
    expect(await notificationKinds(artist)).toEqual([`like carol@${host()}`]);
  });

  it("brings its people's works to their followers' Home only: not to Explore, a tag, search or anyone else's Home", async () => {
    const follower = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    await followRemote(follower, 'bob');
    await level('silence');
    const note = await workNote('bob', 'silenced-work');
    await deliver(createOf(note, 'bob'));
    const postId = await eventually(() => storedWork(note), 'the silenced work');

    const get = async (url: string, who?: SignedUp) => {
      const response = await ctx.app.inject({ method: 'GET', url, ...(who ? { headers: auth(who) } : {}) });
      expect(response.statusCode, `${url} ${response.body}`).toBe(200);
      return response.json();
    };
    expect(ids(await get('/api/feed?limit=50', follower))).toContain(postId);
    expect(ids(await get('/api/feed?limit=50', stranger))).not.toContain(postId);
    for (const who of [follower, stranger, undefined]) {
      for (const sort of ['latest', 'trending']) {
        expect(ids(await get(`/api/posts?sort=${sort}&limit=50`, who))).not.toContain(postId);
      }
      expect(ids(await get('/api/search?q=Painting&type=posts', who))).not.toContain(postId);
    }
  });
});

describe('a server whose pictures are rejected', { timeout: 120_000 }, () => {
  it('takes none of its works in and fetches none of its pictures; its people are still found and followed', async () => {
    const follower = await signUp(ctx.app);
    await level('reject_media');
    await followRemote(follower, 'dave');
    const note = await workNote('dave', 'rejected-work');
    const fetchedBefore = remote.fetched.length;
    await deliver(createOf(note, 'dave'), 'dave');
    await drained();
    expect(await storedWork(note)).toBeUndefined();
    expect(remote.fetched.slice(fetchedBefore).filter((path) => path.startsWith('/files/'))).toEqual([]);

    // Its work's address, looked up: a sentence saying why (403), nothing fetched but the Note.
    const lookedUp = await ctx.app.inject({
      method: 'GET',
      url: `/api/federation/lookup?q=${encodeURIComponent(note.id!.href)}`,
      headers: auth(follower),
    });
    expect(lookedUp.statusCode, lookedUp.body).toBe(403);
    expect(lookedUp.json().errors).toEqual([LOOKUP_ERRORS.mediaRejected.replace('{host}', host())]);
    expect(remote.fetched.filter((path) => path.startsWith('/files/rejected'))).toEqual([]);
    expect(await storedWork(note)).toBeUndefined();

    // The same work, once the level is lifted, comes in with its picture.
    await level(null);
    await deliver(createOf(note, 'dave'), 'dave');
    await eventually(() => storedWork(note), 'the work once its pictures are taken');
  });
});

describe('a report sent to the reported person’s server (Flag)', { timeout: 120_000 }, () => {
  const report = (who: SignedUp, payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: '/api/reports', headers: auth(who), payload });
  const flagsTo = (inbox: string) =>
    remote.received.filter((item) => item.json.type === 'Flag' && item.path === inbox).map((item) => item.json);

  it('sends an anonymous Flag from the instance actor naming the person and the work, with the reason and note', async () => {
    const reporter = await signUp(ctx.app);
    const bystander = await signUp(ctx.app);
    await followRemote(reporter, 'bob');
    const note = await workNote('bob', 'reported-work');
    await deliver(createOf(note, 'bob'));
    const postId = await eventually(() => storedWork(note), 'the remote work');

    const sent = await report(reporter, {
      targetType: 'post',
      targetId: postId,
      reason: 'stolen-art',
      note: 'Copied from my page',
      forward: true,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().report.forwardTo).toBe(host());
    const [flag] = await eventually(async () => {
      const found = flagsTo('/users/bob/inbox');
      return found.length > 0 && found;
    }, 'the Flag at bob’s inbox');
    expect(flag).toMatchObject({
      type: 'Flag',
      actor: `${origin}/ap/users/actor`,
      object: [remote.actor('bob'), note.id!.href],
      content: 'Stolen art: Copied from my page',
    });
    // Anonymous: nothing in it names the reporter.
    expect(JSON.stringify(flag)).not.toContain(reporter.user.username);
    const [row] = await queryRows<{ forward_to: string; sent: boolean }>(
      db(),
      sql`select forward_to, forwarded_at is not null as sent from reports where target_id = ${postId}::uuid`,
    );
    expect(row).toEqual({ forward_to: host(), sent: true });

    // Without `forward`, the report stays here; the person is reported by their handle, forwarded, with no Note.
    const kept = await report(bystander, { targetType: 'post', targetId: postId, reason: 'spam' });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json().report.forwardTo).toBeUndefined();
    const person = await report(bystander, {
      targetType: 'user',
      targetId: `bob@${host()}`,
      reason: 'harassment',
      forward: true,
    });
    expect(person.statusCode, person.body).toBe(201);
    await eventually(async () => flagsTo('/users/bob/inbox').length === 2, 'the second Flag');
    expect(flagsTo('/users/bob/inbox')[1]).toMatchObject({ object: remote.actor('bob'), content: 'Harassment' });
  });

  it('sends nothing for a report of something made here, even when asked', async () => {
    const artist = await signUp(ctx.app);
    const reporter = await signUp(ctx.app);
    const work = await createPost(ctx.app, artist, 'Ours');
    const flagsBefore = remote.received.filter((item) => item.json.type === 'Flag').length;
    const sent = await report(reporter, { targetType: 'post', targetId: work, reason: 'spam', forward: true });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().report.forwardTo).toBeUndefined();
    const [row] = await queryRows<{ forward_to: string | null }>(
      db(),
      sql`select forward_to from reports where target_id = ${work}::uuid`,
    );
    expect(row!.forward_to).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(remote.received.filter((item) => item.json.type === 'Flag').length).toBe(flagsBefore);
  });
});
