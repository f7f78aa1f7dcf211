import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERRORS } from '@share-arts/contract';
import { users } from '../../db/schema.js';
import { createTestApp, errorOf, multipart, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';
import { xmlText } from './atom.xml.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const auth = (who: SignedUp) => ({ authorization: `Bearer ${who.token}` });
const feedUrl = (who: SignedUp) => `/api/users/${who.user.username}/feed.atom`;

async function createPost(who: SignedUp, content: string, mediaIds: string[] = []): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    payload: { content, mediaIds },
    headers: { ...auth(who), prefer: 'return=minimal' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().post._id as string;
}

async function upload(who: SignedUp, alt: string): Promise<string> {
  const data = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#8a5' } })
    .jpeg()
    .toBuffer();
  const { payload, contentType } = multipart([
    { name: 'purpose', data: 'post' },
    { name: 'alt', data: alt },
    { name: 'file', data, filename: 'dawn.jpg', contentType: 'image/jpeg' },
  ]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, ...auth(who) },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().media._id as string;
}

/** The five XML entities, undone (what a parser gives for the text). */
const unescape = (text: string) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!,
  );

/**
 * A strict check of the XML this feed writes: a declaration, then elements that nest and close in order,
 * attribute values quoted without `<` or a bare `&`, and text without `<` or a bare `&`. Answers the
 * elements as [name, attributes, text] in document order.
 */
function parseXml(xml: string): { name: string; attributes: Record<string, string>; text: string }[] {
  expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n')).toBe(true);
  const body = xml.slice(xml.indexOf('?>') + 2);
  const token = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  const stack: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const elements: typeof stack = [];
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(body)) !== null) {
    consumed = token.lastIndex;
    const [, closing, name, attrs, selfClosing, text] = match;
    if (text !== undefined) {
      expect(text).not.toMatch(/&(?!(lt|gt|quot|apos|amp);)/);
      if (stack.length > 0) stack[stack.length - 1]!.text += unescape(text);
      else expect(text.trim()).toBe('');
      continue;
    }
    if (closing) {
      expect(stack.pop()?.name).toBe(name);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of attrs!.matchAll(/([\w:.-]+)="([^"]*)"/g)) {
      expect(value).not.toMatch(/&(?!(lt|gt|quot|apos|amp);)/);
      attributes[key!] = unescape(value!);
    }
    const element = { name: name!, attributes, text: '' };
    elements.push(element);
    if (!selfClosing) stack.push(element);
  }
  expect(consumed).toBe(body.length);
  expect(stack).toEqual([]);
  return elements;
}

describe('the Atom feed', () => {
  it("answers the artist's newest 30 works as Atom, newest first, with absolute links from a plain Host", async () => {
    const artist = await signUp(ctx.app, { fullname: 'Ada Lovelace' });
    const ids: string[] = [];
    for (let i = 1; i <= 31; i += 1) ids.push(await createPost(artist, `Study number ${i} in oil and light`));
    const response = await ctx.app.inject({
      method: 'GET',
      url: feedUrl(artist),
      headers: { host: 'art.example:8080' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(response.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(Date.parse(String(response.headers['last-modified']))).not.toBeNaN();

    const elements = parseXml(response.body);
    const feed = elements[0]!;
    expect(feed).toMatchObject({ name: 'feed', attributes: { xmlns: 'http://www.w3.org/2005/Atom' } });
    const links = elements.filter((element) => element.name === 'link');
    expect(links[0]!.attributes).toEqual({
      rel: 'self',
      type: 'application/atom+xml',
      href: `http://art.example:8080/api/users/${artist.user.username}/feed.atom`,
    });
    expect(links[1]!.attributes.href).toBe(`http://art.example:8080/${artist.user.username}`);
    expect(elements.find((element) => element.name === 'title')!.text).toBe(
      `Ada Lovelace (@${artist.user.username}) on Share Arts`,
    );

    const entries = elements.filter((element) => element.name === 'entry');
    expect(entries).toHaveLength(30);
    const entryIds = elements.filter((element) => element.name === 'id').slice(1);
    expect(entryIds.map((element) => element.text)).toEqual(
      ids
        .slice(1)
        .reverse()
        .map((id) => `urn:uuid:${id}`),
    );
    const entryLinks = links.slice(2);
    expect(entryLinks[0]!.attributes).toEqual({
      rel: 'alternate',
      type: 'text/html',
      href: `http://art.example:8080/posts/${ids[30]}`,
    });
    // The title is the first words; published and updated are RFC 3339 times.
    const titles = elements.filter((element) => element.name === 'title').slice(1);
    expect(titles[0]!.text).toBe('Study number 31 in oil and light');
    const published = elements.find((element) => element.name === 'published')!.text;
    expect(published).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
  });

  it('escapes hostile text in titles, content and attributes, and drops characters XML cannot hold', async () => {
    const artist = await signUp(ctx.app);
    const hostile = `</content><script>alert("x")</script> & 'quoted' <![CDATA[ ]]> &amp;`;
    const picture = await upload(artist, `"><img src=x onerror=alert(1)> & dawn`);
    await createPost(artist, `${hostile}\nsecond line`, [picture]);
    // A bio written before the server refused control characters (they cannot come in through the API now).
    await ctx.database.db
      .update(users)
      .set({ bio: 'Painter\u0001 of\u001f light\uFFFE' })
      .where(eq(users.id, artist.user._id));

    const response = await ctx.app.inject({ method: 'GET', url: feedUrl(artist) });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script');
    expect(response.body).not.toContain('</content><script>');
    for (const char of ['\u0001', '\u001f', '\uFFFE']) expect(response.body).not.toContain(char);

    const elements = parseXml(response.body);
    expect(elements.find((element) => element.name === 'subtitle')!.text).toBe('Painter of light');
    const title = elements.filter((element) => element.name === 'title')[1]!;
    expect(title.text).toBe(`</content><script>alert("x")</script> & 'quoted' <![CDATA[ ]]> &amp; second line`);

    const content = elements.find((element) => element.name === 'content')!;
    expect(content.attributes).toEqual({ type: 'html' });
    // Once unescaped by the feed's parser, the content is HTML whose text is escaped in its turn.
    const html = content.text;
    expect(html).toContain(
      '<p>&lt;/content&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quoted&apos; &lt;![CDATA[ ]]&gt; &amp;amp;<br>second line</p>',
    );
    expect(html).not.toMatch(/<script|<img src=x/);
    const img = /<img src="([^"]*)" alt="([^"]*)" width="(\d+)" height="(\d+)">/.exec(html);
    expect(img).not.toBeNull();
    expect(img![1]).toMatch(/^http:\/\/localhost(:\d+)?\/media\/.+\.jpg$/);
    expect(unescape(img![2]!)).toBe(`"><img src=x onerror=alert(1)> & dawn`);
    expect([img![3], img![4]]).toEqual(['1600', '900']);
  });

  it('writes root-relative links when the Host header is not a plain host', async () => {
    const artist = await signUp(ctx.app);
    const id = await createPost(artist, 'Quiet harbour');
    const response = await ctx.app.inject({
      method: 'GET',
      url: feedUrl(artist),
      headers: { host: 'evil.example/"><x' },
    });
    expect(response.statusCode).toBe(200);
    const links = parseXml(response.body).filter((element) => element.name === 'link');
    expect(links.map((link) => link.attributes.href)).toEqual([
      `/api/users/${artist.user.username}/feed.atom`,
      `/${artist.user.username}`,
      `/posts/${id}`,
    ]);
  });

  it('answers 304 to a matching If-None-Match, and a new ETag after a new work or a deleted one', async () => {
    const artist = await signUp(ctx.app);
    await createPost(artist, 'First light');
    const first = await ctx.app.inject({ method: 'GET', url: feedUrl(artist) });
    const etag = String(first.headers.etag);
    const again = await ctx.app.inject({ method: 'GET', url: feedUrl(artist), headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const second = await createPost(artist, 'Second light');
    const changed = await ctx.app.inject({ method: 'GET', url: feedUrl(artist), headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);

    // Deleting the newest work takes Last-Modified back to the first one's time: a reader who sends only
    // the date it last read must still get the feed without the deleted entry.
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/posts/${second}`,
      headers: { authorization: artist.token },
    });
    expect(deleted.statusCode).toBe(201);
    const since = await ctx.app.inject({
      method: 'GET',
      url: feedUrl(artist),
      headers: { 'if-modified-since': String(changed.headers['last-modified']) },
    });
    expect(since.statusCode).toBe(200);
    expect(since.body).not.toContain(second);
    expect(since.body).toContain('First light');
  });

  it('is an empty feed for an artist without works, and 404 for an unknown user', async () => {
    const artist = await signUp(ctx.app);
    const empty = await ctx.app.inject({ method: 'GET', url: feedUrl(artist) });
    expect(empty.statusCode).toBe(200);
    expect(parseXml(empty.body).filter((element) => element.name === 'entry')).toEqual([]);

    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/users/no_such_artist_here/feed.atom' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe(ERRORS.userNotFound);
  });
});

describe('a work with a content warning (issue 38, item 10)', () => {
  it('has an entry that names the warning and links to the post instead of showing its pictures', async () => {
    const artist = await signUp(ctx.app);
    const media = [await upload(artist, 'A figure, seated'), await upload(artist, 'The same, standing')];
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: { content: 'Two poses', mediaIds: media, contentWarning: 'nudity' },
      headers: { ...auth(artist), prefer: 'return=minimal' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().post._id as string;
    const response = await ctx.app.inject({ method: 'GET', url: feedUrl(artist), headers: { host: 'art.example' } });
    const content = unescape(parseXml(response.body).find((element) => element.name === 'content')!.text);
    expect(content).toBe(
      `<p><strong>Content warning: nudity.</strong> <a href="http://art.example/posts/${postId}">See the 2 pictures on Share Arts</a>.</p><p>Two poses</p>`,
    );
    expect(content).not.toContain('<img');
  });
});

describe('an artist who shows their works to signed-in people only', () => {
  it('has a feed without entries: a feed reader is signed out', async () => {
    const artist = await signUp(ctx.app);
    await createPost(artist, 'For members only');
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: auth(artist),
      payload: { userData: { worksSignedInOnly: true } },
    });
    expect(edit.statusCode).toBe(201);
    const response = await ctx.app.inject({ method: 'GET', url: feedUrl(artist) });
    expect(response.statusCode).toBe(200);
    expect(parseXml(response.body).filter((element) => element.name === 'entry')).toEqual([]);
    expect(response.body).not.toContain('For members only');
  });
});

describe('xmlText', () => {
  it('escapes the five markup characters and drops what XML 1.0 cannot carry', () => {
    expect(xmlText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(xmlText('a\u0000b\u0008c\u000bd\u001fe\ufffef\uffffg')).toBe('abcdefg');
    expect(xmlText('tab\tline\ncr\r')).toBe('tab\tline\ncr\r');
    // A lone surrogate goes; a pair (an emoji) stays.
    expect(xmlText('x\ud800y🎨')).toBe('xy🎨');
  });
});
