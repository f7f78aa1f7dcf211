import { Move, type Activity } from '@fedify/vocab';
import type { AccountAliasesResponse } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { AP, eventually, startFederatedApp, type Remote } from '../../test/fake-remote.js';

/**
 * Moving accounts (issue 40, docs/federation.md "Moving an account"), between the app on a loopback port and the fake
 * remote server of src/test/fake-remote.ts (which verifies every signature of what it is sent): an artist names their
 * old account (`PUT /api/federation/aliases`) and their actor says so (`alsoKnownAs`); a verified `Move` of someone
 * our accounts follow carries those follows to the new account, on another server (a new Follow, the old one undone)
 * or here (an account that names the old one), with blocks and mutes, and not twice within 7 days.
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
const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(ctx.database.db, query);
const remoteHost = () => new URL(remote.origin).host;

let moves = 0;
async function deliverMove(as: string, target: string) {
  const move = new Move({
    id: new URL(`/moves/${(moves += 1)}`, remote.origin),
    actor: new URL(remote.actor(as)),
    object: new URL(remote.actor(as)),
    target: new URL(target),
  });
  const response = await remote.deliver(`${origin}/ap/inbox`, move as Activity, as);
  expect(response.status, await response.text()).toBe(202);
}

/** Waits until no activity taken in waits or runs. */
async function inboxDrained() {
  await eventually(async () => {
    const counts = await ctx.app.jobs.counts();
    const inbox = counts.find((count) => count.kind === 'federation.inbox');
    return !inbox || inbox.queued + inbox.running === 0;
  }, 'the inbox jobs to be done');
}

/** `who` looks `name` of the fake server up and follows them, accepted (as their server would). */
async function followRemote(who: SignedUp, name: string): Promise<string> {
  const found = await ctx.app.inject({
    method: 'GET',
    url: `/api/federation/lookup?q=${encodeURIComponent(`@${name}@${remoteHost()}`)}`,
    headers: auth(who),
  });
  expect(found.statusCode, found.body).toBe(200);
  const [shadow] = await rows<{ id: string }>(
    sql`select id from users where lower(username) = lower(${(found.json() as { username: string }).username})`,
  );
  const followed = await ctx.app.inject({ method: 'POST', url: `/api/users/follow/${shadow!.id}`, headers: auth(who) });
  expect(followed.statusCode, followed.body).toBe(200);
  await rows(
    sql`update follows set pending = false where follower_id = ${who.user._id}::uuid and followee_id = ${shadow!.id}::uuid`,
  );
  return shadow!.id;
}

const followsOf = (who: SignedUp) =>
  rows<{ username: string; pending: boolean; activity_id: string | null }>(
    sql`select u.username, f.pending, f.activity_id from follows f join users u on u.id = f.followee_id
        where f.follower_id = ${who.user._id}::uuid order by u.username`,
  );

const sent = (type: string, to: string) =>
  remote.received.filter((item) => item.json.type === type && item.path === `/users/${to}/inbox`);

describe('moving accounts', { timeout: 120_000 }, () => {
  it("names an artist's old accounts, served as the actor's alsoKnownAs; refuses this site's own", async () => {
    const mira = await signUp(ctx.app);
    const put = (accounts: string[]) =>
      ctx.app.inject({ method: 'PUT', url: '/api/federation/aliases', headers: auth(mira), payload: { accounts } });
    const named = await put([`@carol@${remoteHost()}`]);
    expect(named.statusCode, named.body).toBe(200);
    expect((named.json() as AccountAliasesResponse).aliases).toEqual([
      { handle: `carol@${remoteHost()}`, url: `${remote.origin}/@carol` },
    ]);
    const actor = await ctx.app.inject({
      method: 'GET',
      url: `/ap/users/${mira.user._id}`,
      headers: { accept: AP },
    });
    expect(actor.json().alsoKnownAs).toEqual(remote.actor('carol'));

    const ours = await put([`@${mira.user.username}@${new URL(origin).host}`]);
    expect(ours.statusCode).toBe(400);
    expect(errorOf(ours)).toContain('is an account on this site');
    const tooMany = await put([
      'a@b.example',
      'c@d.example',
      'e@f.example',
      'g@h.example',
      'i@j.example',
      'k@l.example',
    ]);
    expect(tooMany.statusCode).toBe(400);

    // Sent back as the list was given, known already: no fetch. An empty list removes them all.
    const fetchedBefore = remote.fetched.length;
    expect((await put([`@carol@${remoteHost()}`])).statusCode).toBe(200);
    expect(remote.fetched.length).toBe(fetchedBefore);
    expect((await put([])).json()).toEqual({ aliases: [] });
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/federation/aliases', headers: auth(mira) });
    expect(listed.json()).toEqual({ aliases: [] });
  });

  it('a Move of someone followed here carries the follow to the new account, with a new Follow and the old undone', async () => {
    const [ana, ben] = [await signUp(ctx.app), await signUp(ctx.app)];
    const bobShadow = await followRemote(ana, 'bob');
    await followRemote(ben, 'bob');
    // ben mutes bob: the mute carries over to the new account.
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/users/${encodeURIComponent(`bob@${remoteHost()}`)}/mute`,
          headers: auth(ben),
        })
      ).statusCode,
    ).toBeLessThan(300);
    const oldFollow = (await followsOf(ana))[0]!.activity_id;
    remote.aliases.dave = [remote.actor('bob')];
    await deliverMove('bob', remote.actor('dave'));
    await inboxDrained();

    const anaFollows = await followsOf(ana);
    expect(anaFollows.map((row) => [row.username, row.pending])).toEqual([[`dave@${remoteHost()}`, true]]);
    expect(anaFollows[0]!.activity_id).not.toBe(oldFollow);
    await eventually(
      async () =>
        sent('Follow', 'dave').some((item) => item.json.id === anaFollows[0]!.activity_id) &&
        sent('Undo', 'bob').some((item) => (item.json.object as { id?: string }).id === oldFollow),
      'the Follow of dave and the Undo of the Follow of bob',
    );
    const [counts] = await rows<{ bob: number; dave: number; ana: number }>(
      sql`select (select follower_count from users where id = ${bobShadow}::uuid) as bob,
                 (select follower_count from users where username = ${`dave@${remoteHost()}`}) as dave,
                 (select following_count from users where id = ${ana.user._id}::uuid) as ana`,
    );
    expect(counts).toEqual({ bob: 0, dave: 2, ana: 1 });
    expect(
      await rows(
        sql`select 1 from mutes m join users u on u.id = m.muted_id
            where m.muter_id = ${ben.user._id}::uuid and u.username = ${`dave@${remoteHost()}`}`,
      ),
    ).toHaveLength(1);

    // The same account moving again within 7 days moves nothing.
    await followRemote(ana, 'bob');
    await deliverMove('bob', remote.actor('dave'));
    await inboxDrained();
    expect((await followsOf(ana)).map((row) => row.username)).toEqual([`bob@${remoteHost()}`, `dave@${remoteHost()}`]);
  });

  it('a Move to an account here that names the old one makes our people follow it here; one that does not, nothing', async () => {
    const [cleo, newHome, stranger] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    await followRemote(cleo, 'carol');
    const carolIri = remote.actor('carol');
    // No alias: nothing moves.
    await deliverMove('carol', `${origin}/ap/users/${stranger.user._id}`);
    await inboxDrained();
    expect((await followsOf(cleo)).map((row) => row.username)).toEqual([`carol@${remoteHost()}`]);

    const named = await ctx.app.inject({
      method: 'PUT',
      url: '/api/federation/aliases',
      headers: auth(newHome),
      payload: { accounts: [carolIri] },
    });
    expect(named.statusCode, named.body).toBe(200);
    await deliverMove('carol', `${origin}/ap/users/${newHome.user._id}`);
    await inboxDrained();
    expect(await followsOf(cleo)).toEqual([{ username: newHome.user.username, pending: false, activity_id: null }]);
    const profile = await ctx.app.inject({ method: 'GET', url: `/api/users/${newHome.user._id}`, headers: auth(cleo) });
    expect(profile.json().user.followerCount).toBe(1);
    expect(profile.json().user.viewer.follows).toBe(true);
  });
});
