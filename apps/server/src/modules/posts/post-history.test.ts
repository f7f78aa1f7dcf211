import { sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, POST_HISTORY_ERRORS, type PostHistoryPage, type PostRevision } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createMediaService } from '../media/index.js';
import {
  createTestApp,
  errorOf,
  signUp,
  storedFiles,
  uploadPicture,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';

/**
 * A work's history (issue 41, "fixing a published work"): an edit keeps the post (its likes, comments and pins), keeps
 * a revision of what changed and the pictures it took out (for the author only: /media/ serves them to nobody), says
 * "edited"; anyone who sees the post reads the words' and rights' history, nobody else; deleting the post or the
 * account deletes the revisions and the kept pictures; the export holds the history.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
}, 180_000);
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const db = () => ctx.database.db;

const call = (who: SignedUp | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: who ? auth(who) : {}, ...(payload === undefined ? {} : { payload }) });

let shade = 0;
const upload = (who: SignedUp, alt: string) => {
  shade += 1;
  return uploadPicture(ctx.app, who, alt, { width: 400, height: 300, background: { r: shade * 20, g: 90, b: 40 } });
};

async function createWork(who: SignedUp, content: string, mediaIds: string[]) {
  const response = await call(who, 'POST', '/api/posts', { content, mediaIds });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post as { _id: string; editedAt?: string };
}

async function edit(who: SignedUp, postId: string, postData: object) {
  const response = await call(who, 'POST', `/api/posts/edit/${postId}`, { postData });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post as { _id: string; content: string; editedAt?: string; media: { _id: string }[] };
}

async function history(who: SignedUp | null, postId: string): Promise<PostRevision[]> {
  const response = await call(who, 'GET', `/api/posts/${postId}/history`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as PostHistoryPage).revisions;
}

const mediaRows = async (ids: string[]) =>
  (
    await queryRows<{ id: string }>(
      db(),
      sql`select id from media where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    )
  ).map((row) => row.id);
const filesOf = async (mediaId: string) => (await storedFiles(ctx)).filter((file) => file.startsWith(mediaId));
const revisionCount = async (postId: string) =>
  (
    await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from post_revisions where post_id = ${postId}::uuid`,
    )
  )[0]!.n;

describe('editing a published work', () => {
  it('keeps its likes, comments and pins, says "edited", and keeps a revision of what changed', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const [a, b] = [await upload(artist, 'The sketch'), await upload(artist, 'The colours')];
    const post = await createWork(artist, 'First words #ink', [a._id, b._id]);
    expect(post.editedAt).toBeUndefined();
    expect((await call(fan, 'POST', `/api/posts/like/${post._id}`)).statusCode).toBe(201);
    const commented = await call(fan, 'POST', `/api/posts/${post._id}/comment`, { commentData: { content: 'Lovely' } });
    expect(commented.statusCode, commented.body).toBe(201);
    expect((await call(artist, 'POST', `/api/posts/${post._id}/pin`)).statusCode).toBeLessThan(300);
    expect(await history(fan, post._id)).toEqual([]);

    // Nothing changes: no revision, not "edited".
    const same = await edit(artist, post._id, { content: 'First words #ink', mediaIds: [a._id, b._id] });
    expect(same.editedAt).toBeUndefined();
    expect(await revisionCount(post._id)).toBe(0);

    // The words, and a picture replaced.
    const c = await upload(artist, 'The fixed colours');
    const edited = await edit(artist, post._id, { content: 'Better words #ink', mediaIds: [a._id, c._id] });
    expect(edited._id).toBe(post._id);
    expect(edited.editedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    const seen = (await call(fan, 'GET', `/api/posts/${post._id}`)).json().post;
    expect(seen).toMatchObject({ content: 'Better words #ink', likes: { likeCount: 1 }, commentCount: 1 });
    expect(seen.editedAt).toBe(edited.editedAt);
    const pins = (await call(null, 'GET', `/api/users/${artist.user.username}/pins`)).json();
    expect(JSON.stringify(pins)).toContain(post._id);

    // Then the licence alone.
    await edit(artist, post._id, { licence: 'cc-by' });

    const revisions = await history(fan, post._id);
    expect(revisions).toHaveLength(2);
    const [newest, older] = revisions;
    expect(newest).toMatchObject({
      changed: ['licence'],
      before: { licence: 'all-rights-reserved' },
      after: { licence: 'cc-by' },
      pictures: null,
    });
    expect(older).toMatchObject({
      changed: ['content', 'pictures'],
      before: { content: 'First words #ink' },
      after: { content: 'Better words #ink' },
      pictures: { before: 2, after: 2 },
    });
    // Not the author: no earlier pictures.
    expect(older!.pictures).not.toHaveProperty('earlier');
    expect(Date.parse(newest!.createdAt)).toBeGreaterThanOrEqual(Date.parse(older!.createdAt));

    // The same history signed out, a page at a time.
    const pages = await walkPages<PostRevision>(
      ctx.app,
      (cursor) => `/api/posts/${post._id}/history?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      'revisions',
    );
    expect(pages.map((page) => page.map((revision) => revision._id))).toEqual(revisions.map((r) => [r._id]));
  });
});

describe('a change of alt text alone (issue 41)', () => {
  it('is an edit: one revision of the list it is in, the earlier alt texts kept for the author', async () => {
    const artist = await signUp(ctx.app);
    const [first, second, sketch] = [
      await upload(artist, 'A moth'),
      await upload(artist, 'Its wing'),
      await upload(artist, 'The sketch'),
    ];
    const created = await call(artist, 'POST', '/api/posts', {
      content: 'Moth study',
      mediaIds: [first._id, second._id],
      processMediaIds: [sketch._id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().post._id as string;

    // The same alt texts (spaces trimmed): no trace.
    const same = await edit(artist, postId, { alts: [{ mediaId: first._id, alt: '  A moth ' }] });
    expect(same.editedAt).toBeUndefined();
    expect(await revisionCount(postId)).toBe(0);

    const edited = await edit(artist, postId, {
      alts: [
        { mediaId: second._id, alt: 'The left wing, scales in close-up' },
        { mediaId: sketch._id, alt: 'The first sketch, in pencil' },
      ],
    });
    expect(edited.editedAt).toEqual(expect.any(String));
    expect((edited as unknown as { media: { _id: string; alt: string }[] }).media.map((p) => p.alt)).toEqual([
      'A moth',
      'The left wing, scales in close-up',
    ]);
    expect(await revisionCount(postId)).toBe(1);
    const [revision] = await history(artist, postId);
    expect(revision).toMatchObject({ changed: ['pictures', 'processPictures'], before: {}, after: {} });
    expect(revision!.pictures).toMatchObject({ before: 2, after: 2 });
    expect(revision!.pictures!.earlier!.map((p) => [p._id, p.alt, p.shownNow])).toEqual([
      [first._id, 'A moth', true],
      [second._id, 'Its wing', true],
    ]);
    expect(revision!.processPictures!.earlier!.map((p) => [p._id, p.alt])).toEqual([[sketch._id, 'The sketch']]);
    // Anyone else: the counts, not the earlier pictures.
    const [seen] = await history(null, postId);
    expect(seen!.pictures).toEqual({ before: 2, after: 2 });

    // With other changes: still one revision for the edit.
    await edit(artist, postId, { content: 'Moth study, finished', alts: [{ mediaId: first._id, alt: 'A grey moth' }] });
    const [both] = await history(artist, postId);
    expect(both!.changed).toEqual(['content', 'pictures']);
    expect(await revisionCount(postId)).toBe(2);
  });

  it('through the media route too (POST /api/media/{id}/alt): a revision of the list, not of an unposted picture', async () => {
    const artist = await signUp(ctx.app);
    const [first, second, sketch, loose] = [
      await upload(artist, 'First'),
      await upload(artist, 'Second'),
      await upload(artist, 'Sketch'),
      await upload(artist, 'Loose'),
    ];
    const created = await call(artist, 'POST', '/api/posts', {
      content: 'Alt texts fixed one by one',
      mediaIds: [first._id, second._id],
      processMediaIds: [sketch._id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().post._id as string;
    const alt = (id: string, text: string) => call(artist, 'POST', `/api/media/${id}/alt`, { alt: text });

    expect((await alt(second._id, 'The second, described better')).statusCode).toBe(201);
    const [revision] = await history(artist, postId);
    expect(revision).toMatchObject({ changed: ['pictures'], processPictures: null, before: {}, after: {} });
    expect(revision!.pictures).toMatchObject({ before: 2, after: 2 });
    expect(revision!.pictures!.earlier!.map((p) => [p._id, p.alt])).toEqual([
      [first._id, 'First'],
      [second._id, 'Second'],
    ]);
    // The media route tells the posts' caches through the event bus (on PostgreSQL, its relay is a moment later).
    await expect
      .poll(async () => (await call(null, 'GET', `/api/posts/${postId}`)).json().post.editedAt, { timeout: 10_000 })
      .toEqual(expect.any(String));

    expect((await alt(sketch._id, 'The sketch, in pencil')).statusCode).toBe(201);
    const [processRevision] = await history(artist, postId);
    expect(processRevision).toMatchObject({ changed: ['processPictures'], pictures: null });
    expect(processRevision!.processPictures).toMatchObject({ before: 1, after: 1 });
    expect(processRevision!.processPictures!.earlier!.map((p) => [p._id, p.alt])).toEqual([[sketch._id, 'Sketch']]);

    // The same text again, or a picture no post shows: no revision.
    expect((await alt(sketch._id, ' The sketch, in pencil ')).statusCode).toBe(201);
    expect((await alt(loose._id, 'Not posted yet')).statusCode).toBe(201);
    expect(await revisionCount(postId)).toBe(2);
  });

  it('refuses an alt text for a picture the post does not show, or twice, with a 400; nothing changes', async () => {
    const artist = await signUp(ctx.app);
    const [shown, elsewhere] = [await upload(artist, 'Shown'), await upload(artist, 'Elsewhere')];
    const postId = (await createWork(artist, 'One picture', [shown._id]))._id;
    const refused = async (alts: object[]) => {
      const response = await call(artist, 'POST', `/api/posts/edit/${postId}`, { postData: { alts } });
      expect(response.statusCode, response.body).toBe(400);
      return errorOf(response);
    };
    expect(await refused([{ mediaId: elsewhere._id, alt: 'x' }])).toMatch(/not one of this post's pictures/);
    expect(
      await refused([
        { mediaId: shown._id, alt: 'x' },
        { mediaId: shown._id, alt: 'y' },
      ]),
    ).toMatch(/listed twice in alts/);
    expect(await refused([{ mediaId: shown._id, alt: 'x'.repeat(5000) }])).toMatch(/alt must be at most/);
    expect(await revisionCount(postId)).toBe(0);
    const rows = await queryRows<{ alt: string }>(db(), sql`select alt from media where id = ${shown._id}::uuid`);
    expect(rows[0]!.alt).toBe('Shown');
  });
});

describe('the pictures an edit takes out', () => {
  it('are kept for the author (thumbnails through the history), served to nobody else', async () => {
    const artist = await signUp(ctx.app);
    const fan = await signUp(ctx.app);
    const old = await upload(artist, 'The first version');
    const post = await createWork(artist, 'A study', [old._id]);
    const fresh = await upload(artist, 'The second version');
    await edit(artist, post._id, { mediaIds: [fresh._id] });

    // Kept: its row and files stay; /media/ no longer serves it.
    expect(await mediaRows([old._id])).toEqual([old._id]);
    expect((await filesOf(old._id)).length).toBeGreaterThan(2);
    expect((await ctx.app.inject({ method: 'GET', url: old.url })).statusCode).toBe(404);
    for (const source of old.sources) {
      const file = source.srcset.split(',')[0]!.trim().split(' ')[0]!;
      expect((await ctx.app.inject({ method: 'GET', url: file })).statusCode).toBe(404);
    }

    const [revision] = await history(artist, post._id);
    expect(revision!.pictures!.earlier).toEqual([
      expect.objectContaining({ _id: old._id, alt: 'The first version', shownNow: false }),
    ]);
    const kept = revision!.pictures!.earlier![0]!;
    const thumb = await call(artist, 'GET', kept.thumbUrl);
    expect(thumb.statusCode, thumb.body).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.headers['cache-control']).toBe('private, no-store');
    expect(thumb.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await call(artist, 'GET', kept.url)).statusCode).toBe(200);

    const byFan = await call(fan, 'GET', kept.thumbUrl);
    expect(byFan.statusCode).toBe(403);
    expect(errorOf(byFan)).toBe(POST_HISTORY_ERRORS.keptPictureNotAuthor);
    expect((await call(null, 'GET', kept.thumbUrl)).statusCode).toBe(401);
    // A picture the history does not keep (the one shown now), or not a picture at all.
    const shown = await call(artist, 'GET', `/api/posts/${post._id}/history/pictures/${fresh._id}`);
    expect(shown.statusCode).toBe(404);
    expect(errorOf(shown)).toBe(POST_HISTORY_ERRORS.keptPictureNotFound);

    // The alt text the picture had then, whatever it has now.
    expect((await call(artist, 'POST', `/api/media/${old._id}/alt`, { alt: 'Renamed' })).statusCode).toBe(201);
    expect((await history(artist, post._id))[0]!.pictures!.earlier![0]!.alt).toBe('The first version');

    // Put back in the post: public again, and the history says so.
    await edit(artist, post._id, { mediaIds: [fresh._id, old._id] });
    expect((await ctx.app.inject({ method: 'GET', url: old.url })).statusCode).toBe(200);
    const [latest, first] = await history(artist, post._id);
    expect(latest!.pictures!.earlier!.map((p) => p._id)).toEqual([fresh._id]);
    expect(first!.pictures!.earlier![0]).toMatchObject({ _id: old._id, shownNow: true });
  });

  it('process pictures are kept in the same revision', async () => {
    const artist = await signUp(ctx.app);
    const [work, sketch, lines] = [
      await upload(artist, 'Work'),
      await upload(artist, 'Sketch'),
      await upload(artist, 'Lines'),
    ];
    const created = await call(artist, 'POST', '/api/posts', {
      content: 'With its process',
      mediaIds: [work._id],
      processMediaIds: [sketch._id, lines._id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().post._id as string;
    await edit(artist, postId, { processMediaIds: [lines._id] });
    const [revision] = await history(artist, postId);
    expect(revision).toMatchObject({ changed: ['processPictures'], pictures: null, before: {}, after: {} });
    expect(revision!.processPictures).toMatchObject({ before: 2, after: 1 });
    expect(revision!.processPictures!.earlier!.map((p) => [p._id, p.alt, p.shownNow])).toEqual([
      [sketch._id, 'Sketch', false],
      [lines._id, 'Lines', true],
    ]);
    expect(await mediaRows([sketch._id])).toEqual([sketch._id]);
    expect((await ctx.app.inject({ method: 'GET', url: sketch.url })).statusCode).toBe(404);
    // Others see the counts only.
    const [seen] = await history(null, postId);
    expect(seen!.processPictures).toEqual({ before: 2, after: 1 });
  });

  it('survive the media sweep of unattached uploads', async () => {
    const artist = await signUp(ctx.app);
    const old = await upload(artist, 'Kept');
    const post = await createWork(artist, 'Swept?', [old._id]);
    await edit(artist, post._id, { mediaIds: [] });
    // Two days later, for the sweep.
    const media = createMediaService({ db: db(), storage: ctx.storage, now: () => Date.now() + 2 * 86_400_000 });
    await media.sweep();
    expect(await mediaRows([old._id])).toEqual([old._id]);
    expect((await filesOf(old._id)).length).toBeGreaterThan(2);
  });
});

describe('who reads a history', () => {
  it('a post hidden from the viewer has none for them (404)', async () => {
    const artist = await signUp(ctx.app);
    const blocked = await signUp(ctx.app);
    const post = await createWork(artist, 'Before', []);
    await edit(artist, post._id, { content: 'After' });
    expect(await history(blocked, post._id)).toHaveLength(1);
    expect((await call(artist, 'POST', `/api/users/${blocked.user.username}/block`)).statusCode).toBe(200);
    const refused = await call(blocked, 'GET', `/api/posts/${post._id}/history`);
    expect(refused.statusCode).toBe(404);
    expect(errorOf(refused)).toBe(ERRORS.postNotFound);
    expect((await call(null, 'GET', '/api/posts/not-a-uuid/history')).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/posts/00000000-0000-4000-8000-000000000000/history')).statusCode).toBe(404);
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

describe('export and deletion', () => {
  it('the export holds each work’s history and its kept pictures', async () => {
    const artist = await signUp(ctx.app);
    const old = await upload(artist, 'Old');
    const post = await createWork(artist, 'Exported', [old._id]);
    const fresh = await upload(artist, 'New');
    await edit(artist, post._id, { content: 'Exported again', mediaIds: [fresh._id] });

    const link = await call(artist, 'POST', '/api/account/export');
    expect(link.statusCode, link.body).toBe(201);
    const zip = await ctx.app.inject({ method: 'GET', url: link.json().url });
    expect(zip.statusCode).toBe(200);
    const entries = await unzip(zip.rawPayload);
    const [work] = JSON.parse(entries.get('posts.json')!.toString());
    expect(work.editedAt).toMatch(/\+00:00$/);
    expect(work.history).toEqual([
      expect.objectContaining({
        changed: ['content', 'pictures'],
        before: { content: 'Exported' },
        after: { content: 'Exported again' },
        picturesBefore: [
          { id: old._id, file: expect.stringMatching(new RegExp(`^pictures/${old._id}-original`)), alt: 'Old' },
        ],
      }),
    ]);
    expect(entries.has(work.history[0].picturesBefore[0].file)).toBe(true);
  });

  it('deleting the work, or the account, deletes its revisions and kept pictures (rows and files)', async () => {
    const artist = await signUp(ctx.app);
    const [a, b] = [await upload(artist, 'A'), await upload(artist, 'B')];
    const post = await createWork(artist, 'To go', [a._id]);
    await edit(artist, post._id, { mediaIds: [b._id] });
    expect(await revisionCount(post._id)).toBe(1);
    expect((await call(artist, 'DELETE', `/api/posts/${post._id}`)).statusCode).toBe(201);
    expect(await revisionCount(post._id)).toBe(0);
    expect(await mediaRows([a._id, b._id])).toEqual([]);
    expect(await filesOf(a._id)).toEqual([]);
    expect((await call(artist, 'GET', `/api/posts/${post._id}/history`)).statusCode).toBe(404);

    const [c, d] = [await upload(artist, 'C'), await upload(artist, 'D')];
    const other = await createWork(artist, 'Stays until the account goes', [c._id]);
    await edit(artist, other._id, { mediaIds: [d._id] });
    const gone = await call(artist, 'POST', '/api/account/delete', { password: artist.password });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await revisionCount(other._id)).toBe(0);
    expect(await mediaRows([c._id, d._id])).toEqual([]);
    expect(await filesOf(c._id)).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the history and the kept pictures', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/posts/{id}/history'].get.responses['200']).toBeDefined();
    expect(doc.paths['/api/posts/{id}/history/pictures/{mediaId}'].get.responses['403']).toBeDefined();
    expect(JSON.stringify(doc.paths['/api/posts/{id}'].get.responses['200'])).toContain('"editedAt"');
  });
});
