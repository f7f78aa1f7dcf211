import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { EXPORT_ERRORS } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import { createTestApp, errorOf, multipart, signUp, type SignedUp, type TestContext } from '../../test/helpers.js';

/** "Download your data" (issue 24): the zip holds the account's data and pictures, and nobody else's. */

const FIXTURES = path.join(import.meta.dirname, '../media/fixtures');

let ctx: TestContext;
let ana: SignedUp;
let bob: SignedUp;
let carl: SignedUp;
let dora: SignedUp;
const uploads = new Map<string, Buffer>();
let paintingId: string;
let sketchId: string;
let bobPostId: string;
let unpostedId: string;

const as = (who: SignedUp) => ({ authorization: who.token, prefer: 'return=minimal' });

async function ok(method: 'GET' | 'POST' | 'PUT', url: string, who: SignedUp, payload?: object) {
  const response = await ctx.app.inject({ method, url, headers: as(who), ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

async function upload(who: SignedUp, name: string): Promise<string> {
  const data = await readFile(path.join(FIXTURES, name));
  const { payload, contentType } = multipart([{ name: 'file', data, filename: name, contentType: 'image/png' }]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, authorization: who.token },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().media._id;
  uploads.set(id, data);
  return id;
}

/** Every entry of a zip: its bytes and how it was stored (0 stored, 8 deflated). */
function unzip(zip: Buffer): Promise<Map<string, { data: Buffer; method: number }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const entries = new Map<string, { data: Buffer; method: number }>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, { data: Buffer.concat(chunks), method: entry.compressionMethod });
            file.readEntry();
          });
          stream.on('error', reject);
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

const linkFor = async (who: SignedUp): Promise<string> => (await ok('POST', '/api/account/export', who)).url;
const download = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

async function exportOf(who: SignedUp) {
  const response = await download(await linkFor(who));
  expect(response.statusCode, response.body).toBe(200);
  const entries = await unzip(response.rawPayload);
  const json = (name: string) => JSON.parse(entries.get(name)!.data.toString('utf8'));
  return { response, entries, json };
}

beforeAll(async () => {
  ctx = await createTestApp();
  [ana, bob, carl, dora] = await Promise.all([
    signUp(ctx.app, { email: 'ana-export@example.com' }),
    signUp(ctx.app, { email: 'bob-private@example.com' }),
    signUp(ctx.app),
    signUp(ctx.app),
  ]);
  const [art, webp] = [await upload(ana, 'art.png'), await upload(ana, 'art.webp')];
  unpostedId = await upload(ana, 'art.avif');
  await upload(bob, 'pixel-art.png');
  paintingId = (await ok('POST', '/api/posts', ana, { content: 'A painting #oil', mediaIds: [art, webp] })).post._id;
  sketchId = (await ok('POST', '/api/posts', ana, { content: 'A sketch' })).post._id;
  bobPostId = (await ok('POST', '/api/posts', bob, { content: "Bob's own words, not Ana's" })).post._id;
  await ok('POST', `/api/posts/${paintingId}/comment`, bob, { commentData: { content: 'Lovely colours' } });
  await ok('POST', `/api/posts/${bobPostId}/comment`, ana, { commentData: { content: 'Thank you, Bob' } });
  await ok('POST', `/api/posts/like/${bobPostId}`, ana);
  await ok('POST', `/api/users/bookmark/${bobPostId}`, ana);
  await ok('POST', `/api/users/follow/${bob.user._id}`, ana);
  await ok('POST', `/api/users/follow/${ana.user._id}`, carl);
  await ok('POST', '/api/tags/watercolour/follow', ana);
  await ok('POST', `/api/posts/${sketchId}/pin`, ana);
  await ok('POST', `/api/users/${dora.user.username}/block`, ana);
  await ok('POST', `/api/users/${carl.user.username}/mute`, ana);
  await ok('POST', '/api/users/me/muted-words', ana, { word: 'spoilers' });
});
afterAll(() => ctx.close());

describe('the zip', () => {
  it('is an attachment named after the account and the day, never cached nor compressed again', async () => {
    const link = await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: as(ana) });
    expect(link.statusCode, link.body).toBe(201);
    expect(link.json().url).toMatch(/^\/api\/account\/export\/[\w-]{43}$/);
    const response = await download(link.json().url, { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    const day = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="share-arts-${ana.user.username}-${day}.zip"`,
    );
  });

  it('holds every file, a README that explains each, JSON deflated and pictures stored', async () => {
    const { entries } = await exportOf(ana);
    const names = [
      'README.txt',
      'profile.json',
      'posts.json',
      'comments.json',
      'likes.json',
      'bookmarks.json',
      'following.json',
      'followers.json',
      'followed-tags.json',
      'pins.json',
      'series.json',
      'followed-series.json',
      'drafts.json',
      'inquiries.json',
      'insights.json',
      'blocks.json',
      'mutes.json',
      'muted-words.json',
      'notifications.json',
      'pictures.json',
    ];
    for (const name of names) expect(entries.has(name), name).toBe(true);
    const readme = entries.get('README.txt')!.data.toString('utf8');
    for (const name of names.slice(1)) expect(readme, name).toContain(name);
    expect(entries.get('posts.json')!.method).toBe(8);
    const pictures = [...entries.keys()].filter((name) => name.startsWith('pictures/'));
    expect(pictures).toHaveLength(3);
    for (const name of pictures) expect(entries.get(name)!.method, name).toBe(0);
  });

  it('holds the profile, the posts with their pictures and comments, and every list of the account', async () => {
    const { json } = await exportOf(ana);
    const profile = json('profile.json');
    expect(profile).toMatchObject({ id: ana.user._id, username: ana.user.username, email: 'ana-export@example.com' });
    expect(JSON.stringify(profile)).not.toMatch(/password|hash/i);

    const posts = json('posts.json');
    expect(posts.map((post: { id: string }) => post.id)).toEqual([paintingId, sketchId]);
    expect(posts[0]).toMatchObject({ content: 'A painting #oil', tags: ['oil'], commentCount: 1 });
    expect(posts[0].pictures.map((picture: { originalName: string }) => picture.originalName)).toEqual([
      'art.png',
      'art.webp',
    ]);
    expect(posts[0].comments).toEqual([
      expect.objectContaining({
        content: 'Lovely colours',
        author: { id: bob.user._id, username: bob.user.username },
      }),
    ]);
    expect(posts[1].comments).toEqual([]);

    expect(json('comments.json')).toEqual([
      expect.objectContaining({ content: 'Thank you, Bob', postId: bobPostId, postAuthor: bob.user.username }),
    ]);
    expect(json('likes.json')).toEqual([
      expect.objectContaining({ postId: bobPostId, postAuthor: bob.user.username, kind: 'like' }),
    ]);
    expect(json('bookmarks.json')).toEqual([expect.objectContaining({ postId: bobPostId })]);
    expect(json('following.json')).toEqual([expect.objectContaining({ userId: bob.user._id })]);
    expect(json('followers.json')).toEqual([expect.objectContaining({ userId: carl.user._id })]);
    expect(json('followed-tags.json')).toEqual([expect.objectContaining({ tag: 'watercolour' })]);
    expect(json('pins.json')).toEqual([expect.objectContaining({ postId: sketchId, position: 0 })]);
    expect(json('blocks.json')).toEqual([expect.objectContaining({ username: dora.user.username })]);
    expect(json('mutes.json')).toEqual([expect.objectContaining({ username: carl.user.username })]);
    expect(json('muted-words.json')).toEqual([expect.objectContaining({ word: 'spoilers' })]);
    const kinds = json('notifications.json').map((n: { kind: string; actor: { id: string } }) => [n.kind, n.actor.id]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['comment', bob.user._id],
        ['follow', carl.user._id],
      ]),
    );
    const pictures = json('pictures.json');
    expect(pictures.find((picture: { id: string }) => picture.id === unpostedId)).toMatchObject({ postId: null });
  });

  it('holds every original picture byte for byte, as uploaded, and no one else', async () => {
    const { entries, json } = await exportOf(ana);
    const pictures: { id: string; file: string }[] = json('pictures.json');
    expect(pictures).toHaveLength(3);
    for (const picture of pictures) {
      expect(uploads.get(picture.id), picture.file).toBeDefined();
      expect(entries.get(picture.file)!.data.equals(uploads.get(picture.id)!), picture.file).toBe(true);
    }
  });

  it("holds nothing of another account's own", async () => {
    const { entries } = await exportOf(ana);
    const text = [...entries.values()].map((entry) => entry.data.toString('latin1')).join('\n');
    expect(text).not.toContain('bob-private@example.com');
    expect(text).not.toContain("Bob's own words");
    const bobPicture = await readFile(path.join(FIXTURES, 'pixel-art.png'));
    expect([...entries.values()].some((entry) => entry.data.equals(bobPicture))).toBe(false);

    const theirs = await exportOf(bob);
    expect(theirs.json('profile.json').id).toBe(bob.user._id);
    expect(theirs.json('posts.json').map((post: { id: string }) => post.id)).toEqual([bobPostId]);
    expect(JSON.stringify(theirs.json('pictures.json'))).not.toContain(unpostedId);
  });
});

describe('a long thread', () => {
  it('holds every one of 5,001 comments, read a page at a time, in order, in posts.json and comments.json', async () => {
    const hana = await signUp(ctx.app);
    const postId = (await ok('POST', '/api/posts', hana, { content: 'A busy thread' })).post._id;
    await queryRows(
      ctx.database.db,
      sql`insert into comments (post_id, author_id, content, created_at)
          select ${postId}::uuid, ${hana.user._id}::uuid, 'comment ' || n, now() - make_interval(secs => 6000 - n)
          from generate_series(1, 5001) n`,
    );
    await queryRows(ctx.database.db, sql`update posts set comment_count = 5001 where id = ${postId}::uuid`);
    const { json } = await exportOf(hana);
    const expected = Array.from({ length: 5001 }, (_, i) => `comment ${i + 1}`);
    const [post] = json('posts.json');
    expect(post.comments.map((comment: { content: string }) => comment.content)).toEqual(expected);
    expect(json('comments.json').map((comment: { content: string }) => comment.content)).toEqual(expected);
  });
});

describe('the link', () => {
  it('works once, and a used, unknown or expired one answers 404 with what to do', async () => {
    const url = await linkFor(ana);
    expect((await download(url)).statusCode).toBe(200);
    const again = await download(url);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again)).toBe(EXPORT_ERRORS.linkNotFound);
    // Someone else presenting the used link, with their own token, gets nothing either.
    expect((await download(url, { authorization: bob.token })).statusCode).toBe(404);
    expect((await download(`/api/account/export/${randomBytes(32).toString('base64url')}`)).statusCode).toBe(404);

    // A HEAD does not use it up.
    const checked = await linkFor(ana);
    expect((await ctx.app.inject({ method: 'HEAD', url: checked })).statusCode).toBe(404);
    expect((await download(checked)).statusCode).toBe(200);

    const expired = await linkFor(ana);
    await queryRows(ctx.database.db, sql`update export_links set expires_at = now() - interval '1 second'`);
    expect((await download(expired)).statusCode).toBe(404);
  });

  it('keeps the newest five of an account: asking again and again stores no more', async () => {
    const gus = await signUp(ctx.app);
    const links: string[] = [];
    for (let i = 0; i < 8; i++) links.push(await linkFor(gus));
    const [stored] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from export_links where user_id = ${gus.user._id}::uuid`,
    );
    expect(stored!.n).toBe(5);
    expect((await download(links[7]!)).statusCode).toBe(200);
    const statuses = [];
    for (const link of links.slice(0, 7)) statuses.push((await download(link)).statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
  });

  it('is refused without a valid token', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/account/export' });
    expect(response.statusCode).toBe(401);
  });
});

describe('one export at a time', () => {
  /** A large original (8 MB), written straight into the storage (the folder or the bucket), so the zip outlasts the socket's buffers. */
  async function bigPicture(who: SignedUp) {
    const id = randomUUID();
    const file = `${id}-original.png`;
    await ctx.storage.write([{ name: file, data: randomBytes(8 * 1024 * 1024) }]);
    await queryRows(
      ctx.database.db,
      sql`insert into media (id, owner_id, purpose, original_file, original_mime, original_bytes, width, height,
            placeholder, variants)
          values (${id}::uuid, ${who.user._id}::uuid, 'post', ${file}, 'image/png', ${8 * 1024 * 1024}, 1, 1, '', '[]')`,
    );
  }

  it('answers 409 while one downloads, and frees the account when the client goes away', async () => {
    const erin = await signUp(ctx.app);
    await bigPicture(erin);
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    expect(address).toContain(String(port));

    const [first, second] = [await linkFor(erin), await linkFor(erin)];
    // The first download starts and its reader stops reading after the first bytes.
    const request = http.get({ host: '127.0.0.1', port, path: first });
    const response = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
    expect(response.statusCode).toBe(200);
    await new Promise((resolve) => response.once('data', resolve));
    response.pause();

    const refused = await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: as(erin) });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toBe(EXPORT_ERRORS.running);
    const refusedDownload = await download(second);
    expect(refusedDownload.statusCode).toBe(409);
    // Another account is not held up.
    expect((await download(await linkFor(bob))).statusCode).toBe(200);

    request.destroy();
    await expect
      .poll(
        async () =>
          (await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: as(erin) })).statusCode,
      )
      .toBe(201);
    // The link refused while the first ran is still usable.
    const later = await download(second);
    expect(later.statusCode).toBe(200);
    expect((await unzip(later.rawPayload)).size).toBeGreaterThan(15);
  });

  it('takes over the run of a process that died (not renewed for a minute)', async () => {
    const fay = await signUp(ctx.app);
    await queryRows(
      ctx.database.db,
      sql`insert into export_runs (user_id, run_id, renewed_at) values (${fay.user._id}::uuid, ${randomUUID()}::uuid, now())`,
    );
    expect((await ctx.app.inject({ method: 'POST', url: '/api/account/export', headers: as(fay) })).statusCode).toBe(
      409,
    );
    await queryRows(ctx.database.db, sql`update export_runs set renewed_at = now() - interval '2 minutes'`);
    expect((await download(await linkFor(fay))).statusCode).toBe(200);
    const [left] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from export_runs where user_id = ${fay.user._id}::uuid`,
    );
    expect(left!.n).toBe(0);
  });
});
