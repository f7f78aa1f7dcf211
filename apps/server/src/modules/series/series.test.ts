import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, NOTIFICATION_ACTIONS, SERIES_LIMITS, type Series } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import {
  createPost,
  createTestApp,
  errorOf,
  eventually,
  liveSocket,
  signUp,
  uploadPicture,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { SERIES_ERRORS, slugOf } from './index.js';

/**
 * Series (issue 41): an artist's own works in order. Create, rename and the slugs; adding only one's own works from
 * here; one-move reordering through a renumbering; 10,000 works by keyset; the post page's previous and next; follows
 * and their notifications; what moderation, blocks and suspensions hide; the Atom feed, the shared page's head, the
 * export and the counts after deletions.
 */

const ORIGIN = 'https://share.example';
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Share Arts</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

let ctx: TestContext;
let webDistDir: string;
beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-series-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: ORIGIN } });
  // For the live stream's sockets.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
}, 180_000);
afterAll(async () => {
  await ctx.close();
  await rm(webDistDir, { recursive: true, force: true });
});

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const db = () => ctx.database.db;

const call = (who: SignedUp | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: who ? auth(who) : {}, ...(payload === undefined ? {} : { payload }) });

async function createSeries(who: SignedUp, title: string, description?: string): Promise<Series> {
  const response = await call(who, 'POST', '/api/series', { title, ...(description ? { description } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().series;
}

async function addWork(who: SignedUp, seriesId: string, body: object) {
  const response = await call(who, 'POST', `/api/series/${seriesId}/works`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().series as Series;
}

/** The ids of the series' works as `who` sees them (signed out: null), every page followed. */
async function workIds(who: SignedUp | null, seriesId: string, limit = 50): Promise<string[]> {
  const pages = await walkPages<{ post: { _id: string } }>(
    ctx.app,
    (cursor) => `/api/series/${seriesId}/works?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    'works',
    who ? auth(who) : {},
  );
  return pages.flat().map((work) => work.post._id);
}

/** An artist with a series of `count` text works, in order. */
async function seriesWith(count: number, title = 'Moth diaries') {
  const artist = await signUp(ctx.app);
  const series = await createSeries(artist, title);
  const works: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = await createPost(ctx.app, artist, `Page ${i + 1}`);
    await addWork(artist, series._id, { postId: id });
    works.push(id);
  }
  return { artist, series, works };
}

describe('slugs', () => {
  it('are lower-case ASCII words joined by dashes, accents dropped, and never empty', () => {
    expect(slugOf('Moth Diaries!')).toBe('moth-diaries');
    expect(slugOf('  Été à Paris — 2026  ')).toBe('ete-a-paris-2026');
    expect(slugOf('夜の猫')).toBe('series');
    // A long title is cut at its last word break past the middle of 60 characters, else in the word.
    expect(slugOf('a'.repeat(40) + ' ' + 'b'.repeat(40))).toBe('a'.repeat(40));
    expect(slugOf('c'.repeat(70))).toBe('c'.repeat(60));
  });
});

describe('creating and renaming a series', () => {
  it('makes the slug from the title, unique among the artist’s series, and follows a rename', async () => {
    const artist = await signUp(ctx.app);
    const first = await createSeries(artist, 'Moth Diaries', 'A moth, every week.');
    expect(first).toMatchObject({
      slug: 'moth-diaries',
      title: 'Moth Diaries',
      description: 'A moth, every week.',
      owner: { _id: artist.user._id, username: artist.user.username },
      cover: null,
      coverPostId: null,
      workCount: 0,
      followerCount: 0,
      viewer: { follows: false, isOwner: true },
    });
    expect((await createSeries(artist, 'moth diaries!')).slug).toBe('moth-diaries-2');
    expect((await createSeries(artist, 'Moth  Diaries')).slug).toBe('moth-diaries-3');
    // Another artist's series may have the same slug.
    expect((await createSeries(await signUp(ctx.app), 'Moth Diaries')).slug).toBe('moth-diaries');

    const renamed = await call(artist, 'PATCH', `/api/series/${first._id}`, { title: '  Night moths ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().series).toMatchObject({ slug: 'night-moths', title: 'Night moths' });
    expect((await call(null, 'GET', `/api/users/${artist.user.username}/series/moth-diaries`)).statusCode).toBe(404);
    const byAddress = await call(null, 'GET', `/api/users/${artist.user.username.toUpperCase()}/series/night-moths`);
    expect(byAddress.statusCode).toBe(200);
    expect(byAddress.json().series).toMatchObject({ _id: first._id, viewer: { follows: false, isOwner: false } });
    // The freed slug is taken by the next series of that name; renaming to its own name keeps the slug.
    expect((await createSeries(artist, 'Moth Diaries')).slug).toBe('moth-diaries');
    const same = await call(artist, 'PATCH', `/api/series/${first._id}`, { title: 'Night Moths' });
    expect(same.json().series.slug).toBe('night-moths');
  });

  it('refuses a blank or too long title, someone else’s series, and a 101st series', async () => {
    const artist = await signUp(ctx.app);
    const blank = await call(artist, 'POST', '/api/series', { title: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(errorOf(blank)).toBe(SERIES_ERRORS.titleBlank);
    const long = await call(artist, 'POST', '/api/series', { title: 'x'.repeat(SERIES_LIMITS.titleMax + 1) });
    expect(long.statusCode).toBe(400);
    expect(errorOf(long)).toMatch(/^title must be 1 to 100 characters long/);
    const invisible = await call(artist, 'POST', '/api/series', { title: 'Moth\u202Ediaries' });
    expect(invisible.statusCode).toBe(400);
    const description = await call(artist, 'POST', '/api/series', {
      title: 'Moths',
      description: 'd'.repeat(SERIES_LIMITS.descriptionMax + 1),
    });
    expect(description.statusCode).toBe(400);
    expect(errorOf(description)).toMatch(/^description must be at most 2000 characters/);
    expect((await call(null, 'POST', '/api/series', { title: 'Moths' })).statusCode).toBe(401);

    const mine = await createSeries(artist, 'Mine');
    const other = await signUp(ctx.app);
    const patch = await call(other, 'PATCH', `/api/series/${mine._id}`, { title: 'Theirs' });
    expect(patch.statusCode).toBe(403);
    expect(errorOf(patch)).toBe(SERIES_ERRORS.notOwner);
    expect((await call(other, 'DELETE', `/api/series/${mine._id}`)).statusCode).toBe(403);
    expect((await call(artist, 'PATCH', '/api/series/not-an-id', { title: 'x' })).statusCode).toBe(404);

    await queryRows(
      db(),
      sql`insert into series (owner_id, slug, title)
          select ${artist.user._id}::uuid, 'filler-' || n, 'Filler ' || n
          from generate_series(1, ${SERIES_LIMITS.perArtist - 2}) n`,
    );
    await createSeries(artist, 'The hundredth');
    const tooMany = await call(artist, 'POST', '/api/series', { title: 'One more' });
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany)).toBe(SERIES_ERRORS.tooMany);

    // The list pages by keyset, the newest first.
    const pages = await walkPages<Series>(
      ctx.app,
      (cursor) =>
        `/api/users/${artist.user._id && artist.user.username}/series?limit=30${cursor ? `&cursor=${cursor}` : ''}`,
      'series',
    );
    expect(pages.map((page) => page.length)).toEqual([30, 30, 30, 10]);
    expect(pages[0]![0]!.title).toBe('The hundredth');
    expect(new Set(pages.flat().map((series) => series._id)).size).toBe(SERIES_LIMITS.perArtist);

    expect((await call(artist, 'DELETE', `/api/series/${mine._id}`)).statusCode).toBe(204);
    expect((await call(null, 'GET', `/api/series/${mine._id}/works`)).statusCode).toBe(404);
  });
});

describe('the works of a series', () => {
  it('holds only the owner’s own works posted here, each once', async () => {
    const { artist, series, works } = await seriesWith(2);
    expect(await workIds(null, series._id)).toEqual(works);

    const stranger = await signUp(ctx.app);
    const theirs = await createPost(ctx.app, stranger, 'Not yours');
    const refused = await call(artist, 'POST', `/api/series/${series._id}/works`, { postId: theirs });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe(SERIES_ERRORS.notYourWork);
    // Nor may anyone add to a series not theirs, even their own work.
    const intruder = await call(stranger, 'POST', `/api/series/${series._id}/works`, { postId: theirs });
    expect(intruder.statusCode).toBe(403);

    // A work from another server (a Note stored here, issue 39) is never in a series.
    const remote = await createPost(ctx.app, artist, 'Fetched');
    await queryRows(
      db(),
      sql`update posts set note_iri = ${`https://elsewhere.example/notes/${remote}`} where id = ${remote}::uuid`,
    );
    const fromElsewhere = await call(artist, 'POST', `/api/series/${series._id}/works`, { postId: remote });
    expect(fromElsewhere.statusCode).toBe(400);
    expect(errorOf(fromElsewhere)).toBe(SERIES_ERRORS.remoteWork);

    const twice = await call(artist, 'POST', `/api/series/${series._id}/works`, { postId: works[0] });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice)).toBe(SERIES_ERRORS.alreadyIn);
    const unknown = await call(artist, 'POST', `/api/series/${series._id}/works`, {
      postId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe(ERRORS.postNotFound);
    const badChapter = await call(artist, 'POST', `/api/series/${series._id}/works`, {
      postId: remote,
      chapter: 'c'.repeat(SERIES_LIMITS.chapterMax + 1),
    });
    expect(badChapter.statusCode).toBe(400);
    expect(errorOf(badChapter)).toMatch(/^chapter must be at most 60 characters/);

    // At a place, with a chapter; the count follows.
    const third = await createPost(ctx.app, artist, 'Interlude');
    const added = await addWork(artist, series._id, { postId: third, after: works[0], chapter: ' Issue 2 ' });
    expect(added.workCount).toBe(3);
    const page = (await call(null, 'GET', `/api/series/${series._id}/works`)).json();
    expect(page.works.map((work: { post: { _id: string } }) => work.post._id)).toEqual([works[0], third, works[1]]);
    expect(page.works[1]).toMatchObject({ chapter: 'Issue 2', post: { content: 'Interlude' } });
    expect(page.works[0].chapter).toBeNull();
    const cleared = await call(artist, 'PATCH', `/api/series/${series._id}/works/${third}`, { chapter: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await call(null, 'GET', `/api/series/${series._id}/works`)).json().works[1].chapter).toBeNull();

    const removed = await call(artist, 'DELETE', `/api/series/${series._id}/works/${third}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().series.workCount).toBe(2);
    expect((await call(artist, 'DELETE', `/api/series/${series._id}/works/${third}`)).statusCode).toBe(404);
    // The work itself stays.
    expect((await call(null, 'GET', `/api/posts/${third}`)).statusCode).toBe(200);

    // A deleted post leaves the series, and the count follows.
    expect((await call(artist, 'DELETE', `/api/posts/${works[0]}`)).statusCode).toBe(201);
    expect(await workIds(null, series._id)).toEqual([works[1]]);
    const after = await call(null, 'GET', `/api/users/${artist.user.username}/series/${series.slug}`);
    expect(after.json().series.workCount).toBe(1);
  });

  it('reorders one move at a time, first, last or after a work, through any number of moves in one gap', async () => {
    const { artist, series, works } = await seriesWith(4);
    const [a, b, c, d] = works as [string, string, string, string];
    const move = (postId: string, after: string | null) =>
      call(artist, 'POST', `/api/series/${series._id}/works/${postId}/move`, { after });

    expect((await move(d, null)).statusCode).toBe(200);
    expect(await workIds(null, series._id)).toEqual([d, a, b, c]);
    expect((await move(d, c)).statusCode).toBe(200);
    expect(await workIds(null, series._id)).toEqual([a, b, c, d]);
    expect((await move(a, b)).statusCode).toBe(200);
    expect(await workIds(null, series._id)).toEqual([b, a, c, d]);

    // Forty moves into the same gap use it up (a gap of 2^16 halves each time): the series is renumbered
    // on the way, and the order is always the one asked for.
    for (let i = 0; i < 40; i++) {
      const [mover, anchor] = i % 2 === 0 ? [d, b] : [c, b];
      expect((await move(mover, anchor)).statusCode).toBe(200);
    }
    expect(await workIds(null, series._id)).toEqual([b, c, d, a]);
    const positions = await queryRows<{ position: number }>(
      db(),
      sql`select position from series_works where series_id = ${series._id}::uuid order by position`,
    );
    expect(new Set(positions.map((row) => row.position)).size).toBe(4);

    const itself = await move(a, a);
    expect(itself.statusCode).toBe(400);
    expect(errorOf(itself)).toBe(SERIES_ERRORS.afterItself);
    const elsewhere = await createPost(ctx.app, artist, 'Not in it');
    const notIn = await move(a, elsewhere);
    expect(notIn.statusCode).toBe(400);
    expect(errorOf(notIn)).toBe(SERIES_ERRORS.afterNotInSeries);
    expect((await move(elsewhere, a)).statusCode).toBe(404);
    expect((await call(artist, 'POST', `/api/series/${series._id}/works/${a}/move`, {})).statusCode).toBe(400);
    const stranger = await signUp(ctx.app);
    expect(
      (await call(stranger, 'POST', `/api/series/${series._id}/works/${a}/move`, { after: null })).statusCode,
    ).toBe(403);
  }, 120_000);

  it('pages 10,000 works by keyset, in order, and holds no more', async () => {
    const artist = await signUp(ctx.app);
    const series = await createSeries(artist, 'Ten thousand');
    await queryRows(
      db(),
      sql`with made as (
            insert into posts (author_id, content) select ${artist.user._id}::uuid, 'Sketch ' || n
            from generate_series(1, ${SERIES_LIMITS.worksMax}) n returning id, content
          )
          insert into series_works (series_id, post_id, position)
          select ${series._id}::uuid, id, (split_part(content, ' ', 2)::int * 1000) from made`,
    );
    // What autovacuum does after such a bulk write (PGlite has none): with the tables' statistics of before
    // the insert, the planner expects a few dozen works, sorts all 10,000 for each page and walks the pages
    // in 170 s; with them, each page is an index scan of its 51 rows.
    await queryRows(db(), sql`analyze series_works, posts`);
    const pages = await walkPages<{ post: { content: string } }>(
      ctx.app,
      (cursor) => `/api/series/${series._id}/works?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
      'works',
    );
    expect(pages).toHaveLength(SERIES_LIMITS.worksMax / 50);
    const contents = pages.flat().map((work) => work.post.content);
    expect(contents).toHaveLength(SERIES_LIMITS.worksMax);
    expect(contents.slice(0, 3)).toEqual(['Sketch 1', 'Sketch 2', 'Sketch 3']);
    expect(contents.at(-1)).toBe(`Sketch ${SERIES_LIMITS.worksMax}`);

    const shown = await call(null, 'GET', `/api/users/${artist.user.username}/series/ten-thousand`);
    expect(shown.json().series.workCount).toBe(SERIES_LIMITS.worksMax);
    const one = await createPost(ctx.app, artist, 'One too many');
    const full = await call(artist, 'POST', `/api/series/${series._id}/works`, { postId: one });
    expect(full.statusCode).toBe(400);
    expect(errorOf(full)).toBe(SERIES_ERRORS.tooManyWorks);
    // A move in a full series is still one request.
    const [first] = await queryRows<{ post_id: string }>(
      db(),
      sql`select post_id from series_works where series_id = ${series._id}::uuid order by position desc limit 1`,
    );
    const moved = await call(artist, 'POST', `/api/series/${series._id}/works/${first!.post_id}/move`, { after: null });
    expect(moved.statusCode).toBe(200);
    const top = (await call(null, 'GET', `/api/series/${series._id}/works?limit=2`)).json();
    expect(top.works[0].post.content).toBe(`Sketch ${SERIES_LIMITS.worksMax}`);

    const bad = await call(null, 'GET', `/api/series/${series._id}/works?cursor=not-a-cursor`);
    expect(bad.statusCode).toBe(400);
  }, 600_000);

  it('links each work to the previous and next one in every series it is in', async () => {
    const { artist, series, works } = await seriesWith(3);
    const other = await createSeries(artist, 'Best of');
    await addWork(artist, other._id, { postId: works[2], chapter: 'Winter' });
    await addWork(artist, other._id, { postId: works[1] });

    const middle = await call(null, 'GET', `/api/posts/${works[1]}/series`);
    expect(middle.statusCode).toBe(200);
    expect(middle.json().series).toEqual([
      {
        series: { _id: series._id, slug: series.slug, title: series.title, username: artist.user.username },
        chapter: null,
        previous: works[0],
        next: works[2],
      },
      {
        series: { _id: other._id, slug: 'best-of', title: 'Best of', username: artist.user.username },
        chapter: null,
        previous: works[2],
        next: null,
      },
    ]);
    const first = (await call(null, 'GET', `/api/posts/${works[0]}/series`)).json();
    expect(first.series).toEqual([expect.objectContaining({ previous: null, next: works[1] })]);
    const alone = await createPost(ctx.app, artist, 'In no series');
    expect((await call(null, 'GET', `/api/posts/${alone}/series`)).json()).toEqual({ series: [] });
    expect((await call(null, 'GET', '/api/posts/00000000-0000-4000-8000-000000000000/series')).statusCode).toBe(404);
  });
});

describe('following a series', () => {
  it('notifies its followers of a new work, withdraws it when the work is taken out, and counts them', async () => {
    const { artist, series } = await seriesWith(1);
    const reader = await signUp(ctx.app);
    const bystander = await signUp(ctx.app);
    const followed = await call(reader, 'POST', `/api/series/${series._id}/follow`);
    expect(followed.statusCode).toBe(200);
    expect(followed.json().series).toMatchObject({ followerCount: 1, viewer: { follows: true, isOwner: false } });
    expect((await call(reader, 'POST', `/api/series/${series._id}/follow`)).json().series.followerCount).toBe(1);
    expect((await call(null, 'POST', `/api/series/${series._id}/follow`)).statusCode).toBe(401);

    const live = await liveSocket(ctx.app, reader.token);
    const work = await createPost(ctx.app, artist, 'Chapter two');
    await addWork(artist, series._id, { postId: work });
    // The live stream says it in a sentence, naming the series.
    await eventually(async () => {
      const frame = live.frames.find((f) => f.type === 'notification' && f.kind === 'series-work');
      expect(frame).toMatchObject({
        postId: work,
        text: `${artist.user.username} added a work to ${series.title}`,
        series: { _id: series._id, title: series.title },
      });
    }, 10_000);
    live.socket.close();
    const list = (await call(reader, 'GET', '/api/notifications')).json();
    const notification = list.notifications.find((n: { kind: string }) => n.kind === 'series-work');
    expect(notification).toMatchObject({
      kind: 'series-work',
      actors: [{ _id: artist.user._id, username: artist.user.username }],
      post: { _id: work, content: 'Chapter two' },
      series: { _id: series._id, slug: series.slug, title: series.title, username: artist.user.username },
      read: false,
    });
    expect(NOTIFICATION_ACTIONS['series-work']).toBe('added a work to');
    const others = (await call(bystander, 'GET', '/api/notifications')).json().notifications;
    expect(others).toEqual([]);
    // The artist's own follow notifies nobody: they added it.
    await call(artist, 'POST', `/api/series/${series._id}/follow`);
    const another = await createPost(ctx.app, artist, 'Chapter three');
    await addWork(artist, series._id, { postId: another });
    expect(
      (await call(artist, 'GET', '/api/notifications'))
        .json()
        .notifications.filter((n: { kind: string }) => n.kind === 'series-work'),
    ).toEqual([]);
    expect((await call(reader, 'GET', '/api/notifications/unread-count')).json().unreadCount).toBe(2);

    await call(artist, 'DELETE', `/api/series/${series._id}/works/${another}`);
    expect((await call(reader, 'GET', '/api/notifications/unread-count')).json().unreadCount).toBe(1);

    const unfollowed = await call(reader, 'DELETE', `/api/series/${series._id}/follow`);
    expect(unfollowed.json().series).toMatchObject({ followerCount: 1, viewer: { follows: false } });
    await addWork(artist, series._id, { postId: another });
    expect((await call(reader, 'GET', '/api/notifications/unread-count')).json().unreadCount).toBe(1);

    // A deleted series takes its notifications with it.
    await call(artist, 'DELETE', `/api/series/${series._id}`);
    expect(
      (await call(reader, 'GET', '/api/notifications'))
        .json()
        .notifications.filter((n: { kind: string }) => n.kind === 'series-work'),
    ).toEqual([]);
  });
});

describe('who sees a series', () => {
  it('leaves a work hidden by moderation out for everyone but its artist, and a removed one for all', async () => {
    const { artist, series, works } = await seriesWith(3);
    const reader = await signUp(ctx.app);
    await queryRows(
      db(),
      sql`update posts set moderation_state = 'hidden', moderation_reason = 'Off topic' where id = ${works[1]}::uuid`,
    );
    expect(await workIds(reader, series._id)).toEqual([works[0], works[2]]);
    expect(await workIds(null, series._id)).toEqual([works[0], works[2]]);
    expect(await workIds(artist, series._id)).toEqual(works);
    // Previous and next skip it for the reader.
    const links = (await call(reader, 'GET', `/api/posts/${works[0]}/series`)).json().series[0];
    expect(links.next).toBe(works[2]);
    expect((await call(reader, 'GET', `/api/posts/${works[1]}/series`)).statusCode).toBe(404);

    await queryRows(db(), sql`update posts set moderation_state = 'removed' where id = ${works[1]}::uuid`);
    expect(await workIds(artist, series._id)).toEqual([works[0], works[2]]);
  });

  it('is not there between a blocked pair, for anyone when its artist is suspended, nor signed out when works are for the signed-in', async () => {
    const { artist, series } = await seriesWith(1);
    const blocked = await signUp(ctx.app);
    expect((await call(artist, 'POST', `/api/users/${blocked.user.username}/block`)).statusCode).toBe(200);
    const address = `/api/users/${artist.user.username}/series`;
    expect((await call(blocked, 'GET', address)).statusCode).toBe(404);
    expect((await call(blocked, 'GET', `${address}/${series.slug}`)).statusCode).toBe(404);
    expect((await call(blocked, 'GET', `/api/series/${series._id}/works`)).statusCode).toBe(404);
    expect((await call(blocked, 'POST', `/api/series/${series._id}/follow`)).statusCode).toBe(404);
    expect((await call(null, 'GET', `${address}/${series.slug}`)).statusCode).toBe(200);

    await queryRows(db(), sql`update users set works_signed_in_only = true where id = ${artist.user._id}::uuid`);
    expect((await call(null, 'GET', address)).json()).toEqual({ series: [], nextCursor: null });
    expect((await call(null, 'GET', `${address}/${series.slug}`)).statusCode).toBe(404);
    expect((await call(null, 'GET', `${address}/${series.slug}/feed.atom`)).statusCode).toBe(404);
    const reader = await signUp(ctx.app);
    expect((await call(reader, 'GET', `${address}/${series.slug}`)).statusCode).toBe(200);

    await queryRows(db(), sql`update users set suspended_until = 'infinity' where id = ${artist.user._id}::uuid`);
    expect((await call(reader, 'GET', `${address}/${series.slug}`)).statusCode).toBe(404);
    expect((await call(reader, 'GET', `/api/series/${series._id}/works`)).statusCode).toBe(404);
  });
});

describe('a series shared', () => {
  let artist: SignedUp;
  let series: Series;
  let pictured: string;

  beforeAll(async () => {
    artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
    series = await createSeries(artist, 'Moth diaries', 'One moth a week, in <ink> & "gouache".');
    const warned = await uploadPicture(ctx.app, artist, 'A dead moth');
    const warnedPost = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { ...auth(artist), prefer: 'return=minimal' },
      payload: { content: 'Week 0', mediaIds: [warned._id], contentWarning: 'death' },
    });
    expect(warnedPost.statusCode, warnedPost.body).toBe(201);
    await addWork(artist, series._id, { postId: warnedPost.json().post._id });
    const picture = await uploadPicture(ctx.app, artist, 'A luna moth on a lamp');
    pictured = await createPost(ctx.app, artist, 'Week 1: luna moth', [picture._id]);
    await addWork(artist, series._id, { postId: pictured });
    const hidden = await createPost(ctx.app, artist, 'Week 2: hidden');
    await addWork(artist, series._id, { postId: hidden });
    await queryRows(
      db(),
      sql`update posts set moderation_state = 'hidden', moderation_reason = 'Off topic' where id = ${hidden}::uuid`,
    );
  }, 60_000);

  it('takes its cover from the first work with a picture and no warning, or the one chosen', async () => {
    const shown = (await call(null, 'GET', `/api/users/${artist.user.username}/series/${series.slug}`)).json().series;
    expect(shown.cover).toMatchObject({ alt: 'A luna moth on a lamp' });
    const other = await call(artist, 'PATCH', `/api/series/${series._id}`, { coverPostId: pictured });
    expect(other.json().series).toMatchObject({ coverPostId: pictured, cover: { alt: 'A luna moth on a lamp' } });
    const outside = await createPost(ctx.app, artist, 'Not in the series');
    const refused = await call(artist, 'PATCH', `/api/series/${series._id}`, { coverPostId: outside });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe(SERIES_ERRORS.coverNotInSeries);
  });

  it('has an Atom feed of its newest additions a visitor may see', async () => {
    const response = await call(null, 'GET', `/api/users/${artist.user.username}/series/${series.slug}/feed.atom`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const xml = response.body;
    expect(xml).toContain('<title>Moth diaries by Mira Okafor on Share Arts</title>');
    expect(xml).toContain(
      `<link rel="alternate" type="text/html" href="${ORIGIN}/${artist.user.username}/series/moth-diaries"/>`,
    );
    expect(xml).toContain(`<id>urn:uuid:${pictured}</id>`);
    expect(xml).toContain('Week 1: luna moth');
    expect(xml).not.toContain('Week 2: hidden');
    expect(xml.indexOf('Week 1')).toBeLessThan(xml.indexOf('Week 0'));
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${artist.user.username}/series/${series.slug}/feed.atom`,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect((await call(null, 'GET', `/api/users/${artist.user.username}/series/nothing/feed.atom`)).statusCode).toBe(
      404,
    );
  });

  it('draws its page’s head on the server: title, description, cover picture and the feed', async () => {
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/${artist.user.username}/series/${series.slug}`,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    const html = page.body;
    expect(html).toContain('<title>Moth diaries by Mira Okafor · Share Arts</title>');
    expect(html).toContain(
      '<meta property="og:description" content="One moth a week, in &lt;ink&gt; &amp; &quot;gouache&quot;.">',
    );
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/${artist.user.username}/series/moth-diaries">`);
    expect(html).toMatch(/<meta property="og:image" content="https:\/\/share\.example\/media\/[^"]+">/);
    expect(html).toContain('<meta property="og:image:alt" content="A luna moth on a lamp">');
    expect(html).toContain(
      `<link rel="alternate" type="application/atom+xml" title="Moth diaries (Atom)" href="${ORIGIN}/api/users/${artist.user.username}/series/moth-diaries/feed.atom">`,
    );
    const missing = await ctx.app.inject({
      method: 'GET',
      url: `/${artist.user.username}/series/no-such-series`,
      headers: { accept: 'text/html' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

/** Every entry of a zip, by name. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
          stream.on('error', reject);
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('an account’s series', () => {
  it('are in its export, and deleting accounts and works keeps every count right', async () => {
    const { artist, series, works } = await seriesWith(2);
    await call(artist, 'POST', `/api/series/${series._id}/works/${works[1]}/move`, { after: null });
    await call(artist, 'PATCH', `/api/series/${series._id}/works/${works[0]}`, { chapter: 'Epilogue' });
    const reader = await signUp(ctx.app);
    await call(reader, 'POST', `/api/series/${series._id}/follow`);

    const link = await call(artist, 'POST', '/api/account/export');
    expect(link.statusCode, link.body).toBe(201);
    const zip = await ctx.app.inject({ method: 'GET', url: link.json().url });
    expect(zip.statusCode).toBe(200);
    const entries = await unzip(zip.rawPayload);
    const exported = JSON.parse(entries.get('series.json')!.toString('utf8'));
    expect(exported).toEqual([
      expect.objectContaining({
        id: series._id,
        slug: series.slug,
        title: series.title,
        works: [
          expect.objectContaining({ postId: works[1], chapter: null }),
          expect.objectContaining({ postId: works[0], chapter: 'Epilogue' }),
        ],
      }),
    ]);
    const readerLink = await call(reader, 'POST', '/api/account/export');
    const readerZip = await unzip((await ctx.app.inject({ method: 'GET', url: readerLink.json().url })).rawPayload);
    expect(JSON.parse(readerZip.get('followed-series.json')!.toString('utf8'))).toEqual([
      expect.objectContaining({ seriesId: series._id, owner: artist.user.username, slug: series.slug }),
    ]);

    // The reader deletes their account: the follower count follows.
    const gone = await call(reader, 'POST', '/api/account/delete', { password: reader.password });
    expect(gone.statusCode, gone.body).toBe(200);
    const shown = (await call(null, 'GET', `/api/users/${artist.user.username}/series/${series.slug}`)).json().series;
    expect(shown).toMatchObject({ followerCount: 0, workCount: 2 });

    const drifted = await queryRows(
      db(),
      sql`select s.id from series s
          where s.work_count <> (select count(*) from series_works w where w.series_id = s.id)
             or s.follower_count <> (select count(*) from series_follows f where f.series_id = s.id)`,
    );
    expect(drifted).toEqual([]);

    // The artist deletes theirs: the series goes with it.
    expect((await call(artist, 'POST', '/api/account/delete', { password: artist.password })).statusCode).toBe(200);
    const [left] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from series where id = ${series._id}::uuid`,
    );
    expect(left!.n).toBe(0);
  });
});
