import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Picture } from '@share-arts/contract';
import { queryRows } from '../../db/client.js';
import {
  createTestApp,
  errorOf,
  multipart,
  readStored,
  signUp,
  storedFiles,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { startS3Server, type TestS3Server } from '../../test/s3.js';
import { createMediaService } from './media.service.js';
import { STORAGE_UNREACHABLE } from './media.storage.s3.js';
import { filesOf } from './media.storage.js';
import { ROWLESS_FILE_GRACE_MS } from './media.sweeper.js';

/**
 * MEDIA_STORE=s3 against a real S3-protocol server (s3rver over a temporary folder), whatever MEDIA_STORE
 * the suite runs with: what the bucket holds and answers, and what happens when it fails or is slow.
 */

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * An HTTP proxy in front of the S3 server whose requests can be held unanswered (a storage that hangs):
 * `hold` picks them. Held requests are let go (answered 503) when the proxy closes.
 */
async function startProxy(target: number) {
  let hold: (request: http.IncomingMessage) => boolean = () => false;
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    if (hold(request)) {
      held.add(response);
      request.resume();
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: target, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold(pick: (request: http.IncomingMessage) => boolean) {
      hold = pick;
    },
    release() {
      hold = () => false;
      for (const response of held) response.destroy();
      held.clear();
    },
    async close() {
      this.release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function uploadRequest(token: string, data: Buffer, purpose = 'post') {
  const { payload, contentType } = multipart([
    { name: 'purpose', data: purpose },
    { name: 'file', data, filename: 'art.webp', contentType: 'image/webp' },
  ]);
  return {
    method: 'POST' as const,
    url: '/api/media',
    headers: { authorization: token, 'content-type': contentType },
    payload,
  };
}

const mediaRows = async (ctx: TestContext) =>
  Number((await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from media`))[0]!.n);

let s3: TestS3Server;
let picture: Buffer;

beforeAll(async () => {
  s3 = await startS3Server();
  picture = await readFile(path.join(FIXTURES, 'art.webp'));
});
afterAll(() => s3.close());

describe('pictures in a bucket', () => {
  let ctx: TestContext;
  let ana: SignedUp;
  let uploaded: Picture;

  beforeAll(async () => {
    ctx = await createTestApp({ config: { mediaStore: await s3.bucket() } });
    ana = await signUp(ctx.app);
    const response = await ctx.app.inject(uploadRequest(ana.token, picture));
    expect(response.statusCode, response.body).toBe(201);
    uploaded = response.json().media;
  });
  afterAll(() => ctx.close());

  it('stores the original and every variant in the bucket, none in the media folder', async () => {
    const id = uploaded._id;
    const names = (await storedFiles(ctx)).filter((name) => name.startsWith(id));
    expect(names).toContain(uploaded.originalUrl.replace('/media/', ''));
    expect(names.length).toBeGreaterThan(4);
    expect((await readStored(ctx, uploaded.originalUrl.replace('/media/', '')))?.length).toBeGreaterThan(0);
    expect(await readdir(ctx.config.mediaDir).catch(() => [])).toEqual([]);
  });

  it('streams a file from the bucket with the headers the folder gives: type, length, caching, ETag, robots, CORP', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: uploaded.url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Artists ask AI crawlers not to train on their work by default (issue 23).
    expect(response.headers['x-robots-tag']).toBe('noai, noimageai');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload).toEqual(await readStored(ctx, uploaded.url.replace('/media/', '')));
    expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    expect(response.headers['last-modified']).toBeDefined();

    const again = await ctx.app.inject({
      method: 'GET',
      url: uploaded.url,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('answers a Range with 206 and those bytes, and HEAD with the headers alone', async () => {
    const whole = (await ctx.app.inject({ method: 'GET', url: uploaded.originalUrl })).rawPayload;
    const part = await ctx.app.inject({ method: 'GET', url: uploaded.originalUrl, headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${whole.length}`);
    expect(part.rawPayload).toEqual(whole.subarray(10, 20));
    expect(part.headers['content-type']).toBe('image/webp');

    const head = await ctx.app.inject({ method: 'HEAD', url: uploaded.originalUrl });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(whole.length);
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers 404 for a name not in the bucket, and never a path outside it', async () => {
    for (const url of [
      `/media/${randomUUID()}-original.png`,
      '/media/..%2Fsecret',
      '/media/.probe',
      '/media/a%2Fb.jpg',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(errorOf(response)).toBe('No such media file.');
    }
  });

  it('names an original as it was uploaded: inline to view, attachment to download', async () => {
    const inline = await ctx.app.inject({ method: 'GET', url: uploaded.originalUrl });
    expect(inline.headers['content-disposition']).toMatch(/^inline; filename="art\.webp"/);
    const download = await ctx.app.inject({ method: 'GET', url: `${uploaded.originalUrl}?download` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="art\.webp"/);
  });

  it('sets an avatar by its URL, and deletes the files with their picture', async () => {
    const avatar = await ctx.app.inject(uploadRequest(ana.token, picture, 'avatar'));
    expect(avatar.statusCode, avatar.body).toBe(201);
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: { authorization: ana.token },
      payload: { userData: { userPhoto: avatar.json().media.url } },
    });
    expect(edit.statusCode, edit.body).toBe(201);
    const photoUrl: string = edit.json().user.userPhoto;
    expect((await ctx.app.inject({ method: 'GET', url: photoUrl })).statusCode).toBe(200);

    const media = createMediaService({ db: ctx.database.db, storage: ctx.storage, log: quiet });
    const row = (await media.findById(uploaded._id))!;
    expect(await media.deleteMedia(uploaded._id)).toBe(true);
    const left = await storedFiles(ctx);
    for (const file of filesOf(row)) expect(left, file).not.toContain(file);
    expect((await ctx.app.inject({ method: 'GET', url: uploaded.url })).statusCode).toBe(404);
  });

  it('leaves alone objects it did not name and files written moments ago', async () => {
    let clock = Date.now();
    const media = createMediaService({ db: ctx.database.db, storage: ctx.storage, log: quiet, now: () => clock });
    const young = `${randomUUID()}-320.jpg`;
    await ctx.storage.write([
      { name: 'notes.txt', data: Buffer.from('an operator put this here') },
      { name: young, data: Buffer.from('written moments ago, its row not yet inserted') },
    ]);
    clock = Date.now() + ROWLESS_FILE_GRACE_MS / 2;
    await media.sweep();
    expect((await readStored(ctx, 'notes.txt'))?.toString()).toBe('an operator put this here');
    expect(await readStored(ctx, young)).toBeDefined();
    clock = Date.now() + ROWLESS_FILE_GRACE_MS + 1000;
    await media.sweep();
    expect(await readStored(ctx, 'notes.txt')).toBeDefined();
    expect(await readStored(ctx, young)).toBeUndefined();
  });
});

describe('a bucket that fails', () => {
  let ctx: TestContext;
  let ana: SignedUp;
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    proxy = await startProxy(s3.port);
    // Calls go through the proxy, which can hold them; a call unanswered after 1.5 s fails. (400 ms failed an
    // upload that nothing held on a loaded CI host: s3rver's own answer took longer.)
    const store = { ...(await s3.bucket()), endpoint: proxy.endpoint, timeoutMs: 1500 };
    ctx = await createTestApp({ config: { mediaStore: store } });
    ana = await signUp(ctx.app);
  });
  afterAll(async () => {
    await ctx.close();
    await proxy.close();
  });

  it('stopped mid-way: an upload answers 503 and writes no row; started again, uploads work', async () => {
    const rows = await mediaRows(ctx);
    await s3.stop();
    try {
      const refused = await ctx.app.inject(uploadRequest(ana.token, picture));
      expect(refused.statusCode, refused.body).toBe(503);
      expect(errorOf(refused)).toBe(STORAGE_UNREACHABLE);
      expect(refused.headers['retry-after']).toBe('30');
      expect(await mediaRows(ctx)).toBe(rows);

      // Health reports it (reads still work: a 200 that says so), and the readiness check throws a 503.
      const media = createMediaService({ db: ctx.database.db, storage: ctx.storage, log: quiet });
      await expect(media.checkStorage()).rejects.toMatchObject({ statusCode: 503, message: STORAGE_UNREACHABLE });
      const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.json()).toMatchObject({ status: 'degraded', storage: 'failing', problems: [STORAGE_UNREACHABLE] });
      // A load balancer takes this process out while its storage is away.
      expect((await ctx.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(503);
    } finally {
      await s3.start();
    }
    const accepted = await ctx.app.inject(uploadRequest(ana.token, picture));
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(await mediaRows(ctx)).toBe(rows + 1);
    const served = await ctx.app.inject({ method: 'GET', url: accepted.json().media.url });
    expect(served.statusCode).toBe(200);
    const media = createMediaService({ db: ctx.database.db, storage: ctx.storage, log: quiet });
    await expect(media.checkStorage()).resolves.toBeUndefined();
    expect((await ctx.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('slow: a write that does not answer in time is a 503, and the files that did land are swept', async () => {
    const rows = await mediaRows(ctx);
    const before = new Set(await storedFiles(ctx));
    // The 320 px JPEG's write hangs, and so does every delete: the upload's other files land and stay.
    proxy.hold(
      (request) => request.method === 'DELETE' || (request.method === 'PUT' && /-320\.jpg(\?|$)/.test(request.url!)),
    );
    // Two attempts of 1.5 s for the write, two for each delete: seconds, never a hang (which the test's own
    // timeout would catch).
    const refused = await ctx.app.inject(uploadRequest(ana.token, picture));
    proxy.release();
    expect(refused.statusCode, refused.body).toBe(503);
    expect(errorOf(refused)).toBe(STORAGE_UNREACHABLE);
    expect(await mediaRows(ctx)).toBe(rows);

    const orphans = (await storedFiles(ctx)).filter((name) => !before.has(name));
    expect(orphans.length).toBeGreaterThan(0);
    let clock = Date.now();
    const media = createMediaService({ db: ctx.database.db, storage: ctx.storage, log: quiet, now: () => clock });
    expect((await media.sweep()).files).toBe(0);
    clock = Date.now() + ROWLESS_FILE_GRACE_MS + 1000;
    expect((await media.sweep()).files).toBe(orphans.length);
    const after = await storedFiles(ctx);
    for (const name of orphans) expect(after, name).not.toContain(name);
  });

  it('slow reads: a file the bucket does not send in time is a 503, not a hung request', async () => {
    const accepted = await ctx.app.inject(uploadRequest(ana.token, picture));
    expect(accepted.statusCode, accepted.body).toBe(201);
    proxy.hold((request) => request.method === 'GET');
    try {
      const response = await ctx.app.inject({ method: 'GET', url: accepted.json().media.url });
      expect(response.statusCode).toBe(503);
      expect(errorOf(response)).toBe(STORAGE_UNREACHABLE);
    } finally {
      proxy.release();
    }
    expect((await ctx.app.inject({ method: 'GET', url: accepted.json().media.url })).statusCode).toBe(200);
  });
});

// Last: MEDIA_PUBLIC_URL is one value per process (the URL helpers are plain functions), set by each app built.
describe('MEDIA_PUBLIC_URL', () => {
  let ctx: TestContext;
  let ana: SignedUp;
  const cdn = 'https://cdn.share.example/pictures/';

  beforeAll(async () => {
    ctx = await createTestApp({ config: { mediaStore: await s3.bucket(), mediaPublicUrl: cdn } });
    ana = await signUp(ctx.app);
  });
  afterAll(() => ctx.close());

  it('points the API at the CDN, which the CSP allows, and an avatar may be named by that URL', async () => {
    const response = await ctx.app.inject(uploadRequest(ana.token, picture));
    expect(response.statusCode, response.body).toBe(201);
    const media: Picture = response.json().media;
    for (const url of [media.url, media.originalUrl, ...media.sources.flatMap((s) => s.srcset.split(', '))]) {
      expect(url.startsWith(cdn), url).toBe(true);
    }
    // The server still serves the file at /media/ (for URLs saved before the CDN).
    const name = media.url.slice(cdn.length);
    expect((await ctx.app.inject({ method: 'GET', url: `/media/${name}` })).statusCode).toBe(200);
    expect(String(response.headers['content-security-policy'])).toMatch(
      /img-src 'self' data: blob: https:\/\/cdn\.share\.example/,
    );

    const avatar = await ctx.app.inject(uploadRequest(ana.token, picture, 'avatar'));
    const edit = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/edit',
      headers: { authorization: ana.token },
      payload: { userData: { userPhoto: avatar.json().media.url } },
    });
    expect(edit.statusCode, edit.body).toBe(201);
    expect(edit.json().user.userPhoto.startsWith(cdn)).toBe(true);
  });
});
