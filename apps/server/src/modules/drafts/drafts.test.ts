import { sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRAFT_EXCERPT_MAX,
  DRAFT_LIMITS,
  ERRORS,
  type Draft,
  type DraftSummary,
  type Post,
} from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import {
  createPost,
  createTestApp,
  errorOf,
  eventually,
  signUp,
  storedFiles,
  uploadPicture,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { createMediaService } from '../media/index.js';
import { DRAFT_ERRORS } from './index.js';

/**
 * Drafts and scheduled posts (issue 41): saving with revisions (a stale save is refused), privacy, the list, discarding
 * with the pictures, the media sweep sparing a draft's pictures, scheduling's rules, the per-minute job publishing a
 * due draft once with every effect of posting (and taking over a publishing that stopped half-way), failures the
 * artist must fix, the export and account deletion.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
}, 180_000);
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const db = () => ctx.database.db;
const HOUR = 3_600_000;
/** Small pictures: their processing is what an upload costs. */
const SMALL = { width: 320, height: 240 };

const call = (who: SignedUp | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: who ? auth(who) : {}, ...(payload === undefined ? {} : { payload }) });

async function newDraft(who: SignedUp, body: object = {}): Promise<Draft> {
  const response = await call(who, 'POST', '/api/drafts', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().draft;
}

/** The stored files of these pictures (the original and every variant), by their rows. */
async function filesOfRow(ids: string[]): Promise<string[]> {
  const rows = await queryRows<{ original_file: string; variants: { file: string }[] }>(
    db(),
    sql`select original_file, variants from media where id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return rows.flatMap((row) => [row.original_file, ...row.variants.map((variant) => variant.file)]);
}

async function mediaRows(ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db(),
    sql`select id from media where id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return rows.map((row) => row.id);
}

/** Runs the per-minute job now, through the queue, and waits until it ran (and any run the schedule queued). */
async function runPublishJob(): Promise<void> {
  await ctx.app.jobs.send('drafts.publish-due', {}).catch(() => {
    // The schedule's own run of this minute is queued already (one waits at most): it does the same work.
  });
  await eventually(async () => {
    const kind = (await ctx.app.jobs.counts()).find((row) => row.kind === 'drafts.publish-due');
    expect((kind?.queued ?? 0) + (kind?.running ?? 0)).toBe(0);
  }, 20_000);
}

/** Makes a scheduled draft due, as time passing would. */
const makeDue = (id: string) =>
  db().execute(sql`update drafts set scheduled_at = now() - interval '1 second' where id = ${id}::uuid`);

const inAnHour = () => new Date(Date.now() + HOUR).toISOString();

describe('saving a draft', () => {
  it('keeps the whole composer: words, pictures in order with alt texts, rights, series', async () => {
    const ana = await signUp(ctx.app);
    const [first, second] = await Promise.all([
      uploadPicture(ctx.app, ana, 'first', SMALL),
      uploadPicture(ctx.app, ana, 'second', SMALL),
    ]);
    const series = await call(ana, 'POST', '/api/series', { title: 'Moth diaries' });
    const seriesId = series.json().series._id;
    const draft = await newDraft(ana, {
      content: 'Half done #moth',
      pictures: [{ mediaId: second._id }, { mediaId: first._id, alt: 'The first, seen again' }],
      rights: {
        contentWarning: 'blood',
        commentPolicy: 'following',
        licence: 'cc-by',
        aiGenerated: false,
        downloadable: true,
      },
      seriesId,
      chapter: 'Issue 2',
    });
    expect(draft).toMatchObject({
      content: 'Half done #moth',
      revision: 1,
      seriesId,
      chapter: 'Issue 2',
      rights: { contentWarning: 'blood', licence: 'cc-by', downloadable: true },
      scheduledAt: null,
      publishError: null,
    });
    expect(draft.pictures.map((picture) => [picture._id, picture.alt])).toEqual([
      [second._id, 'second'],
      [first._id, 'The first, seen again'],
    ]);
    // Read back (a reload, another device): the same.
    const again = await call(ana, 'GET', `/api/drafts/${draft._id}`);
    expect(again.json().draft).toEqual(draft);
    // The list shows its start, its cover and how many pictures.
    const [listed] = (await call(ana, 'GET', '/api/drafts')).json().drafts as DraftSummary[];
    expect(listed).toMatchObject({
      _id: draft._id,
      excerpt: 'Half done #moth',
      pictureCount: 2,
      cover: expect.objectContaining({ _id: second._id }),
      seriesId,
      revision: 1,
    });
  });

  it('bumps the revision on each save and refuses a stale one with 409, changing nothing', async () => {
    const ana = await signUp(ctx.app);
    const draft = await newDraft(ana, { content: 'one' });
    const saved = await call(ana, 'PUT', `/api/drafts/${draft._id}`, { revision: 1, content: 'two' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().draft).toMatchObject({ content: 'two', revision: 2 });

    // Another tab still holds revision 1.
    const stale = await call(ana, 'PUT', `/api/drafts/${draft._id}`, { revision: 1, content: 'from the old tab' });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale)).toBe(DRAFT_ERRORS.stale);
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).json().draft).toMatchObject({
      content: 'two',
      revision: 2,
    });

    const noRevision = await call(ana, 'PUT', `/api/drafts/${draft._id}`, { content: 'three' });
    expect(noRevision.statusCode).toBe(400);
    expect(errorOf(noRevision)).toBe(DRAFT_ERRORS.revisionNeeded);
  });

  it('refuses bad input with a 400 that says what to fix', async () => {
    const ana = await signUp(ctx.app);
    const bob = await signUp(ctx.app);
    const [mine, inPost, bobs] = await Promise.all([
      uploadPicture(ctx.app, ana, '', SMALL),
      uploadPicture(ctx.app, ana, '', SMALL),
      uploadPicture(ctx.app, bob, '', SMALL),
    ]);
    await createPost(ctx.app, ana, 'posted', [inPost._id]);
    const held = await newDraft(ana, { pictures: [{ mediaId: mine._id }] });
    const bobSeries = (await call(bob, 'POST', '/api/series', { title: 'Not yours' })).json().series._id;

    const cases: [object, string | RegExp][] = [
      [{ pictures: [{ mediaId: mine._id }] }, DRAFT_ERRORS.pictureInDraft],
      [{ pictures: [{ mediaId: inPost._id }] }, DRAFT_ERRORS.pictureInPost],
      [{ pictures: [{ mediaId: bobs._id }] }, DRAFT_ERRORS.pictureNotYours],
      [{ pictures: [{ mediaId: '00000000-0000-4000-8000-000000000000' }] }, DRAFT_ERRORS.pictureNotFound],
      [{ seriesId: bobSeries }, DRAFT_ERRORS.seriesNotYours],
      [{ content: 'x'.repeat(2001) }, /at most 2000 characters/],
      [{ pictures: Array.from({ length: 21 }, () => ({ mediaId: mine._id })) }, /at most 20 pictures/],
      [{ rights: { licence: 'mine' } }, /.+/],
    ];
    for (const [body, message] of cases) {
      const response = await call(ana, 'POST', '/api/drafts', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response)).toMatch(message);
    }
    const twice = await call(ana, 'PUT', `/api/drafts/${held._id}`, {
      revision: 1,
      pictures: [{ mediaId: mine._id }, { mediaId: mine._id }],
    });
    expect(errorOf(twice)).toBe(DRAFT_ERRORS.pictureTwice);
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from drafts where author_id = ${ana.user._id}::uuid`,
    );
    expect(row!.n).toBe(1);
  });

  it(`keeps at most ${DRAFT_LIMITS.perArtist} drafts per artist`, async () => {
    const ana = await signUp(ctx.app);
    await db().execute(
      sql`insert into drafts (author_id, rights)
          select ${ana.user._id}::uuid, '{}'::jsonb from generate_series(1, ${DRAFT_LIMITS.perArtist - 1})`,
    );
    await newDraft(ana, { content: 'the hundredth' });
    const over = await call(ana, 'POST', '/api/drafts', { content: 'one more' });
    expect(over.statusCode).toBe(400);
    expect(errorOf(over)).toBe(DRAFT_ERRORS.tooMany);
  });
});

describe('who sees a draft', () => {
  it('only its author: 404 to anyone else, and it is counted and listed nowhere', async () => {
    const ana = await signUp(ctx.app);
    const bob = await signUp(ctx.app);
    const draft = await newDraft(ana, { content: 'secret plans #unseen' });
    for (const [method, url, body] of [
      ['GET', `/api/drafts/${draft._id}`],
      ['PUT', `/api/drafts/${draft._id}`, { revision: 1, content: 'mine now' }],
      ['DELETE', `/api/drafts/${draft._id}`],
      ['POST', `/api/drafts/${draft._id}/schedule`, { at: inAnHour(), timeZone: 'Europe/Paris' }],
      ['DELETE', `/api/drafts/${draft._id}/schedule`],
      ['POST', `/api/drafts/${draft._id}/publish`],
    ] as const) {
      const response = await call(bob, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(errorOf(response)).toBe(DRAFT_ERRORS.notFound);
      expect((await call(null, method, url, body)).statusCode).toBe(401);
    }
    expect((await call(bob, 'GET', '/api/drafts')).json().drafts).toEqual([]);

    const profile = (await call(null, 'GET', `/api/users/by-username/${ana.user.username}`)).json();
    expect(JSON.stringify(profile)).toMatch(/"postCount":0/);
    const explore = await call(bob, 'GET', '/api/posts?limit=50');
    expect(explore.body).not.toContain('secret plans');
    const search = await call(bob, 'GET', '/api/search?q=secret');
    expect(search.body).not.toContain('secret plans');
    expect((await call(bob, 'GET', '/api/tags/unseen/posts')).body).not.toContain('secret plans');
    expect((await call(null, 'GET', `/api/users/${ana.user.username}/feed.atom`)).body).not.toContain('secret plans');
  });

  it('lists the author’s drafts, the last changed first, by keyset', async () => {
    const ana = await signUp(ctx.app);
    const drafts: Draft[] = [];
    for (const content of ['a', 'b', 'c', 'd', 'e'.repeat(2000)]) drafts.push(await newDraft(ana, { content }));
    // The first one changed last: it comes first.
    await call(ana, 'PUT', `/api/drafts/${drafts[0]!._id}`, { revision: 1, content: 'a again' });
    const pages = await walkPages<DraftSummary>(
      ctx.app,
      (cursor) => `/api/drafts?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      'drafts',
      auth(ana),
    );
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    // Each with its start only (the whole draft is its own read).
    expect(pages.flat().map((draft) => draft.excerpt)).toEqual([
      'a again',
      'e'.repeat(DRAFT_EXCERPT_MAX),
      'd',
      'c',
      'b',
    ]);
    expect((await call(ana, 'GET', '/api/drafts?cursor=nonsense')).statusCode).toBe(400);
  });
});

describe('the pictures of a draft', () => {
  it('go with it when it is discarded (rows and files)', async () => {
    const ana = await signUp(ctx.app);
    const [one, two] = await Promise.all([
      uploadPicture(ctx.app, ana, '', SMALL),
      uploadPicture(ctx.app, ana, '', SMALL),
    ]);
    const filesBefore = await storedFiles(ctx);
    const theirs = await filesOfRow([one._id, two._id]);
    expect(theirs.length).toBeGreaterThan(2);
    for (const file of theirs) expect(filesBefore).toContain(file);

    const draft = await newDraft(ana, { pictures: [{ mediaId: one._id }, { mediaId: two._id }] });
    const gone = await call(ana, 'DELETE', `/api/drafts/${draft._id}`);
    expect(gone.statusCode).toBe(204);
    expect(await mediaRows([one._id, two._id])).toEqual([]);
    const filesAfter = new Set(await storedFiles(ctx));
    for (const file of theirs) expect(filesAfter.has(file), file).toBe(false);
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).statusCode).toBe(404);
    expect((await call(ana, 'DELETE', `/api/drafts/${draft._id}`)).statusCode).toBe(404);
  });

  it('are spared by the media sweep, which deletes the uploads attached to nothing', async () => {
    const ana = await signUp(ctx.app);
    const [kept, loose] = await Promise.all([
      uploadPicture(ctx.app, ana, '', SMALL),
      uploadPicture(ctx.app, ana, '', SMALL),
    ]);
    await newDraft(ana, { pictures: [{ mediaId: kept._id }] });
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const media = createMediaService({ db: db(), storage: ctx.storage, log: quiet, now: () => Date.now() + 25 * HOUR });
    await media.sweep();
    expect(await mediaRows([kept._id, loose._id])).toEqual([kept._id]);
  });
});

describe('the process pictures of a draft', () => {
  it('are kept in their order with alt texts, apart from the pictures, and publishing carries them', async () => {
    const ana = await signUp(ctx.app);
    const [final, sketch, lines, flats] = await Promise.all(
      ['final', 'sketch', 'lines', 'flats'].map((alt) => uploadPicture(ctx.app, ana, alt, SMALL)),
    );
    const draft = await newDraft(ana, {
      content: 'Moth, from sketch to final',
      pictures: [{ mediaId: final!._id }],
      processPictures: [{ mediaId: lines!._id }, { mediaId: sketch!._id, alt: 'The first sketch, in pencil' }],
    });
    expect(draft.pictures.map((picture) => picture._id)).toEqual([final!._id]);
    expect(draft.processPictures.map((picture) => [picture._id, picture.alt])).toEqual([
      [lines!._id, 'lines'],
      [sketch!._id, 'The first sketch, in pencil'],
    ]);
    // The list counts and covers the finished pictures only.
    const listed = ((await call(ana, 'GET', '/api/drafts')).json().drafts as DraftSummary[]).find(
      (summary) => summary._id === draft._id,
    );
    expect(listed).toMatchObject({ pictureCount: 1, cover: expect.objectContaining({ _id: final!._id }) });

    // Reordered and one added; pictures left out of the save stay as they are.
    const saved = await call(ana, 'PUT', `/api/drafts/${draft._id}`, {
      revision: draft.revision,
      processPictures: [{ mediaId: sketch!._id }, { mediaId: lines!._id }, { mediaId: flats!._id }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const resumed = (await call(ana, 'GET', `/api/drafts/${draft._id}`)).json().draft as Draft;
    expect(resumed.pictures.map((picture) => picture._id)).toEqual([final!._id]);
    expect(resumed.processPictures.map((picture) => picture._id)).toEqual([sketch!._id, lines!._id, flats!._id]);

    // Published: the post shows them as its process, in order; the draft is gone.
    const published = await call(ana, 'POST', `/api/drafts/${draft._id}/publish`);
    expect(published.statusCode, published.body).toBe(201);
    const post = published.json().post as Post;
    expect(post.media.map((picture) => picture._id)).toEqual([final!._id]);
    expect(post.process.map((picture) => [picture._id, picture.alt])).toEqual([
      [sketch!._id, 'The first sketch, in pencil'],
      [lines!._id, 'lines'],
      [flats!._id, 'flats'],
    ]);
    const read = await call(null, 'GET', `/api/posts/${post._id}`);
    expect(read.json().post.process.map((picture: { _id: string }) => picture._id)).toEqual([
      sketch!._id,
      lines!._id,
      flats!._id,
    ]);
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).statusCode).toBe(404);
    // A process picture of a post cannot join a draft (it is in a post).
    const reused = await call(ana, 'POST', '/api/drafts', { processPictures: [{ mediaId: sketch!._id }] });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused)).toBe(DRAFT_ERRORS.pictureInPost);
  });

  it('refuse a picture in both lists, an eleventh, someone else’s; move between lists; go when discarded', async () => {
    const ana = await signUp(ctx.app);
    const bo = await signUp(ctx.app);
    const mine: { _id: string }[] = [];
    // One after the other: at most 4 uploads of a person wait for processing at once.
    for (let n = 0; n < 11; n++) mine.push(await uploadPicture(ctx.app, ana, '', SMALL));
    const theirs = await uploadPicture(ctx.app, bo, '', SMALL);
    const both = await call(ana, 'POST', '/api/drafts', {
      pictures: [{ mediaId: mine[0]!._id }],
      processPictures: [{ mediaId: mine[0]!._id }],
    });
    expect(both.statusCode).toBe(400);
    expect(errorOf(both)).toBe(DRAFT_ERRORS.pictureTwice);
    const eleven = await call(ana, 'POST', '/api/drafts', {
      processPictures: mine.map((picture) => ({ mediaId: picture._id })),
    });
    expect(eleven.statusCode).toBe(400);
    expect(errorOf(eleven)).toMatch(/at most 10 process pictures/);
    const someoneElse = await call(ana, 'POST', '/api/drafts', { processPictures: [{ mediaId: theirs._id }] });
    expect(someoneElse.statusCode).toBe(400);
    expect(errorOf(someoneElse)).toBe(DRAFT_ERRORS.pictureNotYours);

    const draft = await newDraft(ana, {
      pictures: [{ mediaId: mine[0]!._id }],
      processPictures: [{ mediaId: mine[1]!._id }, { mediaId: mine[2]!._id }],
    });
    // Only processPictures sent, naming a finished picture that stays: refused, nothing changed.
    const clash = await call(ana, 'PUT', `/api/drafts/${draft._id}`, {
      revision: draft.revision,
      processPictures: [{ mediaId: mine[0]!._id }],
    });
    expect(clash.statusCode).toBe(400);
    expect(errorOf(clash)).toBe(DRAFT_ERRORS.pictureTwice);
    // Both lists sent: a picture moves from process to finished and back.
    const moved = await call(ana, 'PUT', `/api/drafts/${draft._id}`, {
      revision: draft.revision,
      pictures: [{ mediaId: mine[1]!._id }],
      processPictures: [{ mediaId: mine[0]!._id }, { mediaId: mine[2]!._id }],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((moved.json().draft as Draft).pictures.map((picture) => picture._id)).toEqual([mine[1]!._id]);
    expect((moved.json().draft as Draft).processPictures.map((picture) => picture._id)).toEqual([
      mine[0]!._id,
      mine[2]!._id,
    ]);
    // Another draft cannot take a process picture of this one.
    const taken = await call(ana, 'POST', '/api/drafts', { pictures: [{ mediaId: mine[2]!._id }] });
    expect(taken.statusCode).toBe(400);
    expect(errorOf(taken)).toBe(DRAFT_ERRORS.pictureInDraft);

    // Discarded: its process pictures go with it, as its pictures do; the media sweep spared them until then.
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const media = createMediaService({ db: db(), storage: ctx.storage, log: quiet, now: () => Date.now() + 25 * HOUR });
    await media.sweep();
    expect((await mediaRows([mine[0]!._id, mine[1]!._id, mine[2]!._id])).sort()).toEqual(
      [mine[0]!._id, mine[1]!._id, mine[2]!._id].sort(),
    );
    expect((await call(ana, 'DELETE', `/api/drafts/${draft._id}`)).statusCode).toBe(204);
    expect(await mediaRows([mine[0]!._id, mine[1]!._id, mine[2]!._id])).toEqual([]);
  });
});

describe('scheduling', () => {
  it('takes a time in the next year with its zone, moves it, cancels it; refuses the past and beyond', async () => {
    const ana = await signUp(ctx.app);
    const draft = await newDraft(ana, { content: 'for Tuesday' });
    const url = `/api/drafts/${draft._id}/schedule`;
    const at = new Date(Date.now() + 2 * 86_400_000);
    at.setUTCSeconds(42);
    const scheduled = await call(ana, 'POST', url, { at: at.toISOString(), timeZone: 'Europe/Paris' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString().replace('.000Z', '+00:00');
    expect(scheduled.json().draft).toMatchObject({ scheduledAt: minute, timeZone: 'Europe/Paris', revision: 2 });

    const moved = await call(ana, 'POST', url, { at: inAnHour(), timeZone: 'America/New_York', revision: 2 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().draft.timeZone).toBe('America/New_York');
    const stale = await call(ana, 'POST', url, { at: inAnHour(), timeZone: 'UTC', revision: 2 });
    expect(stale.statusCode).toBe(409);

    const refused: [object, string | RegExp][] = [
      [{ at: new Date(Date.now() - 60_000).toISOString(), timeZone: 'UTC' }, DRAFT_ERRORS.schedulePast],
      [{ at: new Date(Date.now() + 366 * 86_400_000).toISOString(), timeZone: 'UTC' }, DRAFT_ERRORS.scheduleTooFar],
      [{ at: inAnHour(), timeZone: 'Mars/Olympus_Mons' }, DRAFT_ERRORS.timeZone],
      [{ at: inAnHour(), timeZone: 'Europe/Paris; drop table' }, DRAFT_ERRORS.timeZone],
      [{ at: 'next tuesday', timeZone: 'UTC' }, /at must be a date and time/],
      [{ timeZone: 'UTC' }, /.+/],
    ];
    for (const [body, message] of refused) {
      const response = await call(ana, 'POST', url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response)).toMatch(message);
    }

    const cancelled = await call(ana, 'DELETE', url);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().draft).toMatchObject({ scheduledAt: null, timeZone: null });
    expect(errorOf(await call(ana, 'DELETE', url))).toBe(DRAFT_ERRORS.notScheduled);

    const empty = await newDraft(ana, {});
    const wordless = await call(ana, 'POST', `/api/drafts/${empty._id}/schedule`, { at: inAnHour(), timeZone: 'UTC' });
    expect(errorOf(wordless)).toBe(DRAFT_ERRORS.scheduleEmpty);
  });

  it('publishes a due draft once, by the job, with every effect of posting, and then it is gone', async () => {
    const ana = await signUp(ctx.app);
    const bob = await signUp(ctx.app);
    const carol = await signUp(ctx.app);
    expect((await call(bob, 'POST', `/api/users/follow/${ana.user._id}`)).statusCode).toBeLessThan(300);
    const picture = await uploadPicture(ctx.app, ana, 'moth at dawn', SMALL);
    const seriesId = (await call(ana, 'POST', '/api/series', { title: 'Dawn' })).json().series._id;
    const content = `Dawn moth, for @${carol.user.username}`;
    const draft = await newDraft(ana, {
      content,
      pictures: [{ mediaId: picture._id }],
      rights: {
        contentWarning: null,
        commentPolicy: 'everyone',
        licence: 'cc-by',
        aiGenerated: false,
        downloadable: false,
      },
      seriesId,
      chapter: 'Morning',
    });
    const url = `/api/drafts/${draft._id}/schedule`;
    expect((await call(ana, 'POST', url, { at: inAnHour(), timeZone: 'Europe/Paris' })).statusCode).toBe(200);

    // Not due yet: the job leaves it.
    await runPublishJob();
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).statusCode).toBe(200);

    await makeDue(draft._id);
    await runPublishJob();
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).statusCode).toBe(404);
    // A second run finds nothing more to do.
    await runPublishJob();

    const posts = await queryRows<{ id: string }>(
      db(),
      sql`select id from posts where author_id = ${ana.user._id}::uuid`,
    );
    expect(posts).toHaveLength(1);
    const postId = posts[0]!.id;
    const post: Post = (await call(bob, 'GET', `/api/posts/${postId}`)).json().post;
    expect(post).toMatchObject({ content, licence: 'cc-by' });
    expect(post.media?.map((each) => [each._id, each.alt])).toEqual([[picture._id, 'moth at dawn']]);
    // Home of a follower, the author's post count, the mention, the series.
    const home = (await call(bob, 'GET', '/api/feed')).json().posts as Post[];
    expect(home.map((each) => each._id)).toContain(postId);
    expect((await call(null, 'GET', `/api/users/by-username/${ana.user.username}`)).body).toMatch(/"postCount":1/);
    const notes = (await call(carol, 'GET', '/api/notifications')).body;
    expect(notes).toContain('mention');
    expect(notes).toContain(postId);
    const works = (await call(ana, 'GET', `/api/series/${seriesId}/works`)).json().works;
    expect(works).toEqual([
      expect.objectContaining({ chapter: 'Morning', post: expect.objectContaining({ _id: postId }) }),
    ]);
    // Its picture is the post's now: the draft took nothing with it.
    expect(await mediaRows([picture._id])).toEqual([picture._id]);
  });

  it('publishes once when the job and two "Publish now" take the same draft at once', async () => {
    const ana = await signUp(ctx.app);
    const draft = await newDraft(ana, { content: 'Only one of me' });
    await call(ana, 'POST', `/api/drafts/${draft._id}/schedule`, { at: inAnHour(), timeZone: 'UTC' });
    await makeDue(draft._id);
    const [first, second] = await Promise.all([
      call(ana, 'POST', `/api/drafts/${draft._id}/publish`),
      call(ana, 'POST', `/api/drafts/${draft._id}/publish`),
      runPublishJob(),
    ]);
    for (const response of [first, second]) expect([201, 404, 409], response.body).toContain(response.statusCode);
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).statusCode).toBe(404);
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from posts where author_id = ${ana.user._id}::uuid`,
    );
    expect(row!.n).toBe(1);
  });

  it('takes over a publishing that stopped half-way without posting twice', async () => {
    const ana = await signUp(ctx.app);
    const picture = await uploadPicture(ctx.app, ana, '', SMALL);
    const draft = await newDraft(ana, { content: 'Once only', pictures: [{ mediaId: picture._id }] });
    await call(ana, 'POST', `/api/drafts/${draft._id}/schedule`, { at: inAnHour(), timeZone: 'UTC' });
    await makeDue(draft._id);
    // A worker claimed it, posted it, and stopped before the draft went (kill -9): its claim is old.
    await db().execute(
      sql`update drafts set publishing_since = now() - interval '10 minutes' where id = ${draft._id}::uuid`,
    );
    await createPost(ctx.app, ana, 'Once only', [picture._id]);

    await runPublishJob();
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).statusCode).toBe(404);
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from posts where author_id = ${ana.user._id}::uuid`,
    );
    expect(row!.n).toBe(1);
  });

  it('keeps the draft with the reason when publishing fails for something the artist must fix', async () => {
    const ana = await signUp(ctx.app);
    const picture = await uploadPicture(ctx.app, ana, '', SMALL);
    const draft = await newDraft(ana, { content: 'Late', pictures: [{ mediaId: picture._id }] });
    await call(ana, 'POST', `/api/drafts/${draft._id}/schedule`, { at: inAnHour(), timeZone: 'Asia/Tokyo' });
    // The picture went into another post meanwhile (straight through the API).
    await createPost(ctx.app, ana, 'elsewhere', [picture._id]);
    await makeDue(draft._id);

    await runPublishJob();
    const kept: Draft = (await call(ana, 'GET', `/api/drafts/${draft._id}`)).json().draft;
    expect(kept).toMatchObject({ publishError: ERRORS.pictureInUse, scheduledAt: null, timeZone: null });
    // The next runs leave it: the artist must fix it first.
    await runPublishJob();
    expect((await call(ana, 'GET', `/api/drafts/${draft._id}`)).json().draft.publishError).toBe(ERRORS.pictureInUse);
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from posts where author_id = ${ana.user._id}::uuid`,
    );
    expect(row!.n).toBe(1);
    // Publishing it now says the same.
    const now = await call(ana, 'POST', `/api/drafts/${draft._id}/publish`);
    expect(now.statusCode).toBe(400);
    expect(errorOf(now)).toBe(ERRORS.pictureInUse);
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

describe('an account’s drafts', () => {
  it('are in its export with their pictures, and go with the account and their pictures', async () => {
    const ana = await signUp(ctx.app);
    const picture = await uploadPicture(ctx.app, ana, 'sketch', SMALL);
    const draft = await newDraft(ana, { content: 'unfinished', pictures: [{ mediaId: picture._id }] });
    await call(ana, 'POST', `/api/drafts/${draft._id}/schedule`, { at: inAnHour(), timeZone: 'Europe/Paris' });

    const link = await call(ana, 'POST', '/api/account/export');
    expect(link.statusCode, link.body).toBe(201);
    const zip = await ctx.app.inject({ method: 'GET', url: link.json().url });
    expect(zip.statusCode).toBe(200);
    const entries = await unzip(zip.rawPayload);
    const exported = JSON.parse(entries.get('drafts.json')!.toString('utf8'));
    expect(exported).toEqual([
      expect.objectContaining({
        id: draft._id,
        content: 'unfinished',
        timeZone: 'Europe/Paris',
        pictures: [expect.objectContaining({ id: picture._id, alt: 'sketch' })],
      }),
    ]);
    expect(entries.has(exported[0].pictures[0].file)).toBe(true);

    const files = await filesOfRow([picture._id]);
    expect((await call(ana, 'POST', '/api/account/delete', { password: ana.password })).statusCode).toBe(200);
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from drafts where author_id = ${ana.user._id}::uuid`,
    );
    expect(row!.n).toBe(0);
    expect(await mediaRows([picture._id])).toEqual([]);
    await eventually(async () => {
      const left = new Set(await storedFiles(ctx));
      for (const file of files) expect(left.has(file), file).toBe(false);
    }, 5000);
  });
});
