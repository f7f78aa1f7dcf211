import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/**
 * "Show my works to signed-in people only" (issue 22): a signed-out reader finds none of that person's posts
 * (one post, Explore, the profile's list, search, hashtags, comments, link previews); anyone signed in sees
 * them as before, and turning the option off shows them again.
 */

let ctx: TestContext;
let webDistDir: string;
let shy: SignedUp;
let open: SignedUp;
let reader: SignedUp;
let shyPost: string;
let openPost: string;
const WORD = `quietword${process.pid}`;
const TAG = `quiettag${process.pid}`;

const INDEX_HTML =
  '<!doctype html><html><head><meta charset="UTF-8" /><title>Share Arts</title></head><body><div id="root"></div></body></html>';

async function post(who: SignedUp, content: string): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content },
    headers: { authorization: who.token, prefer: 'return=minimal' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post._id;
}

const setOption = (who: SignedUp, worksSignedInOnly: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData: { worksSignedInOnly } },
    headers: { authorization: who.token },
  });

const get = (url: string, who?: SignedUp) =>
  ctx.app.inject({ method: 'GET', url, headers: who ? { authorization: who.token } : {} });

const ids = (posts: { _id: string }[]) => posts.map((p) => p._id);

beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-web-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: 'https://share.example' } });
  [shy, open, reader] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
  shyPost = await post(shy, `A ${WORD} sketch #${TAG}`);
  openPost = await post(open, `Another ${WORD} sketch #${TAG}`);
  await ctx.app.inject({
    method: 'POST',
    url: `/api/comments/add/${shyPost}`,
    payload: { commentData: { content: 'Lovely' } },
    headers: { authorization: reader.token },
  });
  expect((await setOption(shy, true)).statusCode).toBe(201);
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await rm(webDistDir, { recursive: true, force: true });
});

describe('the option', () => {
  it('is part of the user, and only a boolean is taken', async () => {
    const me = await get(`/api/users/by-username/${shy.user.username}`);
    expect(me.json().user.worksSignedInOnly).toBe(true);
    expect((await get(`/api/users/by-username/${open.user.username}`)).json().user.worksSignedInOnly).toBe(false);
    const bad = await setOption(shy, 'yes');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toMatch(/worksSignedInOnly/);
  });
});

describe('signed out', () => {
  it('finds no post of that person anywhere', async () => {
    const one = await get(`/api/posts/${shyPost}`);
    expect(one.statusCode).toBe(404);
    expect((await get(`/api/comments/${shyPost}`)).statusCode).toBe(404);

    const explore = ids((await get('/api/posts?limit=50')).json().posts);
    expect(explore).toContain(openPost);
    expect(explore).not.toContain(shyPost);

    const profile = await get(`/api/posts/user/${shy.user.username}`);
    expect([profile.statusCode, profile.json().posts]).toEqual([200, []]);

    const words = ids((await get(`/api/search?q=${WORD}`)).json().posts ?? []);
    expect(words).toEqual([openPost]);
    const tagged = ids((await get(`/api/search?q=${encodeURIComponent(`#${TAG}`)}`)).json().posts ?? []);
    expect(tagged).toEqual([openPost]);
  });

  it('gets a preview that names the site alone, and no art', async () => {
    for (const url of [`/posts/${shyPost}`, `/${shy.user.username}`]) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<title>Share Arts</title>');
      expect(response.body).not.toContain('og:image');
      expect(response.body).not.toContain(WORD);
      expect(response.body).not.toContain('page-data');
    }
    // The tag's preview counts and shows only what a visitor may see.
    const tag = await ctx.app.inject({ method: 'GET', url: `/tags/${TAG}` });
    expect(tag.body).toContain(`1 work tagged #${TAG}`);
  });
});

describe('signed in', () => {
  it('sees those posts as before, and everyone does once the option is off', async () => {
    expect((await get(`/api/posts/${shyPost}`, reader)).statusCode).toBe(200);
    expect((await get(`/api/comments/${shyPost}`, reader)).statusCode).toBe(200);
    expect(ids((await get('/api/posts?limit=50', reader)).json().posts)).toContain(shyPost);
    expect(ids((await get(`/api/posts/user/${shy.user.username}`, reader)).json().posts)).toEqual([shyPost]);
    expect(ids((await get(`/api/search?q=${WORD}`, reader)).json().posts ?? []).sort()).toEqual(
      [shyPost, openPost].sort(),
    );

    expect((await setOption(shy, false)).json().user.worksSignedInOnly).toBe(false);
    expect((await get(`/api/posts/${shyPost}`)).statusCode).toBe(200);
    expect(ids((await get(`/api/posts/user/${shy.user.username}`)).json().posts)).toEqual([shyPost]);
    expect((await setOption(shy, true)).statusCode).toBe(201);
  });
});
