import { Follow, Move, type Activity } from '@fedify/vocab';
import type { FollowerPage } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * An inbound `Move` (Mastodon's account migration, issue 39), between the app on a loopback port and the fake remote
 * server of src/test/fake-remote.ts: verified as Mastodon's `activity/move.rb` does (the Move's actor is the old
 * account and its object; the target, fetched afresh, names the old account in its `alsoKnownAs`), the old account's
 * follows of our artists become the new account's, the counts exact, and the artists' blocks carried over.
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
const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(ctx.database.db, query);

let activities = 0;
const activityId = (kind: string) => new URL(`/${kind}/move-${(activities += 1)}`, remote.origin);

async function deliver(activity: Activity, as: string) {
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

const follow = (who: SignedUp, as: string) =>
  deliver(
    new Follow({ id: activityId('follows'), actor: new URL(remote.actor(as)), object: new URL(actorOf(who)) }),
    as,
  );

const moveOf = (as: string, object: string, target: string) =>
  new Move({
    id: activityId('moves'),
    actor: new URL(remote.actor(as)),
    object: new URL(remote.actor(object)),
    target: new URL(remote.actor(target)),
  });

/** Who follows the artist from elsewhere (the actors' names on the remote), and the count the site shows. */
async function followersOf(who: SignedUp) {
  const [row] = await rows<{ actors: string[] | null; count: number }>(
    sql`select (select json_agg(substring(ra.iri from '/users/(.*)$') order by ra.iri) from remote_follows rf
           join remote_actors ra on ra.id = rf.remote_actor_id where rf.user_id = u.id) as actors,
          u.remote_follower_count as count
        from users u where u.id = ${who.user._id}::uuid`,
  );
  return { actors: row!.actors ?? [], count: row!.count };
}

describe('a Move of an account that follows our artists', { timeout: 120_000 }, () => {
  it("moves the old account's follows to the new one once the new one names the old, counts exact", async () => {
    const [a, b, c] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    await follow(a, 'bob');
    await follow(b, 'bob');
    await follow(b, 'dave');
    await follow(c, 'bob');
    await eventually(
      async () => (await followersOf(c)).count === 1 && (await followersOf(b)).count === 2,
      'the follows',
    );
    // c blocks bob (which ends bob's follow of c).
    const listed = await ctx.app.inject({ method: 'GET', url: `/api/users/${c.user._id}/followers`, headers: auth(c) });
    const bobId = (listed.json() as FollowerPage).followers[0]!._id;
    const blocked = await ctx.app.inject({
      method: 'POST',
      url: `/api/remote-people/${bobId}/block`,
      headers: auth(c),
    });
    expect(blocked.statusCode, blocked.body).toBe(200);

    // dave does not name bob among its aliases yet: the Move does nothing.
    await deliver(moveOf('bob', 'bob', 'dave'), 'bob');
    await inboxDrained();
    expect(await followersOf(a)).toEqual({ actors: ['bob'], count: 1 });

    // Now it does (read afresh, not from a cache of the first fetch): bob's follows become dave's.
    remote.aliases.dave = [remote.actor('bob')];
    await deliver(moveOf('bob', 'bob', 'dave'), 'bob');
    await eventually(async () => (await followersOf(a)).actors[0] === 'dave', "a's follow moved to dave");
    expect(await followersOf(a)).toEqual({ actors: ['dave'], count: 1 });
    // b was followed from both: one follow, dave's, and one follower counted.
    expect(await followersOf(b)).toEqual({ actors: ['dave'], count: 1 });
    // c blocked bob: c blocks dave too, and no follow came.
    expect(await followersOf(c)).toEqual({ actors: [], count: 0 });
    expect(
      await rows(
        sql`select from remote_person_blocks rb join remote_actors ra on ra.id = rb.remote_actor_id
            where rb.user_id = ${c.user._id}::uuid and ra.iri = ${remote.actor('dave')}`,
      ),
    ).toHaveLength(1);

    // dave's own Follow later counts once.
    await follow(a, 'dave');
    await inboxDrained();
    expect(await followersOf(a)).toEqual({ actors: ['dave'], count: 1 });
    // Every account's count is its rows.
    expect(
      await rows(sql`select from users where remote_follower_count <> (
        select count(*) from remote_follows rf where rf.user_id = users.id)`),
    ).toHaveLength(0);
  });

  it("does nothing for a Move of another account than its actor's, or to the same account", async () => {
    const artist = await signUp(ctx.app);
    await follow(artist, 'carol');
    await eventually(async () => (await followersOf(artist)).count === 1, "carol's follow");
    remote.aliases.dave = [remote.actor('bob'), remote.actor('carol')];
    // bob cannot move carol's follows (its own signature, carol as the object).
    await deliver(moveOf('bob', 'carol', 'dave'), 'bob');
    await deliver(moveOf('carol', 'carol', 'carol'), 'carol');
    await inboxDrained();
    expect(await followersOf(artist)).toEqual({ actors: ['carol'], count: 1 });
  });
});
