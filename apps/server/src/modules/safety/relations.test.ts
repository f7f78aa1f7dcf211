import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { openPostgres, type Database } from '../../db/client.js';
import { createPost, createTestApp, signUp, walkPages, type SignedUp, type TestContext } from '../../test/helpers.js';

// Each viewer's blocks and mutes are remembered in memory (relations.ts): a change shows at once in the
// process that made it, soon in every other, and lists still come out in full pages.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const tag = () => `rel${randomBytes(4).toString('hex')}`;

const send = (app: FastifyInstance, who: SignedUp, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, headers: auth(who), ...(payload ? { payload } : {}) });
const block = (who: SignedUp, other: SignedUp, app = ctx.app) =>
  send(app, who, 'POST', `/api/users/${other.user.username}/block`);
const unblock = (who: SignedUp, other: SignedUp, app = ctx.app) =>
  send(app, who, 'DELETE', `/api/users/${other.user.username}/block`);
const mute = (who: SignedUp, other: SignedUp) => send(ctx.app, who, 'POST', `/api/users/${other.user.username}/mute`);
const unmute = (who: SignedUp, other: SignedUp) =>
  send(ctx.app, who, 'DELETE', `/api/users/${other.user.username}/mute`);

/** The ids a tag page shows the viewer, every page walked (`limit` a page). */
async function tagPage(who: SignedUp, name: string, limit = 20, app = ctx.app): Promise<string[]> {
  const pages = await walkPages(
    app,
    (cursor) => `/api/tags/${name}/posts?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    'posts',
    auth(who),
  );
  return pages.flat().map((post) => post._id);
}

describe('remembered relations', () => {
  it('show a block, an unblock, a mute and a muted word at once, for both people of a block', async () => {
    const [ana, bob] = [await signUp(ctx.app), await signUp(ctx.app)];
    const name = tag();
    const bobs = await createPost(ctx.app, bob, `Bob's #${name}`);
    const anas = await createPost(ctx.app, ana, `Ana's #${name}`);
    // Both remember having no relations yet.
    expect(await tagPage(ana, name)).toEqual([anas, bobs]);
    expect(await tagPage(bob, name)).toEqual([anas, bobs]);

    expect((await block(ana, bob)).statusCode).toBe(200);
    expect(await tagPage(ana, name)).toEqual([anas]);
    expect(await tagPage(bob, name)).toEqual([bobs]);
    expect((await unblock(ana, bob)).statusCode).toBe(200);
    expect(await tagPage(ana, name)).toEqual([anas, bobs]);
    expect(await tagPage(bob, name)).toEqual([anas, bobs]);

    expect((await mute(ana, bob)).statusCode).toBe(200);
    expect(await tagPage(ana, name)).toEqual([anas]);
    expect(await tagPage(bob, name)).toEqual([anas, bobs]);
    expect((await unmute(ana, bob)).statusCode).toBe(200);
    expect(await tagPage(ana, name)).toEqual([anas, bobs]);

    expect((await send(ctx.app, ana, 'POST', '/api/users/me/muted-words', { word: "bob's" })).statusCode).toBe(201);
    expect(await tagPage(ana, name)).toEqual([anas]);
    expect(
      (await send(ctx.app, ana, 'DELETE', `/api/users/me/muted-words/${encodeURIComponent("bob's")}`)).statusCode,
    ).toBe(204);
    expect(await tagPage(ana, name)).toEqual([anas, bobs]);
  });

  it('keep pages full and in order when most rows are hidden, each post once, however small the page', async () => {
    const signUps = await Promise.all(Array.from({ length: 5 }, () => signUp(ctx.app)));
    const [me, blocked, blocker, muted, friend] = signUps as [SignedUp, SignedUp, SignedUp, SignedUp, SignedUp];
    const name = tag();
    const shown: string[] = [];
    const mutedPosts: string[] = [];
    // Newest first: runs of hidden posts longer than the read bound of a page of 2 (10 × 2 rows).
    for (let i = 0; i < 30; i++) {
      const author = i % 10 === 0 ? friend : [blocked, blocker, muted][i % 3]!;
      const id = await createPost(ctx.app, author, `Post ${i} #${name}`);
      if (author === friend) shown.unshift(id);
      if (author === muted) mutedPosts.unshift(id);
    }
    expect((await block(me, blocked)).statusCode).toBe(200);
    expect((await block(blocker, me)).statusCode).toBe(200);
    expect((await mute(me, muted)).statusCode).toBe(200);
    for (const limit of [1, 2, 5, 20]) expect(await tagPage(me, name, limit)).toEqual(shown);
    // A page of 5 reads on past the 27 hidden rows (within its bound of 50) and is the only one.
    const pages = await walkPages(
      ctx.app,
      (cursor) => `/api/tags/${name}/posts?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      'posts',
      auth(me),
    );
    expect(pages.map((page) => page.length)).toEqual([3]);
    // The profile of someone blocked is one empty page, however many posts they have (more than a page of 1 reads).
    for (let i = 0; i < 12; i++) await createPost(ctx.app, blocked, `More ${i}`);
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: `/api/posts/user/${blocked.user.username}?limit=1`,
      headers: auth(me),
    });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ posts: [], nextCursor: null });
    // A muted person's posts stay on their profile.
    const profile = await ctx.app.inject({
      method: 'GET',
      url: `/api/posts/user/${muted.user.username}`,
      headers: auth(me),
    });
    expect((profile.json().posts as { _id: string }[]).map((post) => post._id)).toEqual(mutedPosts);
  });
});

// Two server processes (two apps) on one PostgreSQL database: a block made in one is seen by the other.
describe.runIf(process.env.DATABASE_URL)('remembered relations across server processes', () => {
  let other: { app: FastifyInstance; database: Database };
  beforeAll(async () => {
    const database = await openPostgres(ctx.database.url!);
    const app = await buildApp(ctx.config, database);
    await app.ready();
    other = { app, database };
  });
  afterAll(async () => {
    await other.app.close();
    await other.database.close();
  });

  /** The other process's answer, asked again (25 ms apart, for up to 2 s) until it is `expected`. */
  async function eventually(read: () => Promise<string[]>, expected: string[]): Promise<void> {
    let seen = await read();
    for (let attempt = 0; JSON.stringify(seen) !== JSON.stringify(expected) && attempt < 80; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = await read();
    }
    expect(seen).toEqual(expected);
  }

  it('hides a block made in one from the other, for both people, and shows the unblock', async () => {
    const [ana, bob] = [await signUp(ctx.app), await signUp(ctx.app)];
    const name = tag();
    const bobs = await createPost(ctx.app, bob, `Bob's #${name}`);
    const anas = await createPost(ctx.app, ana, `Ana's #${name}`);
    const there = (who: SignedUp) => () => tagPage(who, name, 20, other.app);
    // The other process remembers both as having no relations.
    expect(await there(ana)()).toEqual([anas, bobs]);
    expect(await there(bob)()).toEqual([anas, bobs]);

    expect((await block(ana, bob)).statusCode).toBe(200);
    await eventually(there(ana), [anas]);
    await eventually(there(bob), [bobs]);
    expect((await unblock(ana, bob)).statusCode).toBe(200);
    await eventually(there(ana), [anas, bobs]);
    await eventually(there(bob), [anas, bobs]);

    // And the other way: a block made over there is seen here.
    expect((await block(bob, ana, other.app)).statusCode).toBe(200);
    await eventually(() => tagPage(ana, name), [anas]);
  });
});
