import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SEARCH_CANDIDATES, prefixEnd } from '../users/index.js';
import { createTestApp, errorOf, signUp, uniqueUsername, type SignedUp, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let tag: string;
let painter: SignedUp;
beforeAll(async () => {
  ctx = await createTestApp();
  tag = `tag${Date.now().toString(36)}`;
  painter = await signUp(ctx.app, { fullname: 'Henriette Vasquez-Oyelaran', username: uniqueUsername('vasq') });
  await signUp(ctx.app, { fullname: 'Someone Different', username: uniqueUsername('zz') });
  for (const content of [
    `Sunset over the lake, oil on linen #${tag}`,
    'Charcoal study of hands',
    `Another sunset, watercolour this time #${tag} #sky`,
    'Sunflowers in a blue jug',
  ]) {
    await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content },
      headers: { authorization: painter.token, prefer: 'return=minimal' },
    });
  }
});
afterAll(() => ctx.close());

const search = async (query: string) => {
  const response = await ctx.app.inject({ method: 'GET', url: `/api/search?${query}` });
  expect(response.statusCode).toBe(200);
  return response.json();
};

describe('GET /api/search', () => {
  it('finds people by part of their name, by username prefix and despite a typo', async () => {
    for (const q of ['Oyelaran', 'oyela', 'henriette', 'Henriete', 'vasq']) {
      const { users } = await search(`type=users&q=${encodeURIComponent(q)}`);
      expect(users.map((u: { _id: string }) => u._id)).toContain(painter.user._id);
      expect(users[0]._id).toBe(painter.user._id);
    }
    const none = await search('type=users&q=qqqqqqqq');
    expect(none.users).toEqual([]);
  });

  it('finds posts by their words, by the start of a word, and by hashtag', async () => {
    const words = await search('type=posts&q=sunset');
    expect(words.posts).toHaveLength(2);
    const prefix = await search('type=posts&q=sunfl');
    expect(prefix.posts.map((p: { content: string }) => p.content)).toEqual(['Sunflowers in a blue jug']);
    const hashtag = await search(`type=posts&q=${encodeURIComponent(`#${tag.toUpperCase()}`)}`);
    expect(hashtag.posts.map((p: { content: string }) => p.content)).toEqual([
      `Another sunset, watercolour this time #${tag} #sky`,
      `Sunset over the lake, oil on linen #${tag}`,
    ]);
    const both = await search('type=posts&q=sunset%20watercolour');
    expect(both.posts).toHaveLength(1);
  });

  it('answers people and posts together, and pages each kind with keyset cursors', async () => {
    const all = await search('q=sunset');
    expect(all).toHaveProperty('users');
    expect(all.posts).toHaveLength(2);
    const first = await search('type=posts&q=sunset&limit=1');
    expect(first.posts).toHaveLength(1);
    const second = await search(`type=posts&q=sunset&limit=1&cursor=${first.nextCursor}`);
    expect(second.posts).toHaveLength(1);
    expect(second.posts[0]._id).not.toBe(first.posts[0]._id);
    expect(second.nextCursor).toBeNull();
  });

  it('never answers from a stale copy: new, edited and deleted posts show in the next search', async () => {
    const word = `zebra${Date.now().toString(36)}`;
    const contents = async () =>
      ((await search(`type=posts&q=${word}`)).posts as { content: string }[]).map((post) => post.content);
    const write = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, payload, headers: { authorization: painter.token, prefer: 'return=minimal' } });
    expect(await contents()).toEqual([]);
    const created = await write('POST', '/api/posts', { content: `A ${word} in ink` });
    expect(await contents()).toEqual([`A ${word} in ink`]);
    const second = await write('POST', '/api/posts', { content: `Two of them: ${word} ${word}` });
    // The better match first: the word twice in a shorter text.
    expect(await contents()).toEqual([`Two of them: ${word} ${word}`, `A ${word} in ink`]);
    await write('POST', `/api/posts/edit/${created.json().post._id}`, { postData: { content: 'A horse in ink' } });
    expect(await contents()).toEqual([`Two of them: ${word} ${word}`]);
    await write('DELETE', `/api/posts/${second.json().post._id}`);
    expect(await contents()).toEqual([]);
  });

  it('never answers people from a stale copy: a new account and a new name show in the next search', async () => {
    const name = `Quillon${Date.now().toString(36)}`;
    const people = async (q: string) =>
      ((await search(`type=users&q=${encodeURIComponent(q)}`)).users as { _id: string }[]).map((u) => u._id);
    expect(await people(name)).toEqual([]);
    const joined = await signUp(ctx.app, { fullname: `Ada ${name}` });
    expect(await people(name)).toEqual([joined.user._id]);
    const renamed = `Rennet${Date.now().toString(36)}`;
    expect(await people(renamed)).toEqual([]);
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: { authorization: joined.token },
      payload: { userData: { lastName: renamed } },
    });
    expect(edit.statusCode).toBe(201);
    expect(await people(renamed)).toEqual([joined.user._id]);
    expect(await people(name)).toEqual([]);
  });

  it('pages a long result without gaps or repeats, and refuses a cursor of another kind', async () => {
    const word = `owl${Date.now().toString(36)}`;
    for (let i = 0; i < 7; i++) {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/posts',
        payload: { content: i % 2 ? `${word} number ${i}` : `${word} ${word} number ${i}` },
        headers: { authorization: painter.token, prefer: 'return=minimal' },
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { posts: { content: string }[]; nextCursor: string | null } = await search(
        `type=posts&q=${word}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.posts.map((post) => post.content));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    // Posts with the word twice rank first, each group newest first.
    expect(seen.slice(0, 4)).toEqual([6, 4, 2, 0].map((i) => `${word} ${word} number ${i}`));
    const wrong = await ctx.app.inject({
      method: 'GET',
      url: `/api/search?type=posts&q=${word}&cursor=${Buffer.from('["x"]').toString('base64url')}`,
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('bounds the people a very common name part brings, best first, and pages them without repeats', async () => {
    const part = `qz${Date.now().toString(36)}`;
    // More people named alike than a search may bring (their usernames do not start with the part).
    await ctx.database.db.execute(sql`
      insert into users (username, first_name, last_name, email, password_hash)
      select 'many_' || i || ${part}, 'Many', ${`${part}son`}, 'many@example.com', 'x'
      from generate_series(1, ${SEARCH_CANDIDATES + 50}) i`);
    const exact = await signUp(ctx.app, { username: part });
    const ids: string[] = [];
    let cursor = '';
    do {
      const page = await search(`type=users&q=${part}&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      ids.push(...page.users.map((u: { _id: string }) => u._id));
      cursor = page.nextCursor ?? '';
    } while (cursor);
    expect(ids[0]).toBe(exact.user._id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(SEARCH_CANDIDATES + 1);
  });

  it('treats LIKE wildcards and punctuation as plain text', async () => {
    expect((await search('type=users&q=%25')).users).toEqual([]);
    expect((await search('type=posts&q=%21%21%21')).posts).toEqual([]);
    expect((await search(`type=users&q=${encodeURIComponent("' or 1=1 --")}`)).users).toEqual([]);
  });

  it('refuses an empty or over-long query with a clear 400', async () => {
    const empty = await ctx.app.inject({ method: 'GET', url: '/api/search?q=' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty)).toBe('query parameter q must not be empty.');
    const blank = await ctx.app.inject({ method: 'GET', url: '/api/search?type=users&q=%20%20' });
    expect(blank.statusCode).toBe(400);
    expect(errorOf(blank)).toBe('query parameter q must contain more than spaces.');
    const long = await ctx.app.inject({ method: 'GET', url: `/api/search?q=${'a'.repeat(101)}` });
    expect(errorOf(long)).toBe('query parameter q must be at most 100 characters long.');
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/search' });
    expect(errorOf(missing)).toBe('query parameter q is required.');
  });
});

describe('prefixEnd', () => {
  it('is the text just above every text with that prefix, in byte order', () => {
    expect(prefixEnd('abc')).toBe('abd');
    expect(prefixEnd('zé')).toBe('zê');
    expect(prefixEnd('a\u{D7FF}')).toBe('a\u{E000}');
    expect(prefixEnd('🎨')).toBe('🎩');
  });
});
