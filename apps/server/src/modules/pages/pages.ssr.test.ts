import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPost,
  createTestApp,
  signUp,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { hash } from 'node:crypto';
import { buildDrawnWebApp, stylesheetText } from '../../test/drawn-web-app.js';

/**
 * The first paint shows the art (issue 22): with the web app's server render built (apps/web
 * src/entry-server.tsx, built here as `npm run build` does), a shared page's HTML carries the page itself in
 * `#root`, drawn by the app's own components: the picture with the srcset and alt the API gives, the
 * post's text escaped by React, and nothing for an unknown page.
 */

const HOSTILE_TEXT = `<script>alert('x')</script><img src=x onerror="alert(2)"> & more`;

let ctx: TestContext;
let drawn: Awaited<ReturnType<typeof buildDrawnWebApp>>;
let artist: SignedUp;
let postId: string;
let hostilePostId: string;

beforeAll(async () => {
  drawn = await buildDrawnWebApp(
    {
      post: ['/assets/shell-abc.css', '/assets/post-page-abc.css'],
      tag: ['/assets/shell-abc.css', '/assets/tag-page-abc.css'],
    },
    // Its address would be read against the page's instead of its file's, written inline.
    { '/assets/tag-page-abc.css': '.tag{background:url(images/paper.png)}' },
  );
  const { webDistDir } = drawn;
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: 'https://share.example' } });
  artist = await signUp(ctx.app, { fullname: 'Mira Okafor' });
  const picture = await uploadPicture(ctx.app, artist, 'A blue heron, "standing" <still>');
  postId = await createPost(ctx.app, artist, 'Heron at dawn #birds', [picture._id]);
  const hostilePicture = await uploadPicture(ctx.app, artist, `" onload="alert(1)`);
  hostilePostId = await createPost(ctx.app, artist, HOSTILE_TEXT, [hostilePicture._id]);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await drawn?.remove();
});

const page = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.lastIndexOf('</body>'));

describe('a shared post page rendered on the server', () => {
  it('draws the picture in the HTML, with the srcset, sizes and alt the app gives it', async () => {
    const response = await page(`/posts/${postId}`);
    expect(response.statusCode).toBe(200);
    const root = rootOf(response.body);
    const { post } = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json();
    for (const source of post.picture.sources as { type: string; srcset: string }[]) {
      expect(root).toContain(`<source type="${source.type}" srcSet="${source.srcset}"`);
    }
    // In the wrapper that hides it from someone signed in, and that the app's first render replaces.
    expect(root.startsWith('<div id="root"><div class="server-drawn">')).toBe(true);
    expect(root).toMatch(/<picture[^>]*>/);
    expect(root).toContain(`src="${post.picture.url}"`);
    expect(root).toContain('alt="A blue heron, &quot;standing&quot; &lt;still&gt;"');
    expect(root).toContain('Heron at dawn');
    // As a visitor sees it: the header asks to sign in, and comes back here afterwards.
    expect(root).toContain(`href="/login?next=%2Fposts%2F${postId}"`);
    // The head is still the page's own.
    expect(response.body).toContain('<title>Mira Okafor on Share Arts: “Heron at dawn #birds”</title>');
  });

  it("names the app's scripts for the boot script to load once the page is painted, in place of their tags", async () => {
    const head = (await page(`/posts/${postId}`)).body.split('</head>')[0]!;
    expect(head).toContain('<meta name="app-scripts" content="/assets/index-abc.js /assets/react-abc.js">');
    expect(head).not.toContain('<script type="module"');
    expect(head).not.toContain('rel="modulepreload"');
    // The head script still runs in place (it loads the boot script).
    expect(head).toContain('<script>document.documentElement');
  });

  it("is drawn styled without a request: the app's stylesheets and the route's inline, before the head script", async () => {
    const body = (await page(`/posts/${postId}`)).body;
    const head = body.slice(0, body.indexOf('</head>'));
    // In the order the app adds them (its own, then the route's), each with a disabled link of its address that
    // a browser never fetches and that keeps the app from adding it again.
    const inline = ['/assets/index-abc.css', '/assets/shell-abc.css', '/assets/post-page-abc.css'].map(
      (href) => `<style>${stylesheetText(href)}</style><link rel="stylesheet" crossorigin href="${href}" disabled>`,
    );
    expect(head).toContain(inline.join('\n    '));
    expect(head).not.toMatch(/<link rel="stylesheet" crossorigin href="[^"]+">/);
    expect(head.indexOf(inline[0]!)).toBeLessThan(head.indexOf('<script>document.documentElement'));
  });

  it("keeps a stylesheet as files when one can't be moved inline (an address relative to its file)", async () => {
    const head = (await page('/tags/birds')).body.split('</head>')[0]!;
    expect(head).not.toContain('<style>');
    expect(head).not.toContain('app-scripts');
    expect(head).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css">');
    expect(head).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/shell-abc.css">\n    <link rel="stylesheet" crossorigin href="/assets/tag-page-abc.css">',
    );
  });

  it("lets the build's inline head script run by its hash, and nothing else inline", async () => {
    const csp = String((await page(`/posts/${postId}`)).headers['content-security-policy']);
    const digest = hash('sha256', "document.documentElement.dataset.theme = 'light';", 'base64');
    expect(/script-src ([^;]*)/.exec(csp)?.[1]).toBe(`'self' 'sha256-${digest}'`);
  });

  it('escapes what the artist wrote: no markup of theirs in the page', async () => {
    const root = rootOf((await page(`/posts/${hostilePostId}`)).body);
    expect(root).toContain('&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;');
    expect(root).not.toContain("<script>alert('x')");
    expect(root).not.toContain('<img src=x');
    expect(root).toContain('alt="&quot; onload=&quot;alert(1)"');
    expect(root).not.toMatch(/<script/);
  });

  it('answers an unknown post with 404 and the empty app', async () => {
    const response = await page('/posts/00000000-0000-4000-8000-000000000000');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it("carries the answers it was drawn from, by the app's paths, for the app's first render", async () => {
    const body = (await page(`/posts/${postId}`)).body;
    const inline = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(body);
    const api = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}` })).json();
    expect(JSON.parse(inline![1]!)).toEqual({
      [`/api/posts/${postId}`]: api,
      // The series the work is in (issue 41): none.
      [`/api/posts/${postId}/series`]: { series: [] },
    });
  });

  it('renders each request afresh: two posts in a row each show their own', async () => {
    const [first, second] = await Promise.all([page(`/posts/${postId}`), page(`/posts/${hostilePostId}`)]);
    expect(rootOf(first.body)).toContain('Heron at dawn');
    expect(rootOf(first.body)).not.toContain('onerror');
    expect(rootOf(second.body)).not.toContain('Heron at dawn');
  });
});

describe('a shared profile and tag page rendered on the server', () => {
  it("draws the artist's works in the profile's grid, the first with its picture's srcset", async () => {
    const response = await page(`/${artist.user.username}`);
    expect(response.statusCode).toBe(200);
    const root = rootOf(response.body);
    expect(root).toContain('Mira Okafor');
    // The newest work's picture is in the HTML; the grid's later ones wait until the browser sees them near.
    const { post } = (await ctx.app.inject({ method: 'GET', url: `/api/posts/${hostilePostId}` })).json();
    expect(root).toContain(`srcSet="${post.picture.sources[0].srcset}"`);
    // A grid's box is named by its link (the picture's alt, the artist, the counts), escaped.
    expect(root).toContain(`aria-label="A blue heron, &quot;standing&quot; &lt;still&gt;, by @${artist.user.username}`);
    expect(root).toContain('aria-label="&quot; onload=&quot;alert(1), by');
    const inline = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(response.body);
    expect(Object.keys(JSON.parse(inline![1]!))).toEqual([
      `/api/users/by-username/${artist.user.username}`,
      `/api/users/${artist.user.username}/pins?limit=12&sort=latest`,
      `/api/posts/user/${artist.user.username}?limit=12&sort=latest`,
      `/api/users/${artist.user.username}/series`,
    ]);
  });

  it("draws a tag's works, in the address's sort", async () => {
    for (const url of ['/tags/birds', '/tags/birds?sort=trending']) {
      const response = await page(url);
      expect(response.statusCode).toBe(200);
      const root = rootOf(response.body);
      expect(root).toContain('#birds');
      expect(root).toContain('aria-label="A blue heron, &quot;standing&quot; &lt;still&gt;, by @');
      expect(root).toMatch(/<picture[^>]*><source type="image\/avif" srcSet="[^"]+-320\.avif 320w/);
      const inline = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(response.body);
      const sort = url.endsWith('trending') ? 'trending' : 'latest';
      expect(Object.keys(JSON.parse(inline![1]!))).toEqual([
        '/api/tags/birds',
        `/api/tags/birds/posts?limit=12&sort=${sort}`,
      ]);
    }
  });

  it('answers an unknown person and an unused tag with 404 and the empty app', async () => {
    for (const url of ['/nobody_here_at_all', '/tags/neverusedtag']) {
      const response = await page(url);
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<div id="root"></div>');
    }
  });
});

describe('a shared page drawn in the visitor’s language (issue 43)', () => {
  const inLanguage = (url: string, headers: Record<string, string>) =>
    ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

  it('is drawn with its `<html lang dir>` and head in that language, styled inline or with its files', async () => {
    const arabic = await inLanguage(`/posts/${postId}`, { 'accept-language': 'ar-EG,ar;q=0.9' });
    expect(arabic.statusCode).toBe(200);
    expect(arabic.body.startsWith('<!doctype html>\n<html lang="ar" dir="rtl">\n')).toBe(true);
    expect(arabic.body).toContain('<title>Mira Okafor على Share Arts: «Heron at dawn #birds»</title>');
    expect(arabic.body).toContain('<style>');
    expect(rootOf(arabic.body)).toContain('Heron at dawn');
    // The tag page keeps its stylesheets as files (see above); its language is on its `<html>` all the same.
    const japanese = await inLanguage('/tags/birds', { cookie: 'locale=ja' });
    expect(japanese.body).toContain('<html lang="ja">');
    expect(japanese.body).not.toContain('<style>');
    expect(rootOf(japanese.body)).toContain('#birds');
  });
});
