import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_LIMITS, ERRORS, NOTIFICATION_ACTIONS, type Collection } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { encodeCursor } from '../../lib/cursor.js';
import {
  createPost,
  createTestApp,
  errorOf,
  signUp,
  uploadPicture,
  walkPages,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { COLLECTION_ERRORS, collectionSlugOf } from './index.js';

/**
 * Collections (issue 41): works by anyone, gathered by anyone signed in. Create, rename and the slugs; adding others'
 * works with a note, and the artists' refusals (their setting, a block, a work from another server); one-move
 * reordering through a renumbering; 10,000 works by keyset; Saved as the default private collection over the
 * bookmarks; what a private collection hides from everyone else; the artists' notifications and their removing a
 * work; moderation; the shared page's head; the export and the counts after deletions.
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
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-collections-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: ORIGIN } });
}, 180_000);
afterAll(async () => {
  await ctx.close();
  await rm(webDistDir, { recursive: true, force: true });
});

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const db = () => ctx.database.db;

const call = (who: SignedUp | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: who ? auth(who) : {}, ...(payload === undefined ? {} : { payload }) });

async function createCollection(who: SignedUp, body: object): Promise<Collection> {
  const response = await call(who, 'POST', '/api/collections', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().collection;
}

async function addWork(who: SignedUp, collectionId: string, body: object) {
  const response = await call(who, 'POST', `/api/collections/${collectionId}/works`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().collection as Collection;
}

/** The ids of the collection's works as `who` sees them (signed out: null), every page followed. */
async function workIds(who: SignedUp | null, collectionId: string, limit = 50): Promise<string[]> {
  const pages = await walkPages<{ post: { _id: string } }>(
    ctx.app,
    (cursor) => `/api/collections/${collectionId}/works?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    'works',
    who ? auth(who) : {},
  );
  return pages.flat().map((work) => work.post._id);
}

/** Notifications of the kind collection-work `who` has. */
async function collectionNotes(who: SignedUp) {
  const list = (await call(who, 'GET', '/api/notifications')).json();
  return (list.notifications as { kind: string }[]).filter((n) => n.kind === 'collection-work');
}

describe('slugs', () => {
  it('are lower-case ASCII words joined by dashes, never empty, and never Saved’s', async () => {
    expect(collectionSlugOf('Figure references!')).toBe('figure-references');
    expect(collectionSlugOf('Été à Paris')).toBe('ete-a-paris');
    expect(collectionSlugOf('夜の猫')).toBe('collection');
    const sana = await signUp(ctx.app);
    expect((await createCollection(sana, { title: 'Saved' })).slug).toBe('saved-2');
  });
});

describe('creating and changing a collection', () => {
  it('is private unless asked, has a slug unique to its owner, and follows a rename', async () => {
    const sana = await signUp(ctx.app);
    const first = await createCollection(sana, { title: 'Figure references', description: 'Hands, mostly.' });
    expect(first).toMatchObject({
      kind: 'collection',
      slug: 'figure-references',
      title: 'Figure references',
      description: 'Hands, mostly.',
      visibility: 'private',
      owner: { _id: sana.user._id, username: sana.user.username },
      cover: null,
      workCount: 0,
      viewer: { isOwner: true },
    });
    expect((await createCollection(sana, { title: 'figure references' })).slug).toBe('figure-references-2');
    const renamed = await call(sana, 'PATCH', `/api/collections/${first._id}`, {
      title: ' Hands ',
      visibility: 'public',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().collection).toMatchObject({ slug: 'hands', title: 'Hands', visibility: 'public' });
    const byAddress = await call(null, 'GET', `/api/users/${sana.user.username.toUpperCase()}/collections/hands`);
    expect(byAddress.statusCode).toBe(200);
    expect(byAddress.json().collection).toMatchObject({ _id: first._id, viewer: { isOwner: false } });

    const blank = await call(sana, 'POST', '/api/collections', { title: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(errorOf(blank)).toBe(COLLECTION_ERRORS.titleBlank);
    const long = await call(sana, 'POST', '/api/collections', { title: 'x'.repeat(COLLECTION_LIMITS.titleMax + 1) });
    expect(long.statusCode).toBe(400);
    const wrong = await call(sana, 'POST', '/api/collections', { title: 'Odd', visibility: 'friends' });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toContain('visibility');
    expect((await call(null, 'POST', '/api/collections', { title: 'Anonymous' })).statusCode).toBe(401);

    const other = await signUp(ctx.app);
    const foreign = await call(other, 'PATCH', `/api/collections/${first._id}`, { title: 'Mine now' });
    expect(foreign.statusCode).toBe(403);
    expect(errorOf(foreign)).toBe(COLLECTION_ERRORS.notOwner);
    expect((await call(other, 'DELETE', `/api/collections/${first._id}`)).statusCode).toBe(403);

    // The limit: a person's 201st collection is refused.
    await queryRows(
      db(),
      sql`insert into collections (owner_id, slug, title)
          select ${sana.user._id}::uuid, 'bulk-' || n, 'Bulk ' || n
          from generate_series(1, ${COLLECTION_LIMITS.perPerson - 2}) n`,
    );
    const tooMany = await call(sana, 'POST', '/api/collections', { title: 'One more' });
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany)).toBe(COLLECTION_ERRORS.tooMany);

    expect((await call(sana, 'DELETE', `/api/collections/${first._id}`)).statusCode).toBe(204);
    expect((await call(sana, 'GET', `/api/users/${sana.user.username}/collections/hands`)).statusCode).toBe(404);
  });
});

describe('the works of a collection', () => {
  it('holds anyone’s works with a note, once each, unless their artist refuses or is in a blocked pair', async () => {
    const sana = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const collection = await createCollection(sana, { title: 'Figure references' });
    const work = await createPost(ctx.app, artist, 'Hands study');
    const own = await createPost(ctx.app, sana, 'My own hands');

    const added = await addWork(sana, collection._id, { postId: work, note: '  The thumb’s foreshortening.  ' });
    expect(added.workCount).toBe(1);
    await addWork(sana, collection._id, { postId: own, after: null });
    const works = (await call(sana, 'GET', `/api/collections/${collection._id}/works`)).json().works;
    expect(works.map((w: { post: { _id: string } }) => w.post._id)).toEqual([own, work]);
    expect(works[1]).toMatchObject({ note: 'The thumb’s foreshortening.', post: { content: 'Hands study' } });
    expect(works[0].note).toBe('');

    const again = await call(sana, 'POST', `/api/collections/${collection._id}/works`, { postId: work });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toBe(COLLECTION_ERRORS.alreadyIn);
    const noted = await call(sana, 'PATCH', `/api/collections/${collection._id}/works/${own}`, { note: 'Mine.' });
    expect(noted.statusCode, noted.body).toBe(200);
    const tooLong = await call(sana, 'PATCH', `/api/collections/${collection._id}/works/${own}`, {
      note: 'n'.repeat(COLLECTION_LIMITS.noteMax + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(errorOf(tooLong)).toContain('note must be at most 500');
    const unknown = await call(sana, 'POST', `/api/collections/${collection._id}/works`, {
      postId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe(ERRORS.postNotFound);

    // The artist's setting: off, their works are refused (their own collections still take them).
    const setting = await call(artist, 'POST', '/api/users/edit', {
      userData: { settings: { allowCollecting: false } },
    });
    expect(setting.statusCode, setting.body).toBe(201);
    expect(setting.json().user.settings.allowCollecting).toBe(false);
    const another = await createPost(ctx.app, artist, 'Feet study');
    const refused = await call(sana, 'POST', `/api/collections/${collection._id}/works`, { postId: another });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe(COLLECTION_ERRORS.notCollectable(artist.user.username));
    const artistsOwn = await createCollection(artist, { title: 'My studies' });
    await addWork(artist, artistsOwn._id, { postId: another });
    await call(artist, 'POST', '/api/users/edit', { userData: { settings: { allowCollecting: true } } });

    // A blocked pair: the work is not there for the collector (as if it did not exist).
    const blocker = await signUp(ctx.app);
    const blockersWork = await createPost(ctx.app, blocker, 'Not for sana');
    expect((await call(blocker, 'POST', `/api/users/${sana.user.username}/block`)).statusCode).toBe(200);
    const blocked = await call(sana, 'POST', `/api/collections/${collection._id}/works`, { postId: blockersWork });
    expect(blocked.statusCode).toBe(404);

    // A work from another server.
    const remote = await createPost(ctx.app, artist, 'From afar');
    await queryRows(db(), sql`update posts set note_iri = 'https://remote.example/notes/1' where id = ${remote}::uuid`);
    const far = await call(sana, 'POST', `/api/collections/${collection._id}/works`, { postId: remote });
    expect(far.statusCode).toBe(400);
    expect(errorOf(far)).toBe(COLLECTION_ERRORS.remoteWork);

    // Only the owner adds.
    expect(
      (await call(artist, 'POST', `/api/collections/${collection._id}/works`, { postId: another })).statusCode,
    ).toBe(404);
  });

  it('reorders one move at a time, through any number of moves in one gap', async () => {
    const sana = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const collection = await createCollection(sana, { title: 'Order' });
    const works: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = await createPost(ctx.app, artist, `Work ${i}`);
      await addWork(sana, collection._id, { postId: id });
      works.push(id);
    }
    const [a, b, c, d] = works as [string, string, string, string];
    const move = (postId: string, after: string | null) =>
      call(sana, 'POST', `/api/collections/${collection._id}/works/${postId}/move`, { after });
    expect((await move(d, null)).statusCode).toBe(200);
    expect(await workIds(sana, collection._id)).toEqual([d, a, b, c]);
    expect((await move(d, c)).statusCode).toBe(200);
    // 20 moves into one gap use it up: the collection is renumbered on the way.
    for (let i = 0; i < 20; i++) {
      const [mover, anchor] = i % 2 === 0 ? [d, b] : [c, b];
      expect((await move(mover, anchor)).statusCode).toBe(200);
    }
    expect(await workIds(sana, collection._id)).toEqual([a, b, c, d]);
    const positions = await queryRows<{ position: number }>(
      db(),
      sql`select position from collection_works where collection_id = ${collection._id}::uuid order by position`,
    );
    // Renumbered on the way: 65,536 apart again, but for the last moves.
    expect(positions[0]!.position).toBe(65536);
    const itself = await move(a, a);
    expect(itself.statusCode).toBe(400);
    expect(errorOf(itself)).toBe(COLLECTION_ERRORS.afterItself);
    const outside = await createPost(ctx.app, artist, 'Elsewhere');
    const notIn = await move(a, outside);
    expect(notIn.statusCode).toBe(400);
    expect(errorOf(notIn)).toBe(COLLECTION_ERRORS.afterNotInCollection);
    expect((await move(outside, a)).statusCode).toBe(404);
  });

  it('pages 10,000 works by keyset, in order, and holds no more', async () => {
    const sana = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const collection = await createCollection(sana, { title: 'Ten thousand', visibility: 'public' });
    await queryRows(
      db(),
      sql`with made as (
            insert into posts (author_id, content) select ${artist.user._id}::uuid, 'Sketch ' || n
            from generate_series(1, ${COLLECTION_LIMITS.worksMax}) n returning id, content
          )
          insert into collection_works (collection_id, post_id, position)
          select ${collection._id}::uuid, id, (split_part(content, ' ', 2)::int * 1000) from made`,
    );
    // The first page, and a page's cursor carried on: the keyset reads from the position, never an offset.
    const first = (await call(null, 'GET', `/api/collections/${collection._id}/works?limit=50`)).json();
    expect(first.works.map((work: { post: { content: string } }) => work.post.content).slice(0, 2)).toEqual([
      'Sketch 1',
      'Sketch 2',
    ]);
    const second = (
      await call(null, 'GET', `/api/collections/${collection._id}/works?limit=50&cursor=${first.nextCursor}`)
    ).json();
    expect(second.works[0].post.content).toBe('Sketch 51');
    // The last pages, from the cursor of the work before them (the cursor is its position).
    const nearEnd = encodeCursor([(COLLECTION_LIMITS.worksMax - 60) * 1000]);
    const pages = await walkPages<{ post: { content: string } }>(
      ctx.app,
      (cursor) => `/api/collections/${collection._id}/works?limit=50&cursor=${cursor ?? nearEnd}`,
      'works',
    );
    const contents = pages.flat().map((work) => work.post.content);
    expect(contents).toHaveLength(60);
    expect(contents.at(-1)).toBe(`Sketch ${COLLECTION_LIMITS.worksMax}`);
    const shown = await call(null, 'GET', `/api/users/${sana.user.username}/collections/ten-thousand`);
    expect(shown.json().collection.workCount).toBe(COLLECTION_LIMITS.worksMax);
    const full = await call(sana, 'POST', `/api/collections/${collection._id}/works`, {
      postId: await createPost(ctx.app, artist, 'One too many'),
    });
    expect(full.statusCode).toBe(400);
    expect(errorOf(full)).toBe(COLLECTION_ERRORS.tooManyWorks);
    expect((await call(null, 'GET', `/api/collections/${collection._id}/works?cursor=nope`)).statusCode).toBe(400);
  }, 120_000);
});

describe('Saved, the default private collection', () => {
  it('is the bookmarks, listed first for its owner alone, and a bookmark can go through either API', async () => {
    const sana = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const first = await createPost(ctx.app, artist, 'Bookmarked the old way');
    const second = await createPost(ctx.app, artist, 'Saved the new way');
    // The bookmark API as other clients use it.
    expect((await call(sana, 'POST', `/api/users/bookmark/${first}`)).statusCode).toBe(200);
    const saved = await call(sana, 'POST', '/api/collections/saved/works', { postId: second });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().collection).toMatchObject({ _id: 'saved', kind: 'saved', visibility: 'private', workCount: 2 });
    const bookmarks = (await call(sana, 'GET', '/api/users/bookmark')).json().bookmarks;
    expect(bookmarks.map((post: { _id: string }) => post._id)).toEqual([second, first]);
    expect(await workIds(sana, 'saved')).toEqual([second, first]);

    const mine = await createCollection(sana, { title: 'Mine', visibility: 'private' });
    const list = (await call(sana, 'GET', `/api/users/${sana.user.username}/collections`)).json();
    expect(list.collections.map((c: Collection) => c._id)).toEqual(['saved', mine._id]);
    // A page of one: Saved, then the rest.
    const one = (await call(sana, 'GET', `/api/users/${sana.user.username}/collections?limit=1`)).json();
    expect(one.collections.map((c: Collection) => c._id)).toEqual(['saved']);
    const rest = await call(
      sana,
      'GET',
      `/api/users/${sana.user.username}/collections?limit=1&cursor=${encodeURIComponent(one.nextCursor)}`,
    );
    expect(rest.json().collections.map((c: Collection) => c._id)).toEqual([mine._id]);

    // Nobody else sees Saved or the private collection.
    const other = await signUp(ctx.app);
    expect((await call(other, 'GET', `/api/users/${sana.user.username}/collections`)).json().collections).toEqual([]);
    expect((await call(other, 'GET', `/api/users/${sana.user.username}/collections/saved`)).statusCode).toBe(404);
    expect((await call(sana, 'GET', `/api/users/${sana.user.username}/collections/saved`)).statusCode).toBe(200);
    expect((await call(null, 'GET', '/api/collections/saved/works')).statusCode).toBe(404);

    const menu = await call(sana, 'GET', `/api/posts/${first}/collections`);
    expect(menu.json()).toEqual({ saved: true, collectionIds: [] });
    await addWork(sana, mine._id, { postId: first });
    expect((await call(sana, 'GET', `/api/posts/${first}/collections`)).json()).toEqual({
      saved: true,
      collectionIds: [mine._id],
    });

    // Saved is fixed, and taking a work out is removing the bookmark.
    const rename = await call(sana, 'PATCH', '/api/collections/saved', { title: 'Keep' });
    expect(rename.statusCode).toBe(400);
    expect(errorOf(rename)).toBe(COLLECTION_ERRORS.savedFixed);
    expect((await call(sana, 'DELETE', `/api/collections/saved/works/${first}`)).statusCode).toBe(200);
    expect((await call(sana, 'GET', '/api/users/bookmark')).json().bookmarks).toHaveLength(1);
  });
});

describe('who sees a collection', () => {
  it('shows a private one to its owner alone: lists, address, works, changes and page all 404', async () => {
    const sana = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const hidden = await createCollection(sana, { title: 'Secret board' });
    await addWork(sana, hidden._id, { postId: await createPost(ctx.app, artist, 'Quiet work') });
    const address = `/api/users/${sana.user.username}/collections`;
    for (const who of [other, artist, null]) {
      expect((await call(who, 'GET', address)).json().collections).toEqual([]);
      expect((await call(who, 'GET', `${address}/secret-board`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/collections/${hidden._id}/works`)).statusCode).toBe(404);
    }
    expect((await call(other, 'PATCH', `/api/collections/${hidden._id}`, { title: 'x' })).statusCode).toBe(404);
    expect((await call(other, 'DELETE', `/api/collections/${hidden._id}`)).statusCode).toBe(404);
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/${sana.user.username}/collections/secret-board`,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(404);
    // Its artist was told nothing.
    expect(await collectionNotes(artist)).toEqual([]);
  });

  it('notifies the artist of a work added to a public one, who may take it out; private again, the notification goes', async () => {
    const sana = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const board = await createCollection(sana, { title: 'Figure references', visibility: 'public' });
    const work = await createPost(ctx.app, artist, 'Gesture drawing');
    await addWork(sana, board._id, { postId: work });
    const [note] = await collectionNotes(artist);
    expect(note).toMatchObject({
      kind: 'collection-work',
      actors: [{ username: sana.user.username }],
      post: { _id: work },
      collection: {
        _id: board._id,
        slug: 'figure-references',
        title: 'Figure references',
        username: sana.user.username,
      },
    });
    expect(NOTIFICATION_ACTIONS['collection-work']).toBe('added your work to');
    // Her own works notify nobody.
    await addWork(sana, board._id, { postId: await createPost(ctx.app, sana, 'Mine') });
    expect(await collectionNotes(sana)).toEqual([]);

    // Someone else may not take a work out; the artist may, and the unread notification goes with it.
    const refused = await call(stranger, 'DELETE', `/api/collections/${board._id}/works/${work}`);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toBe(COLLECTION_ERRORS.notOwnerOrArtist);
    const out = await call(artist, 'DELETE', `/api/collections/${board._id}/works/${work}`);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json().collection.workCount).toBe(1);
    expect(await collectionNotes(artist)).toEqual([]);

    // Added again, then the collection made private: every notification naming it goes.
    await addWork(sana, board._id, { postId: work });
    expect(await collectionNotes(artist)).toHaveLength(1);
    await call(artist, 'POST', '/api/notifications/read', { all: true });
    await call(sana, 'PATCH', `/api/collections/${board._id}`, { visibility: 'private' });
    expect(await collectionNotes(artist)).toEqual([]);
    expect((await call(artist, 'DELETE', `/api/collections/${board._id}/works/${work}`)).statusCode).toBe(404);
    // Public again: the artists of its works hear of it.
    await call(sana, 'PATCH', `/api/collections/${board._id}`, { visibility: 'public' });
    expect(await collectionNotes(artist)).toHaveLength(1);
  });

  it('hides each of a blocked pair’s collections from the other, a suspended owner’s, and works moderation took', async () => {
    const sana = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const board = await createCollection(sana, { title: 'Board', visibility: 'public' });
    const works = [
      await createPost(ctx.app, artist, 'One'),
      await createPost(ctx.app, artist, 'Two'),
      await createPost(ctx.app, artist, 'Three'),
    ];
    for (const postId of works) await addWork(sana, board._id, { postId });
    await queryRows(
      db(),
      sql`update posts set moderation_state = 'hidden', moderation_reason = 'Off topic' where id = ${works[1]}::uuid`,
    );
    expect(await workIds(sana, board._id)).toEqual([works[0], works[2]]);
    expect(await workIds(artist, board._id)).toEqual(works);
    await queryRows(db(), sql`update posts set moderation_state = 'removed' where id = ${works[1]}::uuid`);
    expect(await workIds(artist, board._id)).toEqual([works[0], works[2]]);

    const blocked = await signUp(ctx.app);
    const theirs = await createCollection(blocked, { title: 'Theirs', visibility: 'public' });
    expect((await call(sana, 'POST', `/api/users/${blocked.user.username}/block`)).statusCode).toBe(200);
    expect((await call(blocked, 'GET', `/api/users/${sana.user.username}/collections`)).statusCode).toBe(404);
    expect((await call(blocked, 'GET', `/api/collections/${board._id}/works`)).statusCode).toBe(404);
    expect((await call(sana, 'GET', `/api/collections/${theirs._id}/works`)).statusCode).toBe(404);
    expect((await call(null, 'GET', `/api/collections/${board._id}/works`)).statusCode).toBe(200);

    // Signed out, a person who shows works to signed-in people only has none to show.
    await queryRows(db(), sql`update users set works_signed_in_only = true where id = ${sana.user._id}::uuid`);
    expect((await call(null, 'GET', `/api/users/${sana.user.username}/collections`)).json()).toEqual({
      collections: [],
      nextCursor: null,
    });
    expect((await call(null, 'GET', `/api/users/${sana.user.username}/collections/board`)).statusCode).toBe(404);
    expect((await call(artist, 'GET', `/api/users/${sana.user.username}/collections/board`)).statusCode).toBe(200);

    await queryRows(db(), sql`update users set suspended_until = 'infinity' where id = ${sana.user._id}::uuid`);
    expect((await call(artist, 'GET', `/api/collections/${board._id}/works`)).statusCode).toBe(404);
    expect((await call(artist, 'GET', `/api/users/${sana.user.username}/collections`)).json().collections).toEqual([]);
    expect((await call(artist, 'GET', `/api/users/${sana.user.username}/collections/board`)).statusCode).toBe(404);
  });
});

describe('a public collection shared', () => {
  it('draws its page’s head on the server: title, description and cover picture', async () => {
    const sana = await signUp(ctx.app, { fullname: 'Sana Idris' });
    const artist = await signUp(ctx.app);
    const board = await createCollection(sana, {
      title: 'Figure references',
      description: 'Hands & "feet".',
      visibility: 'public',
    });
    const picture = await uploadPicture(ctx.app, artist, 'A hand, drawn in ink');
    await addWork(sana, board._id, { postId: await createPost(ctx.app, artist, 'Hand', [picture._id]) });
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/${sana.user.username}/collections/figure-references`,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Figure references, a collection by Sana Idris · Share Arts</title>');
    expect(page.body).toContain('<meta property="og:description" content="Hands &amp; &quot;feet&quot;.">');
    expect(page.body).toContain(
      `<link rel="canonical" href="${ORIGIN}/${sana.user.username}/collections/figure-references">`,
    );
    expect(page.body).toContain('<meta property="og:image:alt" content="A hand, drawn in ink">');
    const missing = await ctx.app.inject({
      method: 'GET',
      url: `/${sana.user.username}/collections/saved`,
      headers: { accept: 'text/html' },
    });
    expect(missing.statusCode).toBe(404);
  }, 60_000);
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

describe('an account’s collections', () => {
  it('are in its export, and deleting accounts keeps every count right', async () => {
    const sana = await signUp(ctx.app);
    const artist = await signUp(ctx.app);
    const board = await createCollection(sana, { title: 'Exported', visibility: 'public' });
    const [a, b] = [await createPost(ctx.app, artist, 'A'), await createPost(ctx.app, artist, 'B')];
    await addWork(sana, board._id, { postId: a, note: 'First pick' });
    await addWork(sana, board._id, { postId: b, after: null });

    const link = await call(sana, 'POST', '/api/account/export');
    expect(link.statusCode, link.body).toBe(201);
    const entries = await unzip((await ctx.app.inject({ method: 'GET', url: link.json().url })).rawPayload);
    expect(JSON.parse(entries.get('collections.json')!.toString('utf8'))).toEqual([
      expect.objectContaining({
        id: board._id,
        slug: 'exported',
        title: 'Exported',
        visibility: 'public',
        works: [
          expect.objectContaining({ postId: b, note: '' }),
          expect.objectContaining({ postId: a, note: 'First pick' }),
        ],
      }),
    ]);
    expect(JSON.parse(entries.get('profile.json')!.toString('utf8')).settings.allowCollecting).toBe(true);
    expect(entries.get('README.txt')!.toString('utf8')).toContain('collections.json');

    // The artist deletes their account: their works leave the collection, and its count follows.
    expect((await call(artist, 'POST', '/api/account/delete', { password: artist.password })).statusCode).toBe(200);
    const shown = (await call(null, 'GET', `/api/users/${sana.user.username}/collections/exported`)).json();
    expect(shown.collection.workCount).toBe(0);
    const drifted = await queryRows(
      db(),
      sql`select c.id from collections c
          where c.work_count <> (select count(*) from collection_works w where w.collection_id = c.id)`,
    );
    expect(drifted).toEqual([]);

    // Sana deletes hers: the collection goes with it.
    expect((await call(sana, 'POST', '/api/account/delete', { password: sana.password })).statusCode).toBe(200);
    const [left] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from collections where id = ${board._id}::uuid`,
    );
    expect(left!.n).toBe(0);
  });
});
