import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS_ERRORS } from '@share-arts/contract';
import { createTestApp, errorOf, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { uploadPicture } from '../../security/fixtures.js';

/**
 * The artist's rights and content warnings (issue 23): a post's content warning, comment policy, licence,
 * AI label and downloads; the viewer's settings; robots.txt, the noai meta tag and X-Robots-Tag.
 */

let ctx: TestContext;
let artist: SignedUp;
let friend: SignedUp;
let stranger: SignedUp;
const TAG = `rightstag${process.pid}`;

const INDEX_HTML =
  '<!doctype html><html><head><meta charset="UTF-8" /><meta name="robots" content="noai, noimageai" /><title>Share Arts</title></head><body><div id="root"></div></body></html>';

const as = (who?: SignedUp) => (who ? { authorization: who.token } : {});
const get = (url: string, who?: SignedUp) => ctx.app.inject({ method: 'GET', url, headers: as(who) });
const page = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

async function create(who: SignedUp, payload: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload,
    headers: { ...as(who), prefer: 'return=minimal' },
  });
}
async function createOk(who: SignedUp, payload: Record<string, unknown>) {
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
const settings = (who: SignedUp, value: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/edit',
    payload: { userData: { settings: value } },
    headers: as(who),
  });
const comment = (who: SignedUp, postId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comment`,
    payload: { commentData: { content: 'Lovely work' } },
    headers: { ...as(who), prefer: 'return=minimal' },
  });
const ids = (posts: { _id: string }[]) => posts.map((p) => p._id);

beforeAll(async () => {
  const webDistDir = await mkdtemp(path.join(os.tmpdir(), 'share-arts-web-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  ctx = await createTestApp({ config: { webDistDir, publicOrigin: 'https://share.example' } });
  [artist, friend, stranger] = [await signUp(ctx.app), await signUp(ctx.app), await signUp(ctx.app)];
  // The artist follows `friend` (who may then comment where only followed people may).
  const follow = await ctx.app.inject({
    method: 'POST',
    url: `/api/users/follow/${friend.user._id}`,
    headers: as(artist),
  });
  expect(follow.statusCode, follow.body).toBe(200);
});
afterAll(() => ctx?.close());

describe("a post's rights and warnings", () => {
  it('defaults, round trip on create and edit, and through the post cache in lists', async () => {
    const plain = await createOk(artist, { content: 'A plain sketch' });
    expect(plain).toMatchObject({
      contentWarning: null,
      commentPolicy: 'everyone',
      licence: 'all-rights-reserved',
      aiGenerated: false,
      downloadable: false,
    });
    const post = await createOk(artist, {
      content: `Study #${TAG}`,
      contentWarning: '  Nudity ',
      commentPolicy: 'following',
      licence: 'cc-by-sa',
      aiGenerated: true,
      downloadable: true,
    });
    expect(post).toMatchObject({
      contentWarning: 'nudity',
      commentPolicy: 'following',
      licence: 'cc-by-sa',
      aiGenerated: true,
      downloadable: true,
    });
    const edited = await edit(artist, post._id, {
      contentWarning: 'spiders, close up',
      licence: 'cc0',
      downloadable: false,
    });
    expect(edited.statusCode, edited.body).toBe(201);
    expect(edited.json().post).toMatchObject({
      contentWarning: 'spiders, close up',
      licence: 'cc0',
      downloadable: false,
      commentPolicy: 'following',
      aiGenerated: true,
      content: `Study #${TAG}`,
    });
    const listed = (await get('/api/posts')).json().posts.find((p: { _id: string }) => p._id === post._id);
    expect(listed).toMatchObject({ contentWarning: 'spiders, close up', licence: 'cc0' });
    const cleared = await edit(artist, post._id, { contentWarning: null });
    expect(cleared.json().post.contentWarning).toBeNull();
  });

  it.each([
    [
      { licence: 'cc-by-2.0' },
      'licence must be one of: all-rights-reserved, cc-by, cc-by-sa, cc-by-nc, cc-by-nc-nd, cc0.',
    ],
    [{ commentPolicy: 'friends' }, 'commentPolicy must be one of: everyone, following, nobody.'],
    [{ contentWarning: '   ' }, RIGHTS_ERRORS.contentWarningEmpty],
    [{ contentWarning: 'x'.repeat(101) }, /contentWarning must be null .* 1 to 100 characters/],
    [{ aiGenerated: 'yes' }, 'aiGenerated must be a boolean.'],
  ])('refuses %j with a clear message', async (fields, message) => {
    const response = await create(artist, { content: 'Refused', ...fields });
    expect(response.statusCode).toBe(400);
    if (typeof message === 'string') expect(errorOf(response)).toBe(message);
    else expect(errorOf(response)).toMatch(message);
  });
});

describe('settings', () => {
  it('are shown to their owner only, with their defaults, and change through the profile update', async () => {
    const own = (await get(`/api/users/${artist.user._id}`, artist)).json().user;
    expect(own.settings).toEqual({
      aiTrainingOptOut: true,
      sensitiveMedia: 'blur',
      hideAiGenerated: false,
      // Issue 41: others may add their works to collections unless they say no.
      allowCollecting: true,
      // Issue 43: the browser's language until one is chosen.
      language: null,
    });
    expect((await get(`/api/users/${artist.user._id}`, friend)).json().user.settings).toBeUndefined();
    const changed = await settings(stranger, { sensitiveMedia: 'show' });
    expect(changed.statusCode, changed.body).toBe(201);
    expect(changed.json().user.settings).toEqual({
      aiTrainingOptOut: true,
      sensitiveMedia: 'show',
      hideAiGenerated: false,
      allowCollecting: true,
      language: null,
    });
    const refused = await settings(stranger, { sensitiveMedia: 'never' });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toBe('sensitiveMedia must be one of: show, blur, hide.');
  });

  it('language (issue 43) is one the app speaks, kept on the account, and null follows the browser again', async () => {
    const chosen = await settings(stranger, { language: 'ja' });
    expect(chosen.statusCode, chosen.body).toBe(201);
    expect(chosen.json().user.settings.language).toBe('ja');
    expect((await get(`/api/users/${stranger.user._id}`, stranger)).json().user.settings.language).toBe('ja');
    const unknown = await settings(stranger, { language: 'fr' });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown)).toBe("language must be one of: en, es, pt-BR, ja, ar (or null to follow the browser's).");
    expect((await get(`/api/users/${stranger.user._id}`, stranger)).json().user.settings.language).toBe('ja');
    const cleared = await settings(stranger, { language: null });
    expect(cleared.json().user.settings.language).toBeNull();
  });

  it('hideAiGenerated leaves AI-labelled works out of Explore, tags and search, not out of the post itself', async () => {
    const ai = await createOk(artist, { content: `Generated #${TAG} robotsword`, aiGenerated: true });
    const handmade = await createOk(artist, { content: `Handmade #${TAG} robotsword` });
    const lists = [`/api/posts`, `/api/tags/${TAG}/posts`, `/api/search?q=robotsword&type=posts`];
    for (const url of lists) expect(ids((await get(url, stranger)).json().posts)).toContain(ai._id);
    expect((await settings(stranger, { hideAiGenerated: true })).statusCode).toBe(201);
    for (const url of lists) {
      const shown = ids((await get(url, stranger)).json().posts);
      expect(shown, url).not.toContain(ai._id);
      expect(shown, url).toContain(handmade._id);
    }
    expect((await get(`/api/posts/${ai._id}`, stranger)).statusCode).toBe(200);
    expect(ids((await get('/api/posts', friend)).json().posts)).toContain(ai._id);
  });
});

describe('comment controls', () => {
  it('nobody: 403 for everyone, the author too; existing comments stay visible', async () => {
    const post = await createOk(artist, { content: 'Closing soon' });
    expect((await comment(stranger, post._id)).statusCode).toBe(201);
    expect((await edit(artist, post._id, { commentPolicy: 'nobody' })).statusCode).toBe(201);
    for (const who of [stranger, artist]) {
      const refused = await comment(who, post._id);
      expect(refused.statusCode).toBe(403);
      expect(errorOf(refused)).toBe(RIGHTS_ERRORS.commentsOff);
    }
    const read = (await get(`/api/posts/${post._id}`)).json().post;
    expect(read.commentCount).toBe(1);
    expect(read.comments).toHaveLength(1);
  });

  it('nobody: an earlier comment cannot be edited either, but its writer can still delete it (issue 38, item 15)', async () => {
    const post = await createOk(artist, { content: 'Closing later' });
    const written = await comment(stranger, post._id);
    expect(written.statusCode).toBe(201);
    const commentId = (await get(`/api/posts/${post._id}`)).json().post.comments[0]._id as string;
    expect((await edit(artist, post._id, { commentPolicy: 'nobody' })).statusCode).toBe(201);
    const edited = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/edit/${post._id}/${commentId}`,
      payload: { content: 'Something new, after comments closed' },
      headers: as(stranger),
    });
    expect(edited.statusCode).toBe(403);
    expect(errorOf(edited)).toBe(RIGHTS_ERRORS.commentsOff);
    expect((await get(`/api/posts/${post._id}`)).json().post.comments[0].content).toBe('Lovely work');
    const removed = await ctx.app.inject({
      method: 'POST',
      url: `/api/comments/delete/${post._id}/${commentId}`,
      headers: as(stranger),
    });
    expect(removed.statusCode).toBeLessThan(300);
  });

  it('following: only the people the author follows, and the author', async () => {
    const post = await createOk(artist, { content: 'Friends only', commentPolicy: 'following' });
    const refused = await comment(stranger, post._id);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toBe(RIGHTS_ERRORS.commentsFollowing);
    expect((await comment(friend, post._id)).statusCode).toBe(201);
    expect((await comment(artist, post._id)).statusCode).toBe(201);
  });
});

describe('AI-scraping opt-out', () => {
  it('robots.txt turns AI crawlers away and lets others read the public pages', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.headers['cache-control']).toMatch(/public, max-age=\d+/);
    for (const agent of ['GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended', 'Bytespider']) {
      expect(response.body).toContain(`User-agent: ${agent}\n`);
    }
    const [ai, others] = response.body.split('User-agent: *');
    expect(ai).toContain('Disallow: /\n');
    expect(others).toContain('Disallow: /api/');
    expect(others).toContain('Allow: /api/posts');
    expect(others).not.toMatch(/Disallow: \/\n/);
  });

  it('pages carry the noai meta tag when their artist opts out (the default), and the licence in structured data', async () => {
    const post = await createOk(artist, { content: 'Under CC BY', licence: 'cc-by' });
    const html = (await page(`/posts/${post._id}`)).body;
    expect(html).toContain('<meta name="robots" content="noai, noimageai">');
    expect(html.match(/name="robots"/g)).toHaveLength(1);
    expect(html).toContain('<link rel="license" href="https://creativecommons.org/licenses/by/4.0/">');
    const ld = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      creator: { '@type': 'Person', url: `https://share.example/${artist.user.username}` },
    });
    expect((await page(`/${artist.user.username}`)).body).toContain('content="noai, noimageai"');
    expect((await page('/settings')).body).toContain('content="noai, noimageai"');

    // A reserved work has no licence URL; an artist who lets crawlers train gets no noai tag.
    const open = await signUp(ctx.app);
    expect((await settings(open, { aiTrainingOptOut: false })).statusCode).toBe(201);
    const reserved = await createOk(open, { content: 'Mine' });
    const openHtml = (await page(`/posts/${reserved._id}`)).body;
    expect(openHtml).not.toContain('name="robots"');
    expect(openHtml).not.toContain('rel="license"');
    expect(openHtml).toContain('"copyrightNotice"');
    expect((await page(`/${open.user.username}`)).body).not.toContain('name="robots"');
  });

  it('pictures carry X-Robots-Tag for an artist who opts out, not for one who does not', async () => {
    const open = await signUp(ctx.app);
    expect((await settings(open, { aiTrainingOptOut: false })).statusCode).toBe(201);
    for (const [who, expected] of [
      [artist, 'noai, noimageai'],
      [open, undefined],
    ] as const) {
      const post = await createOk(who, { content: 'A picture', mediaIds: [await uploadPicture(ctx.app, who)] });
      for (const url of [post.picture.url, post.picture.originalUrl]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['x-robots-tag'], url).toBe(expected);
      }
    }
  });
});

describe('download of the original', () => {
  it('is refused unless the work is under a CC licence or its author allows downloads', async () => {
    const cases = [
      [{}, 403],
      [{ licence: 'cc-by-nc' }, 200],
      [{ downloadable: true }, 200],
    ] as const;
    for (const [fields, status] of cases) {
      const post = await createOk(artist, {
        content: 'Download?',
        mediaIds: [await uploadPicture(ctx.app, artist)],
        ...fields,
      });
      const response = await get(`${post.picture.originalUrl}?download`);
      expect(response.statusCode, JSON.stringify(fields)).toBe(status);
      if (status === 403) expect(errorOf(response)).toBe(RIGHTS_ERRORS.downloadRefused);
      else expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    }
  });
});
