import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../test/helpers.js';
import { API_CACHE } from './cache-headers.js';

/**
 * A shared cache in front of the server (a CDN, a corporate proxy) must never hand one reader's answer
 * to another (issue 18): every API route, asked with and without a token, says who may keep its answer
 * and that it varies by Authorization.
 *
 * One exception: an artist's Atom feed is read as a signed-out visitor whoever asks (the token is never
 * used), so its anonymous answer may be kept by any cache for a few minutes (feed readers poll it).
 */
const ATOM_FEED = '/api/users/:username/feed.atom';
const ATOM_ANONYMOUS = 'public, max-age=300';
/** The operators' metrics: stored by nobody, whoever asks (issue 25). */
const METRICS = '/api/metrics';

let ctx: TestContext;
let me: SignedUp;
let postId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  me = await signUp(ctx.app);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { authorization: me.token },
    payload: { content: 'cache me if you can' },
  });
  postId = created.json().post._id;
});
afterAll(() => ctx?.close());

/** A route's URL with every parameter filled in (the post, or the signed-up user). */
const urlOf = (url: string) =>
  url
    .replace(/:(id|postId)\b/g, postId)
    .replace(/:(userId|followUserId)\b/g, me.user._id)
    .replace(/:username\b/g, me.user.username)
    .replace(/:commentId\b/g, postId)
    .replace(/\*$/, '');

const varies = (header: unknown) =>
  String(header ?? '')
    .toLowerCase()
    .split(',')
    .map((field) => field.trim())
    .includes('authorization');

describe('cache headers on every API answer', () => {
  it('covers every route: private and never stored with a token, revalidated without, always varying by Authorization', async () => {
    const routes = ctx.app.apiRoutes.filter((route) => route.url !== '/api/live');
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      for (const signedIn of [false, true]) {
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url: urlOf(route.url),
          headers: signedIn ? { authorization: me.token } : {},
          ...(route.method === 'GET' || route.method === 'HEAD' ? {} : { payload: {} }),
        });
        const label = `${route.method} ${route.url} ${signedIn ? 'with' : 'without'} a token: ${response.statusCode}`;
        const expected = signedIn
          ? API_CACHE.private
          : route.method === 'GET' && route.url === ATOM_FEED && response.statusCode === 200
            ? ATOM_ANONYMOUS
            : route.url === METRICS
              ? API_CACHE.other
              : route.method === 'GET' && response.statusCode < 300
                ? API_CACHE.anonymousRead
                : API_CACHE.other;
        expect(response.headers['cache-control'], label).toBe(expected);
        expect(varies(response.headers.vary), label).toBe(true);
      }
    }
  });

  it('the Atom feed, the one public answer, is the same whoever asks: a token changes nothing in it', async () => {
    expect(ctx.app.apiRoutes.some((route) => route.method === 'GET' && route.url === ATOM_FEED)).toBe(true);
    // Its own artist and work (the test above sent every route, deletes included).
    const artist = await signUp(ctx.app);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { authorization: artist.token },
      payload: { content: 'a work for the feed' },
    });
    expect(created.statusCode).toBe(201);
    const url = ATOM_FEED.replace(':username', artist.user.username);
    const other = await signUp(ctx.app);
    const [anonymous, author, reader] = await Promise.all(
      [undefined, artist.token, other.token].map((token) =>
        ctx.app.inject({ method: 'GET', url, headers: token ? { authorization: token } : {} }),
      ),
    );
    expect(anonymous!.statusCode).toBe(200);
    expect(anonymous!.body).toContain('a work for the feed');
    expect(anonymous!.headers['cache-control']).toBe(ATOM_ANONYMOUS);
    for (const [who, response] of [
      ['its author', author!],
      ['another reader', reader!],
    ] as const) {
      expect(response.statusCode, who).toBe(200);
      expect(response.body, who).toBe(anonymous!.body);
      expect(response.headers.etag, who).toBe(anonymous!.headers.etag);
      // Asked with a token, the usual rule still holds: nothing kept.
      expect(response.headers['cache-control'], who).toBe(API_CACHE.private);
    }
    // Any other public read stays revalidated (the exception is that one route).
    const post = await ctx.app.inject({ method: 'GET', url: `/api/posts/${created.json().post._id}` });
    expect(post.statusCode).toBe(200);
    expect(post.headers['cache-control']).toBe(API_CACHE.anonymousRead);
  });

  it('keeps compression negotiable beside it, and leaves media and pictures public', async () => {
    // The API document is well past the 1 KB that compression starts at.
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'br' },
    });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toMatch(/authorization/i);
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    const avatar = await ctx.app.inject({
      method: 'GET',
      url: '/media/defaults/default-avatar.png',
      headers: { authorization: me.token },
    });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('a signed-in answer with the viewer’s own data is never stored', async () => {
    // Its own account: the test above asked every route with `me`'s token, LOG OUT among them.
    const me = await signUp(ctx.app);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: me.user.username, password: me.password },
    });
    expect(login.statusCode).toBe(200);
    // No token asked for it, but a token (and the email) is in it: no-store all the same.
    expect(login.headers['cache-control']).toBe(API_CACHE.other);
    const profile = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${me.user._id}`,
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(profile.json().user.email).toBeDefined();
    expect(profile.headers['cache-control']).toBe('private, no-store');
  });
});
