import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPost,
  createTestApp,
  signUp,
  uploadPicture,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';

/**
 * Shared pages in the visitor's language (issue 43): the site's words in a shared page's head (its title, description
 * and preview, the structured data's notice, the feed's name) and the page's `<html lang dir>` follow the language
 * saved in the browser (the `locale` cookie the web app writes), else the browser's Accept-Language, else English.
 * The artists' words in them (names, titles, text, tags, warnings) are never translated, and an English page is
 * byte for byte what it was.
 */

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
let postId: string;
let warnedId: string;

beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-web-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: ORIGIN } });
  artist = await signUp(ctx.app, { fullname: 'Mira Okafor', bio: '' });
  const picture = await uploadPicture(ctx.app, artist, 'A red fox asleep in the snow');
  postId = await createPost(ctx.app, artist, 'Winter fox, oil on linen #kitsune', [picture._id]);
  const warned = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { authorization: `Bearer ${artist.token}` },
    payload: {
      content: 'Life drawing, charcoal #kitsune',
      mediaIds: [(await uploadPicture(ctx.app, artist, 'A figure'))._id],
      contentWarning: 'nudity',
    },
  });
  expect(warned.statusCode, warned.body).toBe(201);
  warnedId = warned.json().post._id;
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await rm(webDistDir, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The `<html>` tag, the title, the `<meta>` and `<link>` tags and the structured data, as a browser reads them. */
function read(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const tags = [...head.matchAll(/<(meta|link)\s([^>]*)>/g)].map(([, tag, attributes]) => {
    const map: Record<string, string> = { tag: tag! };
    for (const [, name, value] of attributes!.matchAll(/([a-z:-]+)="([^"]*)"/g)) map[name!] = decode(value!);
    return map;
  });
  const ld = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(head)?.[1];
  return {
    html: /<html[^>]*>/.exec(html)?.[0],
    title: decode(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? ''),
    meta: (key: string) => tags.find((tag) => tag.property === key || tag.name === key)?.content,
    link: (rel: string) => tags.find((tag) => tag.tag === 'link' && tag.rel === rel),
    ld: ld ? (JSON.parse(ld) as Record<string, unknown>) : undefined,
  };
}

describe('a shared page in the language the browser asks for', () => {
  it("writes a post's head in Japanese, with the artist's words as they are", async () => {
    const response = await page(`/posts/${postId}`, { 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.5' });
    expect(response.statusCode).toBe(200);
    const head = read(response.body);
    expect(head.html).toBe('<html lang="ja">');
    expect(head.title).toBe('Share ArtsのMira Okaforさん：「Winter fox, oil on linen #kitsune」');
    expect(head.meta('og:title')).toBe(head.title);
    // The post's own text is its description, untranslated.
    expect(head.meta('description')).toBe('Winter fox, oil on linen #kitsune');
    expect(head.meta('og:locale')).toBe('ja_JP');
    // The site's name is a name.
    expect(head.meta('og:site_name')).toBe('Share Arts');
    expect(head.meta('og:image:alt')).toBe('A red fox asleep in the snow');
    expect(head.ld?.copyrightNotice).toBe('© Mira Okafor. 無断転載・複製を禁じます。');
    expect(response.headers['content-language']).toBe('ja');
  });

  it("says a work, a warned work and a profile in the reader's language", async () => {
    const spanish = read((await page(`/posts/${postId}`, { 'accept-language': 'es-MX' })).body);
    expect(spanish.html).toBe('<html lang="es">');
    expect(spanish.title).toBe('Mira Okafor en Share Arts: «Winter fox, oil on linen #kitsune»');
    expect(spanish.meta('og:locale')).toBe('es_ES');

    const warned = read((await page(`/posts/${warnedId}`, { 'accept-language': 'pt-BR' })).body);
    // The warning is the artist's word; the sentence around it is ours.
    expect(warned.meta('description')).toBe('Aviso de conteúdo: nudity. Life drawing, charcoal #kitsune');

    const profile = read((await page(`/${artist.user.username}`, { 'accept-language': 'ja' })).body);
    expect(profile.title).toBe(`Mira Okafor (@${artist.user.username}) · Share Arts`);
    expect(profile.meta('description')).toBe('Share ArtsでMira Okaforさんの作品を2点公開中です。');
  });

  it("lays an Arabic page out right to left, and counts a tag's works with Arabic's plural forms", async () => {
    const response = await page('/tags/kitsune', { 'accept-language': 'ar' });
    expect(response.statusCode).toBe(200);
    const head = read(response.body);
    expect(head.html).toBe('<html lang="ar" dir="rtl">');
    expect(head.title).toBe('#kitsune · Share Arts');
    // Two works: Arabic's dual.
    expect(head.meta('description')).toBe('عملان موسومان بـ #kitsune على Share Arts.');
    expect(head.meta('og:locale')).toBe('ar_AR');
    expect(read((await page('/tags/nosuchtagatall', { 'accept-language': 'ar' })).body).title).toBe(
      'غير موجودة · Share Arts',
    );
  });

  it("names a series, its feed and a collection in the reader's language", async () => {
    const as = { authorization: `Bearer ${artist.token}` };
    const series = await ctx.app.inject({
      method: 'POST',
      url: '/api/series',
      headers: as,
      payload: { title: 'Foxes' },
    });
    expect(series.statusCode, series.body).toBe(201);
    const { _id: seriesId, slug } = series.json().series as { _id: string; slug: string };
    const added = await ctx.app.inject({
      method: 'POST',
      url: `/api/series/${seriesId}/works`,
      headers: as,
      payload: { postId },
    });
    expect(added.statusCode, added.body).toBe(201);
    const seriesPage = read((await page(`/${artist.user.username}/series/${slug}`, { 'accept-language': 'ja' })).body);
    expect(seriesPage.title).toBe('Mira Okaforさんのシリーズ「Foxes」 · Share Arts');
    expect(seriesPage.meta('description')).toBe('Share Artsで公開中の、Mira Okaforさんによる全1点のシリーズです。');
    expect(seriesPage.link('alternate')?.title).toBe('Foxes（Atom）');

    const board = await ctx.app.inject({
      method: 'POST',
      url: '/api/collections',
      headers: as,
      payload: { title: 'Winter', visibility: 'public' },
    });
    expect(board.statusCode, board.body).toBe(201);
    const collection = board.json().collection as { slug: string };
    const collectionPage = read(
      (await page(`/${artist.user.username}/collections/${collection.slug}`, { 'accept-language': 'es' })).body,
    );
    expect(collectionPage.title).toBe('Winter, una colección de Mira Okafor · Share Arts');
    expect(collectionPage.meta('description')).toBe('Una colección de 0 obras reunidas por Mira Okafor en Share Arts.');
  });

  it("takes the language saved in the browser (its cookie) over the browser's languages", async () => {
    const saved = await page(`/posts/${postId}`, { 'accept-language': 'ja', cookie: 'theme=dark; locale=ar' });
    expect(read(saved.body).html).toBe('<html lang="ar" dir="rtl">');
    expect(read(saved.body).title).toBe('Mira Okafor على Share Arts: «Winter fox, oil on linen #kitsune»');
    // A cookie that names no language of ours, or that cannot be read, leaves the choice to Accept-Language.
    for (const cookie of ['locale=fr', 'locale=%E0%A4%A', 'locale', ';;=;locale==ja=;', `locale=${'e'.repeat(5000)}`]) {
      const response = await page(`/posts/${postId}`, { 'accept-language': 'es', cookie });
      expect(response.statusCode, cookie).toBe(200);
      expect(read(response.body).html, cookie).toBe('<html lang="es">');
    }
    // The cookie alone is enough.
    expect(read((await page(`/posts/${postId}`, { cookie: 'locale=pt-BR' })).body).html).toBe('<html lang="pt-BR">');
  });

  it('says which headers the page depends on, and gives each language its own ETag', async () => {
    const english = await page(`/posts/${postId}`);
    const japanese = await page(`/posts/${postId}`, { 'accept-language': 'ja' });
    for (const response of [english, japanese]) {
      const vary = String(response.headers.vary)
        .split(',')
        .map((name) => name.trim().toLowerCase());
      expect(vary).toEqual(expect.arrayContaining(['accept', 'accept-language', 'cookie']));
    }
    expect(japanese.headers.etag).not.toBe(english.headers.etag);
    // A cache holding the English page is not told the Japanese one is the same.
    const revalidated = await page(`/posts/${postId}`, {
      'accept-language': 'ja',
      'if-none-match': String(english.headers.etag),
    });
    expect(revalidated.statusCode).toBe(200);
    expect(read(revalidated.body).html).toBe('<html lang="ja">');
  });

  it('leaves an English page as it was: without Accept-Language, in English, or in a language we do not speak', async () => {
    const plain = await page(`/posts/${postId}`);
    const head = read(plain.body);
    expect(head.html).toBe('<html lang="en">');
    expect(head.title).toBe('Mira Okafor on Share Arts: “Winter fox, oil on linen #kitsune”');
    expect(head.meta('og:locale')).toBeUndefined();
    expect(head.ld?.copyrightNotice).toBe('© Mira Okafor. All rights reserved.');
    for (const headers of [{ 'accept-language': 'en-GB,en;q=0.8' }, { 'accept-language': 'fr-FR,de;q=0.7' }]) {
      const response = await page(`/posts/${postId}`, headers);
      expect(response.body).toBe(plain.body);
      expect(response.headers.etag).toBe(plain.headers.etag);
    }
    expect(read((await page('/tags/nosuchtagatall')).body).title).toBe('Not found · Share Arts');
    const generic = read((await page('/tags/kitsune')).body);
    expect(generic.meta('description')).toBe('2 works tagged #kitsune on Share Arts.');
  });
});
