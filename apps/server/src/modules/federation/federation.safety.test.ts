import { Block, Flag, Follow, Undo } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { createPost, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';
import { isSuspendedServer, withoutRefused } from './federation.safety.js';

/**
 * Safety across servers (issue 39, docs/federation.md "Blocking a server"), between two real servers on loopback: the
 * app on one port and the fake remote server of src/test/fake-remote.ts on another (both on 127.0.0.1, so a block of
 * `127.0.0.1` is a block of the remote; each test that sets one lifts it). A suspended server's inbox POSTs are
 * refused before its key is fetched and its follows end; a `Flag` becomes a report naming its server; a `Block`
 * ends the follow and stops the deliveries to that actor until its `Undo`.
 */

let ctx: TestContext;
let origin: string;
let remote: Remote;
let closeApp: (() => Promise<void>) | undefined;
let moderator: SignedUp;

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const actorOf = (who: SignedUp) => `${origin}/ap/users/${who.user._id}`;
const REMOTE_HOST = '127.0.0.1';

beforeAll(async () => {
  ({ ctx, origin, remote, close: closeApp } = await startFederatedApp());
  moderator = await signUp(ctx.app);
  await queryRows(ctx.database.db, sql`update users set role = 'moderator' where id = ${moderator.user._id}::uuid`);
}, 90_000);
afterAll(() => closeApp?.());

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(ctx.database.db, query);

async function blockServer(domain: string, severity: 'suspend' | 'silence' | 'reject_media', by = moderator) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/moderation/servers',
    payload: { domain, severity, reason: 'Spam waves' },
    headers: auth(by),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { block: { _id: string; domain: string; severity: string }; endedFollows: number };
}

async function unblockServer(id: string) {
  const response = await ctx.app.inject({
    method: 'DELETE',
    url: `/api/moderation/servers/${id}`,
    headers: auth(moderator),
  });
  expect(response.statusCode, response.body).toBe(200);
}

let activities = 0;
const activityId = (kind: string) => new URL(`/${kind}/safety-${(activities += 1)}`, remote.origin);

const followOf = (who: SignedUp, as: string) =>
  new Follow({ id: activityId('follows'), actor: new URL(remote.actor(as)), object: new URL(actorOf(who)) });

const remoteFollows = (who: SignedUp) =>
  rows<{ iri: string }>(
    sql`select ra.iri from remote_follows rf join remote_actors ra on ra.id = rf.remote_actor_id
        where rf.user_id = ${who.user._id}::uuid`,
  );

const remoteCount = async (who: SignedUp) =>
  (await rows<{ n: number }>(sql`select remote_follower_count as n from users where id = ${who.user._id}::uuid`))[0]!.n;

/** Follows `who` from `as` and waits until the follow is kept. */
async function follow(who: SignedUp, as: string) {
  const response = await remote.deliver(`${actorOf(who)}/inbox`, followOf(who, as), as);
  expect(response.status, await response.text()).toBe(202);
  await eventually(
    async () => (await remoteFollows(who)).some((row) => row.iri === remote.actor(as)),
    `${as}'s follow`,
  );
}

describe('safety across servers', { timeout: 120_000 }, () => {
  it("refuses a suspended server's signed Follow with 403 before fetching its key, and keeps no row", async () => {
    const artist = await signUp(ctx.app);
    const { block } = await blockServer(REMOTE_HOST, 'suspend');
    try {
      const before = remote.fetched.filter((path) => path.startsWith('/users/carol')).length;
      const response = await remote.deliver(`${actorOf(artist)}/inbox`, followOf(artist, 'carol'), 'carol');
      expect(response.status).toBe(403);
      // The shared inbox too.
      const shared = await remote.deliver(`${origin}/ap/inbox`, followOf(artist, 'carol'), 'carol');
      expect(shared.status).toBe(403);
      // Its key was never asked for (Fedify fetches the actor's document for it), and nothing was kept.
      expect(remote.fetched.filter((path) => path.startsWith('/users/carol')).length).toBe(before);
      expect(await remoteFollows(artist)).toEqual([]);
      expect(await rows(sql`select from remote_actors where iri = ${remote.actor('carol')}`)).toHaveLength(0);
    } finally {
      await unblockServer(block._id);
    }
    // Lifted: the same server's Follow is taken (its key fetched now).
    await follow(artist, 'carol');
    expect(remote.fetched.some((path) => path.startsWith('/users/carol'))).toBe(true);
  });

  it("ends a server's follows when it is suspended (counts exact), sends nothing to it, and audits each change", async () => {
    const artist = await signUp(ctx.app);
    await follow(artist, 'bob');
    expect(await remoteCount(artist)).toBe(1);

    // Silenced: kept and shown, the follow stays.
    const { block, endedFollows } = await blockServer(REMOTE_HOST, 'silence');
    expect(endedFollows).toBe(0);
    expect(await remoteCount(artist)).toBe(1);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/moderation/servers', headers: auth(moderator) });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().blocks).toContainEqual(
      expect.objectContaining({ domain: REMOTE_HOST, severity: 'silence', createdBy: moderator.user.username }),
    );

    try {
      // Suspended: the follows of its actors end, the counts with them.
      const changed = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/moderation/servers/${block._id}`,
        payload: { severity: 'suspend' },
        headers: auth(moderator),
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().endedFollows).toBeGreaterThanOrEqual(1);
      expect(await remoteFollows(artist)).toEqual([]);
      expect(await remoteCount(artist)).toBe(0);
      expect(
        await rows(sql`select from users where remote_follower_count <> (
        select count(*) from remote_follows rf where rf.user_id = users.id)`),
      ).toHaveLength(0);

      // Nothing is delivered to it, whoever follows from there (a follow kept by a race, say).
      const bob = { id: new URL(remote.actor('bob')), inboxId: new URL(`${remote.origin}/users/bob/inbox`) };
      expect(await withoutRefused(ctx.database.db, [artist.user._id], [bob])).toEqual([]);
    } finally {
      await unblockServer(block._id);
    }

    // Each change is in the audit log (admins read it).
    const admin = await signUp(ctx.app);
    await queryRows(ctx.database.db, sql`update users set role = 'admin' where id = ${admin.user._id}::uuid`);
    const audit = await ctx.app.inject({ method: 'GET', url: '/api/moderation/audit', headers: auth(admin) });
    const entries = (audit.json().entries as { action: string; targetId: string; reason: string }[]).filter(
      (entry) => entry.targetId === block._id,
    );
    expect(entries.map((entry) => entry.action)).toEqual(['server-unblock', 'server-change', 'server-block']);
    expect(entries[1]!.reason).toContain(`${REMOTE_HOST} (suspend)`);
  });

  it('takes a domain as Mastodon does: lower case, IDN as punycode, subdomains covered; refuses anything else', async () => {
    const added = await blockServer('  Bücher.EXAMPLE. ', 'reject_media');
    expect(added.block.domain).toBe('xn--bcher-kva.example');
    const spam = await blockServer('spam.example', 'suspend');
    expect(await isSuspendedServer(ctx.database.db, ['a.b.spam.example'])).toBe(true);
    expect(await isSuspendedServer(ctx.database.db, ['notspam.example', 'spam.example.org'])).toBe(false);
    // reject_media is no suspension.
    expect(await isSuspendedServer(ctx.database.db, ['xn--bcher-kva.example'])).toBe(false);

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/moderation/servers',
      payload: { domain: 'SPAM.example', severity: 'silence' },
      headers: auth(moderator),
    });
    expect(again.statusCode).toBe(409);
    for (const domain of [
      'https://spam.example',
      'spam.example/path',
      'bob@spam.example',
      'localhost',
      'a b.example',
    ]) {
      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/moderation/servers',
        payload: { domain, severity: 'suspend' },
        headers: auth(moderator),
      });
      expect(bad.statusCode, domain).toBe(400);
    }
    await unblockServer(added.block._id);
    await unblockServer(spam.block._id);
    const gone = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/moderation/servers/${spam.block._id}`,
      headers: auth(moderator),
    });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses the server routes to anyone but moderators and admins', async () => {
    const user = await signUp(ctx.app);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url, payload] of [
      ['GET', '/api/moderation/servers', undefined],
      ['POST', '/api/moderation/servers', { domain: 'x.example', severity: 'suspend' }],
      ['PATCH', `/api/moderation/servers/${id}`, { severity: 'silence' }],
      ['DELETE', `/api/moderation/servers/${id}`, undefined],
    ] as const) {
      const response = await ctx.app.inject({ method, url, ...(payload ? { payload } : {}), headers: auth(user) });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      const none = await ctx.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(none.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await rows(sql`select from server_blocks where domain = 'x.example'`)).toHaveLength(0);
  });

  it("makes a remote server's Flag a report in the moderation queue, naming the server, once per target", async () => {
    const artist = await signUp(ctx.app);
    const postId = await createPost(ctx.app, artist, 'A fox in the snow');
    const flag = (objects: URL[]) =>
      new Flag({
        id: activityId('flags'),
        actor: new URL(remote.actor('bob')),
        objects,
        content: '<p>Copied from <b>someone</b> else</p>\u202e',
      });
    const objects = [new URL(actorOf(artist)), new URL(`${origin}/ap/posts/${postId}`)];
    const sent = await remote.deliver(`${origin}/ap/inbox`, flag(objects), 'bob');
    expect(sent.status, await sent.text()).toBe(202);

    const queueOf = async () => {
      const queue = await ctx.app.inject({ method: 'GET', url: '/api/moderation/reports', headers: auth(moderator) });
      expect(queue.statusCode, queue.body).toBe(200);
      return (queue.json().targets as { targetId: string; reports: Record<string, unknown>[] }[]).filter(
        (target) => target.targetId === postId || target.targetId === artist.user._id,
      );
    };
    const targets = await eventually(async () => {
      const found = await queueOf();
      return found.length === 2 ? found : undefined;
    }, 'the reports in the queue');
    for (const target of targets) {
      expect(target.reports).toEqual([
        expect.objectContaining({
          server: REMOTE_HOST,
          reporter: null,
          reason: 'other',
          note: 'Copied from someone else',
        }),
      ]);
    }

    // The same server again, and a Flag of things that are not there: one open report per server and target.
    const again = await remote.deliver(`${origin}/ap/inbox`, flag(objects), 'bob');
    expect(again.status).toBe(202);
    const unknown = await remote.deliver(
      `${origin}/ap/inbox`,
      flag([new URL(`${origin}/ap/posts/00000000-0000-4000-8000-000000000000`), new URL(`${remote.origin}/x`)]),
      'bob',
    );
    expect(unknown.status).toBe(202);
    // Both taken in once the queue is idle: a third Flag, of a new post, is the marker.
    const marker = await createPost(ctx.app, artist, 'Marker');
    await remote.deliver(`${origin}/ap/inbox`, flag([new URL(`${origin}/ap/posts/${marker}`)]), 'bob');
    await eventually(
      async () => (await rows(sql`select from reports where target_id = ${marker}::uuid`)).length === 1,
      'the marker report',
    );
    const counted = await rows<{ n: number }>(
      sql`select count(*)::int as n from reports where origin_domain = ${REMOTE_HOST}
          and target_id in (${postId}::uuid, ${artist.user._id}::uuid, '00000000-0000-4000-8000-000000000000'::uuid)`,
    );
    expect(counted[0]!.n).toBe(2);

    // A moderator's action resolves it as any report (nobody here to tell).
    const acted = await ctx.app.inject({
      method: 'POST',
      url: '/api/moderation/actions',
      payload: { targetType: 'post', targetId: postId, action: 'dismiss', reason: 'Not copied' },
      headers: auth(moderator),
    });
    expect(acted.statusCode, acted.body).toBe(200);
    expect(acted.json().resolvedReports).toBe(1);
  });

  it("ends a blocking actor's follow, delivers nothing of the artist to it, and its Undo lifts that", async () => {
    const artist = await signUp(ctx.app);
    await follow(artist, 'bob');
    await follow(artist, 'carol');
    const blockOf = new Block({
      id: activityId('blocks'),
      actor: new URL(remote.actor('carol')),
      object: new URL(actorOf(artist)),
    });
    const blocked = await remote.deliver(`${actorOf(artist)}/inbox`, blockOf, 'carol');
    expect(blocked.status, await blocked.text()).toBe(202);
    await eventually(
      async () => !(await remoteFollows(artist)).some((row) => row.iri === remote.actor('carol')),
      "carol's follow ended",
    );
    expect(await remoteCount(artist)).toBe(1);

    // Even were she to follow again while blocking, nothing of the artist reaches her inbox; bob still gets it.
    await follow(artist, 'carol');
    const first = await createPost(ctx.app, artist, 'For bob only');
    const noteOf = (postId: string) => `${origin}/ap/posts/${postId}`;
    const createdAt = (postId: string, path: string) =>
      remote.received.find(
        (item) =>
          item.path === path &&
          item.json.type === 'Create' &&
          (typeof item.json.object === 'string' ? item.json.object : item.json.object.id) === noteOf(postId),
      );
    await eventually(async () => createdAt(first, '/inbox'), "bob's Create");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(createdAt(first, '/users/carol/inbox')).toBeUndefined();

    // Her Undo of the Block: she gets the next work.
    const undo = new Undo({ id: activityId('undos'), actor: new URL(remote.actor('carol')), object: blockOf });
    const undone = await remote.deliver(`${actorOf(artist)}/inbox`, undo, 'carol');
    expect(undone.status, await undone.text()).toBe(202);
    await eventually(
      async () => (await rows(sql`select from remote_blocks where user_id = ${artist.user._id}::uuid`)).length === 0,
      'the block lifted',
    );
    const second = await createPost(ctx.app, artist, 'For both');
    await eventually(async () => createdAt(second, '/users/carol/inbox'), "carol's Create");
  });

  it("reads a server in Mastodon's secure mode: its actor and key fetched signed by our instance actor", async () => {
    // Our instance actor: an Application with its key, at an id no account can have.
    const instance = await fetch(`${origin}/ap/users/actor`, { headers: { accept: 'application/activity+json' } });
    expect(instance.status).toBe(200);
    const json = (await instance.json()) as {
      id: string;
      type: string;
      publicKey: { id: string; publicKeyPem: string };
    };
    expect(json).toMatchObject({ id: `${origin}/ap/users/actor`, type: 'Application' });
    expect(json.publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');

    const artist = await signUp(ctx.app);
    remote.secure.on = true;
    try {
      // The fake remote now refuses an unsigned GET of its actors, as a server in secure mode does.
      const unsigned = await fetch(remote.actor('dave'), { headers: { accept: 'application/activity+json' } });
      expect(unsigned.status).toBe(401);
      // dave's Follow at the shared inbox: its key and actor are fetched signed by the instance actor, and it counts.
      const shared = await remote.deliver(`${origin}/ap/inbox`, followOf(artist, 'dave'), 'dave');
      expect(shared.status, await shared.text()).toBe(202);
      await eventually(async () => (await remoteCount(artist)) === 1, "dave's follow");
      expect(remote.secure.signers).toContain(json.publicKey.id);
      // At the artist's own inbox, Fedify signs with the artist's key.
      const other = await signUp(ctx.app);
      const response = await remote.deliver(`${actorOf(other)}/inbox`, followOf(other, 'odd'), 'odd');
      expect(response.status, await response.text()).toBe(202);
      await eventually(async () => (await remoteCount(other)) === 1, "odd's follow");
      expect(remote.secure.signers.some((key) => key.startsWith(actorOf(other)))).toBe(true);
    } finally {
      remote.secure.on = false;
    }
  });
});

describe('the rate per server of the inboxes', { timeout: 120_000 }, () => {
  let limited: Awaited<ReturnType<typeof startFederatedApp>>;
  beforeAll(async () => {
    limited = await startFederatedApp({ rateLimits: true, federationInboxRate: 3 });
  }, 90_000);
  afterAll(() => limited?.close());

  it('answers 429 with Retry-After past the allowance, before any key is fetched, and keeps nothing', async () => {
    const artist = await signUp(limited.ctx.app);
    const inbox = `${limited.origin}/ap/users/${artist.user._id}/inbox`;
    const followBy = (as: string) =>
      new Follow({
        id: new URL(`/follows/rate-${(activities += 1)}`, limited.remote.origin),
        actor: new URL(limited.remote.actor(as)),
        object: new URL(`${limited.origin}/ap/users/${artist.user._id}`),
      });
    for (const as of ['bob', 'carol', 'bob']) {
      const response = await limited.remote.deliver(inbox, followBy(as), as);
      expect(response.status, await response.text()).toBe(202);
    }
    // The fourth POST from that server (its actor's and its key's host): refused before odd's key is asked for.
    const refused = await limited.remote.deliver(inbox, followBy('odd'), 'odd');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limited.remote.fetched.some((path) => path.startsWith('/users/odd'))).toBe(false);
    await eventually(
      async () =>
        (
          await queryRows(
            limited.ctx.database.db,
            sql`select from remote_follows where user_id = ${artist.user._id}::uuid`,
          )
        ).length === 2,
      "bob's and carol's follows",
    );
    expect(
      await queryRows(
        limited.ctx.database.db,
        sql`select from remote_actors where iri = ${limited.remote.actor('odd')}`,
      ),
    ).toHaveLength(0);
  });
});
