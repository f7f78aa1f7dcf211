import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorOf, multipart, signUp, type SignedUp, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
let ana: SignedUp;

beforeAll(async () => {
  // The media folder's own behaviour: the local driver whatever MEDIA_STORE the suite runs with.
  ctx = await createTestApp({ config: { mediaStore: { kind: 'local' } } });
  ana = await signUp(ctx.app);
});
afterAll(() => ctx.close());

const ENCODE = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

/** A picture-shaped multipart body (a JPEG header and 19 MB of zeros, which compress to almost nothing). */
function pictureBody(bytes: number) {
  const data = Buffer.alloc(bytes);
  data.set([0xff, 0xd8, 0xff]);
  return multipart([{ name: 'file', data, filename: 'big.jpg', contentType: 'image/jpeg' }]);
}

describe('compressed request bodies', () => {
  it.each(Object.keys(ENCODE) as (keyof typeof ENCODE)[])(
    'refuses a %s-encoded multipart upload with 415 at once, storing nothing',
    async (encoding) => {
      const { payload, contentType } = pictureBody(19 * 1024 * 1024);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/media',
        payload: ENCODE[encoding](payload),
        headers: { 'content-type': contentType, 'content-encoding': encoding, authorization: ana.token },
      });
      expect(response.statusCode).toBe(415);
      expect(errorOf(response)).toMatch(/^Send the picture uncompressed/);
      expect(await readdir(ctx.config.mediaDir)).toEqual([]);
    },
  );

  it('answers a gzip-encoded 19 MB upload over a real socket (it hung before)', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const { payload, contentType } = pictureBody(19 * 1024 * 1024);
    const response = await fetch(`http://127.0.0.1:${port}/api/media`, {
      method: 'POST',
      body: gzipSync(payload),
      headers: { 'content-type': contentType, 'content-encoding': 'gzip', authorization: ana.token },
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { errors: string[] }).errors[0]).toMatch(/^Send the picture uncompressed/);
  });

  it.each(Object.keys(ENCODE) as (keyof typeof ENCODE)[])('accepts a %s-encoded JSON body', async (encoding) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: ENCODE[encoding](JSON.stringify({ username: ana.user.username, password: ana.password })),
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('counts the 1 MB body limit after decompression: a 64 MB JSON bomb of 64 KB is a 413', async () => {
    const bomb = gzipSync(`{"content":"${'a'.repeat(64 * 1024 * 1024)}"}`);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/posts',
      payload: bomb,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: ana.token },
    });
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toMatch(/too large/i);
  });

  it('names the encodings it accepts when it gets another one', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: 'x',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
    });
    expect(response.statusCode).toBe(415);
    expect(errorOf(response)).toBe(
      'Unsupported Content-Encoding "compress": send the body uncompressed, or as gzip, deflate or br.',
    );
  });

  it('says so when a compressed body cannot be decompressed', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: Buffer.from('this is not gzip at all'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe('The body could not be decompressed as gzip: it is damaged or not gzip.');
  });
});
