import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('treats LIKE wildcards and punctuation as plain text', async () => {
    expect((await search('type=users&q=%25')).users).toEqual([]);
    expect((await search('type=posts&q=%21%21%21')).posts).toEqual([]);
    expect((await search(`type=users&q=${encodeURIComponent("' or 1=1 --")}`)).users).toEqual([]);
  });

  it('refuses an empty or over-long query with a clear 400', async () => {
    const empty = await ctx.app.inject({ method: 'GET', url: '/api/search?q=' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty)).toBe('query parameter q must not be empty.');
    const long = await ctx.app.inject({ method: 'GET', url: `/api/search?q=${'a'.repeat(101)}` });
    expect(errorOf(long)).toBe('query parameter q must be at most 100 characters long.');
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/search' });
    expect(errorOf(missing)).toBe('query parameter q is required.');
  });
});
