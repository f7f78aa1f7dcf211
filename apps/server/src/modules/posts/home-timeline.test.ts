import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPost,
  createTwoProcesses,
  eventually,
  signUp,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { HOME_TIMELINE_SIZE, HomeTimeline, PublishedLog } from './home-timeline.js';
import { selectHomeHead } from './posts.sql.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';

// Issue 26: Home's pages come from each viewer's timeline in memory, kept up to date by the posts every process
// hears published. Two app instances on one database stand for two processes behind a load balancer.

const NO_TAGS: ReadonlySet<string> = new Set();

/** A post's id and time, as the timeline orders them: newest first, then the higher id first. */
const post = (n: number, time = 1_000_000 + n) => ({
  id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
  authorId: '00000000-0000-4000-8000-ffffffffffff',
  time,
  tags: [] as string[],
});

const idsOf = (timeline: HomeTimeline) => timeline.slice(0, HOME_TIMELINE_SIZE).ids;

describe('HomeTimeline', () => {
  it('keeps posts newest first, each once, and pages after a cursor from where it left off', () => {
    const timeline = new HomeTimeline([post(5), post(3), post(1)], NO_TAGS, 0);
    timeline.add(post(4));
    timeline.add(post(6));
    timeline.add(post(0));
    timeline.add(post(3));
    // Two posts in the same millisecond: the higher id first, as `order by created_at desc, id desc`.
    const twin = post(7, post(4).time);
    timeline.add(twin);
    expect(idsOf(timeline)).toEqual([6, 5, 7, 4, 3, 1, 0].map((n) => post(n).id));
    expect(timeline.startAfter(twin.time, twin.id)).toBe(3);
    expect(timeline.startAfter(post(6).time, post(6).id)).toBe(1);
    // A cursor between two posts it holds (a post since deleted), and past the last one of a complete list.
    expect(timeline.startAfter(post(2).time, post(2).id)).toBe(5);
    expect(timeline.startAfter(post(0).time, post(0).id)).toBe(7);
    expect(timeline.slice(5, 10)).toEqual({
      ids: [post(1).id, post(0).id],
      times: [post(1).time, post(0).time],
      last: true,
    });
  });

  it('drops its oldest post past its size, and then cannot tell the pages after its last one', () => {
    const full = Array.from({ length: HOME_TIMELINE_SIZE + 1 }, (_, i) => post(1000 - i));
    const timeline = new HomeTimeline(full, NO_TAGS, 0);
    // One more than it keeps was read: there are more in the database.
    expect(timeline.size).toBe(HOME_TIMELINE_SIZE);
    const oldest = full[HOME_TIMELINE_SIZE - 1]!;
    expect(timeline.slice(HOME_TIMELINE_SIZE - 2, 5).last).toBe(false);
    expect(timeline.startAfter(oldest.time, oldest.id)).toBeUndefined();
    // An older post than its last one is the database's to show.
    timeline.add(post(1));
    expect(idsOf(timeline)).not.toContain(post(1).id);
    timeline.add(post(2000));
    expect(timeline.size).toBe(HOME_TIMELINE_SIZE);
    expect(idsOf(timeline)[0]).toBe(post(2000).id);
    expect(idsOf(timeline)).not.toContain(full[HOME_TIMELINE_SIZE - 1]!.id);
    expect(timeline.startAfter(full[HOME_TIMELINE_SIZE - 3]!.time, full[HOME_TIMELINE_SIZE - 3]!.id)).toBe(
      HOME_TIMELINE_SIZE - 1,
    );
  });

  it('turns ids back into the lower-case UUIDs it was given', () => {
    const ids = Array.from({ length: 40 }, () => crypto.randomUUID());
    const timeline = new HomeTimeline(
      ids.map((id, i) => ({ id, time: 5000 - i })),
      NO_TAGS,
      0,
    );
    expect(idsOf(timeline)).toEqual(ids);
  });
});

describe('PublishedLog', () => {
  it('answers the posts heard since a place, until it has forgotten them', () => {
    const log = new PublishedLog(3);
    const start = log.end;
    for (let n = 1; n <= 4; n += 1) log.add(post(n));
    expect(log.since(start)?.map((p) => p.id)).toEqual([1, 2, 3, 4].map((n) => post(n).id));
    expect(log.since(log.end)).toEqual([]);
    for (let n = 5; n <= 8; n += 1) log.add(post(n));
    expect(log.since(start)).toBeUndefined();
    expect(log.since(log.end - 3)?.map((p) => p.id)).toEqual([6, 7, 8].map((n) => post(n).id));
    const place = log.end;
    log.clear();
    expect(log.since(place - 1)).toBeUndefined();
    expect(log.since(place)).toEqual([]);
  });
});

let ctx: TestContext;
let other: FastifyInstance;
beforeAll(async () => {
  ({ other, ...ctx } = await createTwoProcesses());
});
afterAll(() => ctx.close());

const auth = (who: SignedUp, headers: Record<string, string> = {}) => ({
  authorization: `Bearer ${who.token}`,
  ...headers,
});

async function send(app: FastifyInstance, who: SignedUp, method: 'POST' | 'DELETE', url: string, payload?: object) {
  const response = await app.inject({ method, url, headers: auth(who, { prefer: 'return=minimal' }), payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

/** Every post of the viewer's Home, page after page: from memory, or (`fromDatabase`) as the database reads it. */
async function home(app: FastifyInstance, who: SignedUp, { limit = 20, fromDatabase = false } = {}) {
  // The mark of a write (db/replicas.ts) makes a page read the viewer's flags, and so Home, from the database.
  const headers = auth(who, fromDatabase ? { cookie: `sa_primary_until=${Date.now() + 60_000}` } : {});
  const pages = await walkPages<{ _id: string; content: string; reason?: { tag: string } }>(
    app,
    (cursor) => `/api/feed?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    'posts',
    headers,
  );
  return pages.flat();
}

const contents = async (app: FastifyInstance, who: SignedUp) => (await home(app, who)).map((p) => p.content);

describe('Home from the timeline in memory', () => {
  it('shows a followed artist’s new post at once where it was written and soon in every process', async () => {
    const me = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    await send(ctx.app, me, 'POST', `/api/users/follow/${artist.user._id}`);
    await createPost(ctx.app, artist, 'First study');
    // Both processes keep my timeline from here on.
    expect(await contents(ctx.app, me)).toEqual(['First study']);
    expect(await contents(other, me)).toEqual(['First study']);

    await createPost(ctx.app, artist, 'Second study');
    await createPost(other, me, 'My own sketch');
    // Mine at once where I wrote it; the artist's when the other process's event arrives.
    expect(await contents(other, me)).toContain('My own sketch');
    await eventually(async () =>
      expect(await contents(other, me)).toEqual(['My own sketch', 'Second study', 'First study']),
    );
    await eventually(async () =>
      expect(await contents(ctx.app, me)).toEqual(['My own sketch', 'Second study', 'First study']),
    );
  });

  it('leaves out at once what was deleted, muted or blocked, and an unfollowed artist’s posts in every process', async () => {
    const me = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const painter = await signUp(ctx.app);
    await send(ctx.app, me, 'POST', `/api/users/follow/${artist.user._id}`);
    await send(ctx.app, me, 'POST', `/api/users/follow/${painter.user._id}`);
    const gone = await createPost(ctx.app, artist, 'Soon deleted');
    await createPost(ctx.app, artist, 'Seascape with gulls');
    await createPost(ctx.app, painter, 'Still life');
    await eventually(async () =>
      expect(await contents(other, me)).toEqual(['Still life', 'Seascape with gulls', 'Soon deleted']),
    );

    await send(ctx.app, artist, 'DELETE', `/api/posts/${gone}`);
    expect(await contents(other, me)).toEqual(['Still life', 'Seascape with gulls']);
    await send(ctx.app, me, 'POST', '/api/users/me/muted-words', { word: 'gulls' });
    await eventually(async () => expect(await contents(other, me)).toEqual(['Still life']));
    await send(ctx.app, me, 'DELETE', '/api/users/me/muted-words/gulls');
    await eventually(async () => expect(await contents(other, me)).toEqual(['Still life', 'Seascape with gulls']));
    await send(ctx.app, painter, 'POST', `/api/users/${me.user.username}/block`);
    await eventually(async () => expect(await contents(other, me)).toEqual(['Seascape with gulls']));
    await send(ctx.app, me, 'POST', `/api/users/unfollow/${artist.user._id}`);
    await eventually(async () => expect(await contents(other, me)).toEqual([]));
    // Followed again: their older posts are back, as a new follow brings them.
    await send(other, me, 'POST', `/api/users/follow/${artist.user._id}`);
    expect(await contents(other, me)).toEqual(['Seascape with gulls']);
  });

  it('brings a followed tag’s posts, new ones and older ones an edit tags, with the reason', async () => {
    const me = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const older = await createPost(ctx.app, stranger, 'An old harbour');
    await createPost(ctx.app, stranger, 'Morning #gouache');
    expect(await home(other, me)).toEqual([]);

    await send(ctx.app, me, 'POST', '/api/tags/gouache/follow');
    await eventually(async () => expect((await home(other, me)).map((p) => p.reason?.tag)).toEqual(['gouache']));
    await createPost(ctx.app, stranger, 'Evening #Gouache');
    await eventually(async () =>
      expect((await home(other, me)).map((p) => p.content)).toEqual(['Evening #Gouache', 'Morning #gouache']),
    );
    await send(ctx.app, stranger, 'POST', `/api/posts/edit/${older}`, {
      postData: { content: 'An old harbour #gouache' },
    });
    await eventually(async () =>
      expect((await home(other, me)).map((p) => p.content)).toEqual([
        'Evening #Gouache',
        'Morning #gouache',
        'An old harbour #gouache',
      ]),
    );
    // Its tag taken off again: it leaves my Home at once, in every process.
    await send(ctx.app, stranger, 'POST', `/api/posts/edit/${older}`, { postData: { content: 'An old harbour' } });
    expect((await home(other, me)).map((p) => p.content)).toEqual(['Evening #Gouache', 'Morning #gouache']);
    await send(other, me, 'DELETE', '/api/tags/gouache/follow');
    await eventually(async () => expect(await home(ctx.app, me)).toEqual([]));
  });

  it('reads the same newest posts walking the newest of all as from each followed person and tag', async () => {
    const me = await signUp(ctx.app);
    const [inker, painter, stranger] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    for (const artist of [inker, painter]) await send(ctx.app, me, 'POST', `/api/users/follow/${artist.user._id}`);
    await send(ctx.app, me, 'POST', '/api/tags/ink/follow');
    for (let i = 0; i < 6; i += 1) {
      await createPost(ctx.app, inker, i % 2 === 0 ? `Line ${i} #ink` : `Line ${i}`);
      await createPost(ctx.app, painter, `Wash ${i}`);
      await createPost(ctx.app, stranger, i % 3 === 0 ? `Found ${i} #ink` : `Not mine ${i}`);
    }
    await createPost(ctx.app, me, 'Mine');
    const { db } = ctx.database;
    const all = await selectHomeHead(db, me.user._id, 40);
    expect(all.tags).toEqual(['ink']);
    // Mine, 12 of the people I follow, 2 of #ink by someone I do not follow (each once though tagged and followed).
    expect(all.posts).toHaveLength(15);
    const fifth = all.posts[4]!;
    for (const after of [undefined, { time: new Date(fifth.created_at), id: fifth.id }]) {
      for (const count of [5, 15, 40]) {
        const walked = await selectHomeHead(db, me.user._id, count, { after });
        expect(walked.posts).toEqual(all.posts.slice(after ? 5 : 0).slice(0, count));
        expect(await selectHomeHead(db, me.user._id, count, { after, fromEach: true })).toEqual(walked);
      }
    }
  });

  it('pages from the database right after a write, read from each person followed, as from memory', async () => {
    const me = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    for (let i = 0; i < 30; i += 1) await createPost(ctx.app, artist, `Plate ${i}`);
    await send(ctx.app, me, 'POST', `/api/users/follow/${artist.user._id}`);
    // The mark of my follow: this page's flags, and so its posts, come from the database, not from memory.
    const marked = await home(other, me, { limit: 7, fromDatabase: true });
    expect(marked.map((p) => p.content)).toEqual(Array.from({ length: 30 }, (_, i) => `Plate ${29 - i}`));
    expect((await home(other, me, { limit: 7 })).map((p) => p._id)).toEqual(marked.map((p) => p._id));
  });

  it('pages as the database does, past the posts it keeps, with hidden posts between', async () => {
    const me = await signUp(ctx.app);
    const artists = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
    for (const artist of artists) await send(ctx.app, me, 'POST', `/api/users/follow/${artist.user._id}`);
    const total = HOME_TIMELINE_SIZE + 30;
    for (let i = 0; i < total; i += 1) {
      const artist = artists[i % 3]!;
      await createPost(ctx.app, artist, i % 7 === 0 ? `Work ${i} with crows` : `Work ${i}`);
    }
    await send(ctx.app, me, 'POST', '/api/users/me/muted-words', { word: 'crows' });
    await send(ctx.app, me, 'POST', `/api/users/${artists[2]!.user.username}/mute`);
    // What Home must show, in its order: the two artists not muted, but the posts with the muted word.
    const shown = [artists[0]!.user._id, artists[1]!.user._id];
    const expected = (
      await queryRows<{ id: string }>(
        ctx.database.db,
        sql`select id from posts where author_id in (${shown[0]}::uuid, ${shown[1]}::uuid) and content not like '%crows%'
            order by created_at desc, id desc`,
      )
    ).map((row) => row.id);
    expect(expected).toHaveLength(Array.from({ length: total }, (_, i) => i).filter((i) => i % 3 < 2 && i % 7).length);
    for (const limit of [1, 7, 20, 50]) {
      for (const app of [ctx.app, other]) {
        expect((await home(app, me, { limit })).map((p) => p._id)).toEqual(expected);
        expect((await home(app, me, { limit, fromDatabase: true })).map((p) => p._id)).toEqual(expected);
      }
    }
  });
});
