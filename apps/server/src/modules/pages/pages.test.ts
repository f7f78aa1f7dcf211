import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import {
  createPost,
  createTestApp,
  signUp,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';

/**
 * Shared links (issue 22): a post, a profile and a tag page answer the app's index.html with their own
 * title, description, canonical URL, Open Graph and Twitter tags, to browsers and to preview robots that
 * send `Accept: *\/*` or no Accept at all; unknown ones answer 404 with the app's page.
 */

/** The built index.html's shape (vite writes the head script, the entry and its CSS). */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="Share Arts: connect to community and get inspired today." />
    <script src="/assets/head-abc.js"></script>
    <title>Share Arts</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

const ORIGIN = 'https://share.example';
let ctx: TestContext;
let webDistDir: string;
let artist: SignedUp;
let hostile: SignedUp;
let postId: string;
let hostilePostId: string;
let textPostId: string;

const HOSTILE_TEXT = `"><script>alert('x')</script><meta property="og:title" content="pwned"> & more`;

beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-web-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: ORIGIN } });
  artist = await signUp(ctx.app, { fullname: 'Mira Okafor', bio: '' });
  hostile = await signUp(ctx.app, { fullname: `Eve "</title><script>x()</script>` });
  const picture = await uploadPicture(ctx.app, artist, 'A red fox asleep in the snow');
  postId = await createPost(ctx.app, artist, 'Winter fox, oil on linen #foxes #winter', [picture._id]);
  const hostilePicture = await uploadPicture(ctx.app, hostile, `" onload="alert(1)`);
  hostilePostId = await createPost(ctx.app, hostile, HOSTILE_TEXT, [hostilePicture._id]);
  textPostId = await createPost(ctx.app, artist, 'Just words #foxes', []);
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await rm(webDistDir, { recursive: true, force: true });
});

const page = (url: string, accept?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: accept === undefined ? {} : { accept } });

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Every `<meta>` and `<link>` of the head as attribute maps, and the title, as a browser would read them. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const tags = [...head.matchAll(/<(meta|link)\s([^>]*)>/g)].map(([, tag, attributes]) => {
    const map: Record<string, string> = { tag: tag! };
    for (const [, name, value] of attributes!.matchAll(/([a-z:-]+)="([^"]*)"/g)) map[name!] = decode(value!);
    return map;
  });
  const meta = (key: string) => tags.find((tag) => tag.property === key || tag.name === key)?.content;
  const titles = [...head.matchAll(/<title>([^<]*)<\/title>/g)].map(([, title]) => decode(title!));
  return { tags, meta, titles };
}

describe('GET /posts/{postId} as a page', () => {
  it.each([
    ['Accept: text/html', 'text/html,application/xhtml+xml,*/*;q=0.8'],
    ['Accept: */*', '*/*'],
    ['no Accept header', undefined],
  ])('answers the app with the post in its head (%s)', async (_label, accept) => {
    const response = await page(`/posts/${postId}`, accept);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const { meta, tags, titles } = headOf(response.body);
    expect(titles).toEqual(['Mira Okafor on Share Arts: “Winter fox, oil on linen #foxes #winter”']);
    expect(meta('description')).toBe('Winter fox, oil on linen #foxes #winter');
    expect(tags.filter((tag) => tag.name === 'description')).toHaveLength(1);
    expect(tags.find((tag) => tag.rel === 'canonical')?.href).toBe(`${ORIGIN}/posts/${postId}`);
    expect(meta('og:type')).toBe('article');
    expect(meta('og:url')).toBe(`${ORIGIN}/posts/${postId}`);
    expect(meta('og:image')).toMatch(new RegExp(`^${ORIGIN}/media/.+\\.jpg$`));
    // The 1080 px JPEG variant of a 1600 × 1200 picture.
    expect([meta('og:image:width'), meta('og:image:height')]).toEqual(['1080', '810']);
    expect(meta('og:image:alt')).toBe('A red fox asleep in the snow');
    expect(meta('twitter:card')).toBe('summary_large_image');
    // The app itself is still there.
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).toContain('<script src="/assets/head-abc.js"></script>');
  });

  it("preloads the picture the page will draw, with the page's srcset, and inlines the post's API answer", async () => {
    const response = await page(`/posts/${postId}`, 'text/html');
    const api = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json();
    const preloads = headOf(response.body).tags.filter((tag) => tag.rel === 'preload');
    expect(preloads).toEqual([
      {
        tag: 'link',
        rel: 'preload',
        as: 'image',
        type: 'image/avif',
        imagesrcset: api.post.picture.sources[0].srcset,
        imagesizes: expect.stringContaining('(max-width: 560px) 100vw'),
        fetchpriority: 'high',
      },
    ]);
    // Before the head script, which starts the app's requests.
    expect(response.body.indexOf('rel="preload"')).toBeLessThan(response.body.indexOf('head-abc.js'));
    // By the path the app asks it by (the boot script hands it over).
    const inline = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(response.body);
    expect(JSON.parse(inline![1]!)).toEqual({ [`/api/posts/${postId}`]: api });
  });

  it('keeps hostile text, names and alt text inside their attributes', async () => {
    const response = await page(`/posts/${hostilePostId}`, '*/*');
    expect(response.statusCode).toBe(200);
    const head = response.body.slice(0, response.body.indexOf('</head>'));
    expect(head).not.toContain("<script>alert('x')");
    expect(head).not.toContain('<script>x()');
    expect(head).not.toContain('" onload="');
    const { meta, tags, titles } = headOf(response.body);
    expect(meta('og:description')).toBe(HOSTILE_TEXT);
    expect(meta('og:image:alt')).toBe('" onload="alert(1)');
    expect(titles).toHaveLength(1);
    expect(titles[0]).toContain('Eve "</title><script>x()</script>');
    // No tag came from the post's text: a single og:title, the page's own.
    expect(tags.filter((tag) => tag.property === 'og:title')).toHaveLength(1);
    // The inline JSON cannot close its element.
    const inline = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(response.body);
    expect(JSON.parse(inline![1]!)[`/api/posts/${hostilePostId}`].post.content).toBe(HOSTILE_TEXT);
  });

  it('shows a post without a picture with its text and no preload', async () => {
    const { meta, tags } = headOf((await page(`/posts/${textPostId}`)).body);
    expect(meta('og:description')).toBe('Just words #foxes');
    expect(tags.some((tag) => tag.rel === 'preload')).toBe(false);
  });

  it.each([
    ['an unknown post', '/posts/00000000-0000-4000-8000-000000000000'],
    ['a malformed id', '/posts/not-a-post'],
    ['an unknown person', '/nobody_here_at_all'],
    ['a tag nobody used', '/tags/neverusedtag'],
    ['a malformed tag', '/tags/a%20b'],
  ])('answers %s with 404 and the app', async (_label, url) => {
    for (const accept of ['text/html', '*/*', undefined]) {
      const response = await page(url, accept);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root"></div>');
      expect(headOf(response.body).meta('og:image')).toBeUndefined();
    }
  });

  it('answers HEAD with the headers alone', async () => {
    const response = await ctx.app.inject({ method: 'HEAD', url: `/posts/${postId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe('');
  });

  it('answers 304 to a cache that has the same head', async () => {
    const first = await page(`/posts/${postId}`, 'text/html');
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/posts/${postId}`,
      headers: { accept: 'text/html', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('GET /{username} and /tags/{tag} as pages', () => {
  it("shows a profile's name, count and newest work", async () => {
    for (const accept of ['text/html', '*/*', undefined]) {
      const response = await page(`/${artist.user.username.toUpperCase()}`, accept);
      expect(response.statusCode).toBe(200);
      const { meta, tags, titles } = headOf(response.body);
      expect(titles).toEqual([`Mira Okafor (@${artist.user.username}) · Share Arts`]);
      expect(meta('description')).toBe('2 works by Mira Okafor on Share Arts.');
      expect(tags.find((tag) => tag.rel === 'canonical')?.href).toBe(`${ORIGIN}/${artist.user.username}`);
      expect(meta('og:type')).toBe('profile');
      // The newest work has no picture: its author's photo stands in.
      expect(meta('og:image')).toMatch(new RegExp(`^${ORIGIN}/media/`));
      expect(meta('twitter:card')).toBe('summary_large_image');
    }
  });

  it("shows a tag's count and its newest work's picture", async () => {
    const response = await page('/tags/Foxes', '*/*');
    expect(response.statusCode).toBe(200);
    const { meta, tags, titles } = headOf(response.body);
    expect(titles).toEqual(['#foxes · Share Arts']);
    expect(meta('description')).toBe('2 works tagged #foxes on Share Arts.');
    expect(tags.find((tag) => tag.rel === 'canonical')?.href).toBe(`${ORIGIN}/tags/foxes`);
    const winter = headOf((await page('/tags/winter')).body);
    expect(winter.meta('og:image:alt')).toBe('A red fox asleep in the snow');
  });

  it('leaves the other paths as they were', async () => {
    // The app's own pages: the plain app for a browser, a JSON 404 for anything else.
    const settings = await page('/settings', 'text/html');
    expect([settings.statusCode, headOf(settings.body).titles]).toEqual([200, ['Share Arts']]);
    expect((await page('/settings', '*/*')).statusCode).toBe(404);
    expect((await page('/settings')).json()).toEqual({ errors: [expect.any(String)] });
    // The API and media never answer a page.
    for (const url of [`/api/posts/${postId}x`, '/api/nothing', '/media/missing.jpg']) {
      const response = await page(url, '*/*');
      expect([response.statusCode, response.headers['content-type']]).toEqual([404, expect.stringMatching(/json/)]);
    }
    // An API client asking for JSON gets JSON.
    expect((await page(`/posts/${postId}`, 'application/json')).json()).toEqual({ errors: [expect.any(String)] });
  });
});

describe('a work with a content warning (issue 38, item 10)', () => {
  it('has a preview that names the warning and shows no picture, and lends no picture to its tag or artist', async () => {
    const painter = await signUp(ctx.app, { fullname: 'Noor Haddad', bio: '' });
    const picture = await uploadPicture(ctx.app, painter, 'A study of a figure');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { authorization: `Bearer ${painter.token}` },
      payload: { content: 'Life drawing, charcoal #figurestudy', mediaIds: [picture._id], contentWarning: 'nudity' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const warnedId = created.json().post._id as string;

    const response = await page(`/posts/${warnedId}`, '*/*');
    expect(response.statusCode).toBe(200);
    const { meta, tags } = headOf(response.body);
    expect(meta('description')).toBe('Content warning: nudity. Life drawing, charcoal #figurestudy');
    expect(meta('og:description')).toBe('Content warning: nudity. Life drawing, charcoal #figurestudy');
    for (const key of ['og:image', 'og:image:alt', 'twitter:image']) expect(meta(key), key).toBeUndefined();
    // No preview tag carries the picture (the page's own preload of what it draws, covered, stays).
    const previews = tags.filter((tag) => tag.tag === 'meta');
    expect(previews.some((tag) => Object.values(tag).some((value) => value.includes('/media/')))).toBe(false);
    const ld = JSON.parse(response.body.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)![1]!) as Record<
      string,
      unknown
    >;
    expect(ld['@type']).toBe('CreativeWork');
    expect(ld.contentUrl).toBeUndefined();
    expect(ld.contentRating).toBe('nudity');

    // Its tag's and its artist's previews do not take its picture either.
    expect(headOf((await page('/tags/figurestudy')).body).meta('og:image:alt')).toBeUndefined();
    expect(headOf((await page(`/${painter.user.username}`)).body).meta('og:image:alt')).toBe('Noor Haddad');
  });
});

describe('Cross-Origin-Resource-Policy and framing', () => {
  it('lets other sites show media files, and nothing else', async () => {
    const api = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json();
    const picture = await ctx.app.inject({ method: 'GET', url: api.post.picture.url });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const defaultPhoto = await ctx.app.inject({ method: 'GET', url: '/media/defaults/default-avatar.png' });
    expect(defaultPhoto.headers['cross-origin-resource-policy']).toBe('cross-origin');
    for (const url of [`/posts/${postId}`, '/', `/api/posts/${postId}`]) {
      const response = await page(url, 'text/html');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });
});

describe('the public origin', () => {
  it('is PUBLIC_ORIGIN when set, an origin without a path', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://share.example/' }).publicOrigin).toBe('https://share.example');
    expect(loadConfig({}).publicOrigin).toBeUndefined();
    for (const bad of ['share.example', 'ftp://share.example', 'https://share.example/app', 'https://a@b.example']) {
      expect(() => loadConfig({ PUBLIC_ORIGIN: bad }), bad).toThrow(/PUBLIC_ORIGIN must be/);
    }
  });

  it("is the request's Host when unset and the Host is plain, and no absolute URL is made from any other", async () => {
    const local = await createTestApp({ config: { webDistDir } });
    try {
      const plain = await local.app.inject({
        method: 'GET',
        url: `/${artist.user.username}`,
        headers: { host: 'localhost:3000' },
      });
      // Another database: the person is unknown there, but the head is still made from the plain Host.
      expect(plain.statusCode).toBe(404);
      const forged = await local.app.inject({
        method: 'GET',
        url: '/nobody_here_at_all',
        headers: { host: 'evil.example"><script>', accept: 'text/html' },
      });
      expect(forged.body).not.toContain('evil.example');
    } finally {
      await local.close();
    }
  });
});
