import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_LANGUAGE_ERRORS, type Draft, type Post, type PostHistoryPage } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * A post declares its language (issue 43): a BCP 47 tag kept in its canonical form, on create and edit (null clears
 * it), answered on the post, kept in the work's history like any other change, and carried by a draft to the post
 * it becomes. Malformed tags are refused with a sentence that says what to send.
 */

let ctx: TestContext;
let artist: SignedUp;
let reader: SignedUp;

const as = (who: SignedUp) => ({ authorization: who.token });

const create = (who: SignedUp, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: '/api/posts', payload, headers: { ...as(who), prefer: 'return=minimal' } });

async function createOk(who: SignedUp, payload: Record<string, unknown>): Promise<Post> {
  const response = await create(who, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post;
}

const edit = (who: SignedUp, id: string, postData: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/posts/edit/${id}`,
    payload: { postData },
    headers: { ...as(who), prefer: 'return=minimal' },
  });

async function read(id: string, who?: SignedUp): Promise<Post> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/posts/${id}`, headers: who ? as(who) : {} });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().post;
}

async function storedLanguage(id: string): Promise<string | null> {
  const [row] = await queryRows<{ language: string | null }>(
    ctx.database.db,
    sql`select language from posts where id = ${id}::uuid`,
  );
  return row!.language;
}

async function history(id: string): Promise<PostHistoryPage> {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/posts/${id}/history`, headers: as(reader) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  ctx = await createTestApp();
  [artist, reader] = [await signUp(ctx.app), await signUp(ctx.app)];
});
afterAll(() => ctx?.close());

describe("a post's language", () => {
  it('is kept in its canonical form on create and answered on the post, in lists and to any reader', async () => {
    const post = await createOk(artist, { content: 'Um estudo de luz', language: 'PT-br' });
    expect(post.language).toBe('pt-BR');
    expect(await storedLanguage(post._id)).toBe('pt-BR');
    expect((await read(post._id, reader)).language).toBe('pt-BR');
    // Through the post cache, as a list reads it.
    const list = await ctx.app.inject({ method: 'GET', url: `/api/posts/user/${artist.user.username}` });
    const listed = (list.json().posts as Post[]).find((p) => p._id === post._id);
    expect(listed?.language).toBe('pt-BR');
  });

  it('is null when not said, and null on create means not said', async () => {
    const silent = await createOk(artist, { content: 'No words about words' });
    expect(silent.language).toBeNull();
    const cleared = await createOk(artist, { content: 'Said to be unsaid', language: null });
    expect(cleared.language).toBeNull();
    expect(await storedLanguage(cleared._id)).toBeNull();
  });

  it('refuses a malformed tag with a sentence that says what to send, and writes nothing', async () => {
    const before = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from posts where author_id = ${artist.user._id}::uuid`,
    );
    // Refused by the body's schema (not a tag's shape, too long) and by the canonical form (`en-a`: a lone singleton).
    for (const language of [
      'english please',
      'en_US',
      '',
      `en-${'abcdefgh-'.repeat(4)}x`,
      'en-a',
      'de-1996-1996',
      'hacked-value',
    ]) {
      const response = await create(artist, { content: 'Refused', language });
      expect(response.statusCode, `${language}: ${response.body}`).toBe(400);
      expect(errorOf(response)).toBe(POST_LANGUAGE_ERRORS.malformed);
    }
    const after = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from posts where author_id = ${artist.user._id}::uuid`,
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('changes on edit like any other field: kept in the history, null clears it, left out keeps it', async () => {
    const post = await createOk(artist, { content: 'A sketch of the harbour' });
    const set = await edit(artist, post._id, { language: 'ja' });
    expect(set.statusCode, set.body).toBe(201);
    expect(set.json().post.language).toBe('ja');
    expect(set.json().post.editedAt).toBeDefined();

    // The history says what changed, before and after, to anyone who sees the post.
    const [revision] = (await history(post._id)).revisions;
    expect(revision!.changed).toEqual(['language']);
    expect(revision!.before).toEqual({ language: null });
    expect(revision!.after).toEqual({ language: 'ja' });

    // Another field alone leaves the language as it is.
    const words = await edit(artist, post._id, { content: '港のスケッチ' });
    expect(words.json().post.language).toBe('ja');

    // The same language again (in another case) changes nothing: no new revision.
    const same = await edit(artist, post._id, { language: 'JA' });
    expect(same.statusCode, same.body).toBe(201);
    expect((await history(post._id)).revisions).toHaveLength(2);

    // Null clears it.
    const cleared = await edit(artist, post._id, { language: null });
    expect(cleared.json().post.language).toBeNull();
    expect(await storedLanguage(post._id)).toBeNull();
    const [latest] = (await history(post._id)).revisions;
    expect(latest!.changed).toEqual(['language']);
    expect(latest!.before).toEqual({ language: 'ja' });
    expect(latest!.after).toEqual({ language: null });

    const refused = await edit(artist, post._id, { language: 'not a language' });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe(POST_LANGUAGE_ERRORS.malformed);
    expect(await storedLanguage(post._id)).toBeNull();
  });
});

describe("a draft's language", () => {
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: as(artist), ...(payload ? { payload } : {}) });

  it('is kept by the draft, changed by a save and posted with it', async () => {
    const created = await call('POST', '/api/drafts', { content: 'Work in progress', language: 'es' });
    expect(created.statusCode, created.body).toBe(201);
    const draft: Draft = created.json().draft;
    expect(draft.language).toBe('es');

    const saved = await call('PUT', `/api/drafts/${draft._id}`, { revision: draft.revision, language: 'AR' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().draft.language).toBe('ar');
    // A save that leaves it out keeps it.
    const again = await call('PUT', `/api/drafts/${draft._id}`, { revision: draft.revision + 1, content: 'لوحة' });
    expect(again.json().draft.language).toBe('ar');

    const published = await call('POST', `/api/drafts/${draft._id}/publish`);
    expect(published.statusCode, published.body).toBe(201);
    const post: Post = published.json().post;
    expect(post.language).toBe('ar');
    expect(await storedLanguage(post._id)).toBe('ar');
  });

  it('is null when not said, and a malformed one is refused', async () => {
    const plain = await call('POST', '/api/drafts', { content: 'Undeclared' });
    expect(plain.json().draft.language).toBeNull();
    const refused = await call('POST', '/api/drafts', { content: 'Refused', language: 'en_GB' });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe(POST_LANGUAGE_ERRORS.malformed);
  });
});
