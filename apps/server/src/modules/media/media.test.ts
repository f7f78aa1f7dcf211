import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Picture } from '@share-arts/contract';
import { sql } from 'drizzle-orm';
import {
  createPost,
  createTestApp,
  errorOf,
  eventually,
  multipart,
  readStored,
  signUp,
  storedFiles,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { createMediaService } from './media.service.js';
import { toPicture } from './media.presenter.js';
import { exifIsOrientationOnly } from './media.metadata.js';
import { writeReliabilitySection } from '../../../../../scripts/reliability-report.mjs';
import { afterAllTests } from '../../security/fixtures.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

let ctx: TestContext;
let ana: SignedUp;
let ben: SignedUp;

beforeAll(async () => {
  ctx = await createTestApp();
  [ana, ben] = await Promise.all([signUp(ctx.app), signUp(ctx.app)]);
});
afterAll(() => ctx.close());

/** Figures for docs/reliability.md: each hostile upload as it was answered. */
const hostile: { name: string; status: number; outcome: string }[] = [];
const observe = (name: string, response: { statusCode: number; body: string }, outcome = '') => {
  const message = response.statusCode >= 400 ? (JSON.parse(response.body).errors?.[0] ?? '') : '';
  hostile.push({ name, status: response.statusCode, outcome: outcome || message.split(/[.:]/)[0] });
};
afterAllTests(async (failed) => {
  await writeReliabilitySection(
    'uploads',
    [
      `\`src/modules/media/media.test.ts\`: ${hostile.length} hostile uploads, each refused with a clear message ` +
        'and nothing stored, or (the metadata-laden picture) accepted with everything private stripped. ' +
        'The refused ones show how long the refusal took and how much the resident memory of the test process ' +
        'grew while it ran (sampled every 2 ms): the 400-megapixel PNG is refused from its header, never decoded.',
      '',
      `- Faults found: ${failed.length === 0 ? 0 : `${failed.length} (failed: ${failed.join('; ')})`}.`,
      '',
      '| upload | status | outcome |',
      '| --- | ---: | --- |',
      ...hostile.map((h) => `| ${h.name} | ${h.status} | ${h.outcome} |`),
    ].join('\n'),
  );
});

/** Uploads a file (named as given, labelled image/jpeg whatever it is) with optional extra fields. */
function upload(data: Buffer, options: { filename?: string; fields?: Record<string, string>; token?: string } = {}) {
  const { payload, contentType } = multipart([
    ...Object.entries(options.fields ?? {}).map(([name, value]) => ({ name, data: value })),
    { name: 'file', data, filename: options.filename ?? 'picture.jpg', contentType: 'image/jpeg' },
  ]);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (options.token !== '') headers.authorization = options.token ?? ana.token;
  return ctx.app.inject({ method: 'POST', url: '/api/media', payload, headers });
}

async function uploadOk(name: string, fields?: Record<string, string>): Promise<Picture> {
  const response = await upload(await fixture(name), { filename: name, fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().media;
}

/** A picture once the renditions job the upload queued has written its rendition for other servers. */
async function writtenForOthers(id: string): Promise<Picture> {
  const media = createMediaService({ db: ctx.database.db, storage: ctx.storage });
  for (let waited = 0; ; waited += 100) {
    const row = await media.findById(id);
    // Taken by a run (no longer pending) a moment before its file is written and added.
    if (row && toPicture(row).federated) return toPicture(row);
    if (waited > 60_000) throw new Error(`no rendition for other servers of ${id} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A stored file's bytes by its URL (from the media folder, or the bucket with MEDIA_STORE=s3). */
const stored = async (url: string) => {
  const bytes = await readStored(ctx, url.replace(/^\/media\//, ''));
  if (!bytes) throw new Error(`no stored file for ${url}`);
  return bytes;
};
/** Every variant URL of a picture, from its srcsets. */
const variantUrls = (picture: Picture) =>
  picture.sources.flatMap((source) => source.srcset.split(', ').map((entry) => entry.split(' ')[0]!));
/** Every file served for a picture: its variants and its full-resolution original. */
const servedUrls = (picture: Picture) => [...variantUrls(picture), picture.originalUrl];
const mediaFiles = () => storedFiles(ctx);

describe('POST /api/media: accepted formats', () => {
  const still = ['image/avif', 'image/jpeg'];
  it.each([
    ['oriented-p3-gps.jpg', 'jpg', still],
    ['art.png', 'png', still],
    ['art.webp', 'webp', still],
    ['art.avif', 'avif', still],
    ['animated.gif', 'gif', ['image/webp', ...still]],
  ])('stores %s with its variants and answers 201 with the picture', async (name, ext, types) => {
    const picture = await uploadOk(name, { alt: '  A picture  ' });
    expect(picture).toMatchObject({ alt: 'A picture', originalUrl: `/media/${picture._id}-original.${ext}` });
    expect(picture.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(picture.sources.map((source) => source.type)).toEqual(types);
    expect(picture.url).toMatch(new RegExp(`^/media/${picture._id}-\\d+\\.jpg$`));
    // The original is the uploaded file, in its own format, less its personal metadata (the
    // orientation stays, in a minimal EXIF): same pixels, same size.
    const [uploaded, kept] = await Promise.all([
      sharp(await fixture(name)).metadata(),
      sharp(await stored(picture.originalUrl)).metadata(),
    ]);
    expect([kept.format, kept.width, kept.height, kept.orientation]).toEqual([
      uploaded.format,
      uploaded.width,
      uploaded.height,
      uploaded.orientation,
    ]);
    expect([kept.xmp, kept.comments]).toEqual([undefined, undefined]);
    if (kept.exif) expect(exifIsOrientationOnly(kept.exif)).toBe(true);
    const formats = { avif: 'heif', jpg: 'jpeg', webp: 'webp' } as Record<string, string>;
    for (const url of variantUrls(picture)) {
      const metadata = await sharp(await stored(url)).metadata();
      expect(metadata.format).toBe(formats[url.split('.').pop()!]);
    }
  });

  it('keeps the first frame of an animated GIF', async () => {
    const picture = await uploadOk('animated.gif');
    const { data, info } = await sharp(await stored(picture.url))
      .raw()
      .toBuffer({ resolveWithObject: true });
    // A 30 × 20 GIF is pixel art: `url` is its first frame scaled 36 times with nearest-neighbour.
    expect([info.width, info.height]).toEqual([1080, 720]);
    expect(data[0]).toBeGreaterThan(200); // red, the first frame; the second is blue
    expect(data[2]).toBeLessThan(50);
  });

  it('makes 320, 640, 1080 and 2048 wide variants but never upscales', async () => {
    // 700 px wide: above the pixel-art size, so scaled as a painting or a photograph is.
    const painting = await sharp({ create: { width: 700, height: 420, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const response = await upload(painting, { filename: 'painting.png' });
    expect(response.statusCode, response.body).toBe(201);
    const picture: Picture = response.json().media;
    expect([picture.width, picture.height, picture.pixelated]).toEqual([700, 420, false]);
    const id = picture._id;
    const srcset = (ext: string) => [320, 640, 700].map((w) => `/media/${id}-${w}.${ext} ${w}w`).join(', ');
    expect(picture.sources).toEqual([
      { type: 'image/avif', srcset: srcset('avif') },
      { type: 'image/jpeg', srcset: srcset('jpg') },
    ]);
    expect(picture.url).toBe(`/media/${id}-700.jpg`);
    const small = await sharp(await stored(`/media/${id}-320.avif`)).metadata();
    expect([small.width, small.height]).toEqual([320, 192]);
  });

  it('makes square avatar crops of 96, 192 and 400, never larger than the picture', async () => {
    const picture = await uploadOk('art.png', { purpose: 'avatar' });
    expect([picture.width, picture.height]).toEqual([300, 300]);
    expect(picture.sources[1]!.srcset).toBe(
      [96, 192, 300].map((size) => `/media/${picture._id}-${size}.jpg ${size}w`).join(', '),
    );
    const metadata = await sharp(await stored(picture.url)).metadata();
    expect([metadata.width, metadata.height]).toEqual([300, 300]);
  });
});

describe('POST /api/media: what the variants contain', () => {
  let picture: Picture;
  beforeAll(async () => {
    picture = await uploadOk('oriented-p3-gps.jpg');
  });

  it('reads a fixture that really carries GPS, EXIF, XMP, a comment, a P3 profile and orientation 6', async () => {
    const metadata = await sharp(await fixture('oriented-p3-gps.jpg')).metadata();
    expect(metadata).toMatchObject({ orientation: 6, width: 40, height: 20 });
    expect(metadata.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer tag
    expect(metadata.xmp).toBeDefined();
    expect((await fixture('oriented-p3-gps.jpg')).includes('secret comment')).toBe(true);
    expect(metadata.icc!.includes(Buffer.from([0, 0x50, 0, 0x33]))).toBe(true); // "P3" in the profile's description
  });

  it('applies the orientation: a 6-oriented 40 × 20 picture is 20 × 40 (pixel art: whole multiples)', async () => {
    expect([picture.width, picture.height, picture.pixelated]).toEqual([20, 40, true]);
    for (const url of variantUrls(picture)) {
      const metadata = await sharp(await stored(url)).metadata();
      expect(metadata.orientation, url).toBeUndefined();
      expect(metadata.height, url).toBe(metadata.width! * 2);
      expect(metadata.width! % 20, url).toBe(0);
    }
  });

  it('strips personal metadata from every served file: EXIF (GPS), XMP, comments; the original keeps its P3 profile and orientation', async () => {
    let files = 0;
    for (const url of servedUrls(picture)) {
      files += 1;
      const bytes = await stored(url);
      const metadata = await sharp(bytes).metadata();
      if (url === picture.originalUrl) {
        // The orientation alone, in a minimal EXIF, and the uploaded colour profile byte for byte.
        expect(metadata.orientation, url).toBe(6);
        expect(exifIsOrientationOnly(metadata.exif!), url).toBe(true);
        const uploaded = await sharp(await fixture('oriented-p3-gps.jpg')).metadata();
        expect(metadata.icc!.equals(uploaded.icc!), url).toBe(true);
      } else {
        expect(metadata.exif, url).toBeUndefined();
        if (metadata.icc) expect(metadata.icc.toString('latin1'), url).toMatch(/sRGB/);
      }
      expect(metadata.xmp, url).toBeUndefined();
      expect(metadata.iptc, url).toBeUndefined();
      expect(metadata.comments, url).toBeUndefined();
      expect(bytes.includes('secret'), url).toBe(false);
      expect(bytes.includes('Secret'), url).toBe(false);
      expect(bytes.includes('FixtureCam'), url).toBe(false);
    }
    hostile.push({
      name: 'JPEG with GPS, EXIF, XMP, a comment, a P3 profile, orientation 6',
      status: 201,
      outcome: `accepted; no personal metadata left in any of its ${files} served files (the original keeps its orientation and profile)`,
    });
  });

  it('converts Display P3 colours to sRGB', async () => {
    // P3 (200, 100, 50) through the P3 → sRGB matrix (both use the sRGB transfer curve).
    const toLinear = (v: number) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    const toByte = (v: number) =>
      255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * Math.max(0, Math.min(1, v)) ** (1 / 2.4) - 0.055);
    const [r, g, b] = [200, 100, 50].map(toLinear) as [number, number, number];
    const expected = [
      toByte(1.2249 * r - 0.2247 * g),
      toByte(-0.042 * r + 1.0419 * g),
      toByte(-0.0197 * r - 0.0786 * g + 1.0979 * b),
    ];
    for (const url of variantUrls(picture)) {
      const pixel = [
        ...(
          await sharp(await stored(url))
            .raw()
            .toBuffer()
        ).subarray(0, 3),
      ];
      expect(pixel, url).not.toEqual([200, 100, 50]);
      pixel.forEach((value, i) => expect(Math.abs(value - expected[i]!), url).toBeLessThanOrEqual(3));
    }
  });
});

describe('POST /api/media: refused uploads', () => {
  it.each([
    ['text.jpg', 415, /^This file is not a supported picture\. Upload a JPEG, PNG, WebP, AVIF or GIF/],
    ['script.svg', 415, /^This file is not a supported picture/],
    ['truncated.jpg', 422, /^The picture could not be read: the file is damaged or incomplete/],
    ['bomb.png', 413, /^The picture is 20000 × 20000 pixels \(400 megapixels\); pictures can have at most 40/],
    ['polyglot.gif', 422, /^This file contains web page code \(HTML or script\)/],
  ])('refuses %s with %i, fast, storing nothing', async (name, status, message) => {
    const before = await mediaFiles();
    const data = await fixture(name);
    // How long and how much memory the refusal took, for docs/reliability.md (measured, not asserted:
    // timings belong to benchmarks). The process's resident memory is sampled while the request runs.
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 2);
    const started = performance.now();
    const response = await upload(data, { filename: name });
    const ms = Math.round(performance.now() - started);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    expect(response.statusCode).toBe(status);
    expect(errorOf(response)).toMatch(message);
    expect(await mediaFiles()).toEqual(before);
    const grew = ((rssPeak - rssBefore) / 2 ** 20).toFixed(1);
    observe(
      name,
      response,
      `${errorOf(response).split(/[.:]/)[0]}; answered in ${ms} ms, resident memory +${grew} MB at most, nothing stored`,
    );
  });

  it('refuses a file over 20 MB with 413', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    const response = await upload(big);
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toBe('The file is too large: pictures can be at most 20 MB.');
    observe('a file over 20 MB', response);
  });

  it('refuses a request whose declared length is over the limit before reading it', async () => {
    const { payload, contentType } = multipart([{ name: 'file', data: 'x', filename: 'a.jpg' }]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload,
      headers: { 'content-type': contentType, authorization: ana.token, 'content-length': String(30 * 1024 ** 2) },
    });
    expect(response.statusCode).toBe(413);
    observe('a declared Content-Length of 30 MB', response, 'refused before the body is read');
  });

  it('answers 401 without a token', async () => {
    const response = await upload(await fixture('art.webp'), { token: '' });
    expect(response.statusCode).toBe(401);
    expect(errorOf(response)).toMatch(/^Sign in first/);
    observe('no token', response);
  });

  it('explains a missing file, an empty file, a JSON body, a long alt and an unknown purpose', async () => {
    const noFile = multipart([{ name: 'alt', data: 'hi' }]);
    const headers = { authorization: ana.token };
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload: noFile.payload,
      headers: { ...headers, 'content-type': noFile.contentType },
    });
    expect([missing.statusCode, errorOf(missing)]).toEqual([400, 'Send exactly one picture, in a field named "file".']);
    observe('no file part', missing);

    const empty = await upload(Buffer.alloc(0));
    expect([empty.statusCode, errorOf(empty)]).toEqual([400, expect.stringMatching(/^The file is empty/)]);
    observe('an empty file', empty);

    const json = await ctx.app.inject({ method: 'POST', url: '/api/media', payload: { file: 'x' }, headers });
    expect([json.statusCode, errorOf(json)]).toEqual([415, expect.stringMatching(/^Send the picture as multipart/)]);
    observe('a JSON body', json);

    const webp = await fixture('art.webp');
    const longAlt = await upload(webp, { fields: { alt: 'a'.repeat(501) } });
    expect([longAlt.statusCode, errorOf(longAlt)]).toEqual([400, 'alt must be at most 500 characters long.']);
    observe('alt text of 501 characters', longAlt);

    const purpose = await upload(webp, { fields: { purpose: 'banner' } });
    expect([purpose.statusCode, errorOf(purpose)]).toEqual([400, 'purpose must be one of: post, avatar.']);
    observe('an unknown purpose', purpose);
  });
});

describe('POST /api/media: the rendition other servers are sent (issue 39)', () => {
  /** The picture's stored files other than its original. */
  const filesOfPicture = async (picture: Picture) =>
    (await mediaFiles()).filter((name) => name.startsWith(`${picture._id}-`) && !name.includes('-original.'));

  it('writes pixel art a lossless PNG: exactly its nearest-neighbour upscale, sRGB, no metadata', async () => {
    const picture = await uploadOk('pixel-art.png');
    // 16 × 12, scaled by the largest whole multiple within 1080 px: 67 (as its widest JPEG).
    expect(picture.federated).toEqual({
      url: `/media/${picture._id}-1072.png`,
      type: 'image/png',
      width: 1072,
      height: 804,
    });
    const png = await stored(picture.federated!.url);
    const metadata = await sharp(png).metadata();
    expect([metadata.format, metadata.space, metadata.icc, metadata.exif, metadata.xmp]).toEqual([
      'png',
      'srgb',
      undefined,
      undefined,
      undefined,
    ]);
    const source = await sharp(await fixture('pixel-art.png'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const sent = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([sent.info.width, sent.info.height]).toEqual([1072, 804]);
    let differing = 0;
    for (let y = 0; y < 804; y += 1) {
      for (let x = 0; x < 1072; x += 1) {
        const from = (Math.floor(y / 67) * 16 + Math.floor(x / 67)) * 4;
        const to = (y * 1072 + x) * 4;
        if (!source.data.subarray(from, from + 4).equals(sent.data.subarray(to, to + 4))) differing += 1;
      }
    }
    expect(differing).toBe(0);
    // Never among what our pages are offered.
    expect(picture.sources.map((source) => source.type)).toEqual(['image/avif', 'image/jpeg']);
  });

  it.each([
    // 30 × 20 pixel art: its widest animated width, 36 times, undithered; red then blue, 200 ms each.
    ['animated.gif', 1080, 720, [200, 200]],
    // 600 × 400: not pixel art, at most 480 px wide.
    ['animated.webp', 480, 320, [100, 200, 300]],
  ])(
    'writes an animation (%s) an animated GIF with its frames, delays and loop',
    async (name, width, height, delay) => {
      const answered = await uploadOk(name);
      // Written by the background job the upload queues (seconds of work the artist does not wait for).
      expect(answered.federated).toBeUndefined();
      const picture = await writtenForOthers(answered._id);
      expect(picture.federated).toEqual({
        url: `/media/${picture._id}-${width}-animated.gif`,
        type: 'image/gif',
        width,
        height,
      });
      const gif = await stored(picture.federated!.url);
      const [sent, uploaded] = await Promise.all([sharp(gif).metadata(), sharp(await fixture(name)).metadata()]);
      expect([sent.format, sent.width, sent.pageHeight ?? sent.height]).toEqual(['gif', width, height]);
      expect([sent.pages, sent.delay, sent.loop]).toEqual([uploaded.pages, delay, uploaded.loop]);
      expect([sent.icc, sent.exif, sent.xmp, sent.comments]).toEqual([undefined, undefined, undefined, undefined]);
      if (name === 'animated.gif') {
        // Pixel art keeps its exact colours: the first frame red, the second blue, as uploaded.
        const frames = await sharp(gif, { pages: -1 }).raw().toBuffer({ resolveWithObject: true });
        const original = await sharp(await fixture(name), { pages: -1 })
          .raw()
          .toBuffer({ resolveWithObject: true });
        const pixel = (image: typeof frames, frame: number) => {
          const at = frame * image.info.width * height * image.info.channels;
          return [...image.data.subarray(at, at + 3)];
        };
        const firstRow = (frame: number) => {
          const at = frame * 30 * 20 * original.info.channels;
          return [...original.data.subarray(at, at + 3)];
        };
        expect([pixel(frames, 0), pixel(frames, 1)]).toEqual([firstRow(0), firstRow(1)]);
      }
      expect((await filesOfPicture(picture)).filter((file) => file.endsWith('.gif'))).toEqual([
        `${picture._id}-${width}-animated.gif`,
      ]);
    },
  );

  it('writes a still photograph neither', async () => {
    // Noisy photographs, small as they are: not pixel art.
    for (const name of ['private.png', 'private.webp']) {
      const picture = await uploadOk(name);
      expect(picture.federated, name).toBeUndefined();
      expect(
        (await filesOfPicture(picture)).filter((file) => /\.(png|gif)$/.test(file)),
        name,
      ).toEqual([]);
    }
    // A 700 px painting is no pixel art either.
    const painting = await sharp({ create: { width: 700, height: 420, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const response = await upload(painting, { filename: 'painting.png' });
    expect(response.json().media.federated).toBeUndefined();
  });
});

describe('GET /media/<file>', () => {
  it('serves variants and originals with their Content-Type, nosniff and immutable caching', async () => {
    const gif = await writtenForOthers((await uploadOk('animated.gif'))._id);
    const png = await uploadOk('art.png');
    const avif = png.sources[0]!.srcset.split(' ')[0]!;
    for (const [url, type] of [
      [png.url, 'image/jpeg'],
      [avif, 'image/avif'],
      [png.originalUrl, 'image/png'],
      [gif.originalUrl, 'image/gif'],
      [gif.federated!.url, 'image/gif'],
      [png.federated!.url, 'image/png'],
    ] as const) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe(type);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['cache-control'], url).toContain('immutable');
    }
  });
});

describe('POST /api/media/{id}/alt', () => {
  let picture: Picture;
  beforeAll(async () => {
    picture = await uploadOk('art.webp', { alt: 'first' });
  });
  const editAlt = (id: string, alt: unknown, token: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/media/${id}/alt`,
      payload: { alt },
      headers: { authorization: token },
    });

  it('lets the owner change the alt text', async () => {
    const response = await editAlt(picture._id, ' A green circle ', ana.token);
    expect(response.statusCode).toBe(201);
    expect(response.json().media).toEqual({ ...picture, alt: 'A green circle' });
  });

  it('refuses anyone else, unknown and malformed ids, long text and no token', async () => {
    const other = await editAlt(picture._id, 'mine now', ben.token);
    expect([other.statusCode, errorOf(other)]).toEqual([
      403,
      'Only the person who uploaded a picture can change its alt text.',
    ]);
    for (const id of [randomUUID(), 'not-a-uuid', '1', 'x'.repeat(80)]) {
      const response = await editAlt(id, 'x', ana.token);
      expect([response.statusCode, errorOf(response)]).toEqual([404, 'No picture with this id.']);
    }
    expect((await editAlt(picture._id, 'a'.repeat(501), ana.token)).statusCode).toBe(400);
    expect((await editAlt(picture._id, 'x', '')).statusCode).toBe(401);
  });
});

describe('the media service', () => {
  const service = () => createMediaService({ db: ctx.database.db, storage: ctx.storage, concurrency: 2 });

  it('processes at most `concurrency` pictures at once', async () => {
    const media = service();
    const data = await fixture('art.png');
    // Two accounts: one account alone runs at most concurrency − 1 (a slot stays free for others).
    const rows = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        media.upload({ ownerId: (i % 2 ? ana : ben).user._id, purpose: 'post', data }),
      ),
    );
    expect(rows).toHaveLength(6);
    expect(media.processingStats()).toEqual({ active: 0, queued: 0, peak: 2, accounts: 0 });
  });

  it('findOwned: the owner gets the row; 404 unknown or malformed, 403 someone else, 400 wrong purpose', async () => {
    const media = service();
    const row = await media.upload({ ownerId: ana.user._id, data: await fixture('art.webp') });
    expect((await media.findOwned(ana.user._id, row.id)).id).toBe(row.id);
    await expect(media.findOwned(ana.user._id, randomUUID())).rejects.toMatchObject({ statusCode: 404 });
    await expect(media.findOwned(ana.user._id, 'nope')).rejects.toMatchObject({ statusCode: 404 });
    await expect(media.findOwned(ben.user._id, row.id)).rejects.toMatchObject({ statusCode: 403 });
    await expect(media.findOwned(ana.user._id, row.id, { purpose: 'avatar' })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('deleteMedia removes the row and every file', async () => {
    const media = service();
    const before = await mediaFiles();
    const row = await media.upload({ ownerId: ana.user._id, data: await fixture('art.png') });
    // The original, 500 and 1000 px wide (art.png is pixel art: scaled up by 2) × AVIF and JPEG, and the
    // 1000 px PNG other servers are sent.
    expect((await mediaFiles()).length).toBe(before.length + 6);
    expect(await media.deleteMedia(row.id)).toBe(true);
    expect(await media.findById(row.id)).toBeUndefined();
    expect(await mediaFiles()).toEqual(before);
    expect(await media.deleteMedia(row.id)).toBe(false);
    expect(await media.deleteMedia('not-a-uuid')).toBe(false);
  });

  it('writes the rendition other servers are sent of pictures uploaded before there were any (0037)', async () => {
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const media = createMediaService({ db: ctx.database.db, storage: ctx.storage, log: quiet });
    const upload = async (name: string) => media.upload({ ownerId: ana.user._id, data: await fixture(name) });
    const [sprite, animation, lost, photo] = await Promise.all(
      ['pixel-art.png', 'animated.gif', 'pixel-art.png', 'private.png'].map(upload),
    );
    // An animation's GIF is always the job's to write (an upload queues it; this service has no queue).
    expect(animation!.federatedPending).toBe(true);
    expect(await media.writeRenditions()).toBe(1);
    const loop = await media.findById(animation!.id);
    const renditionOf = (row: { variants: { format: string; file: string }[] }) =>
      row.variants.find((variant) => variant.format === 'png' || variant.format === 'gif');
    // As they were before migration 0037: no PNG or GIF, marked pending by the migration.
    const written = new Map<string, Buffer>();
    for (const row of [sprite, loop, lost]) {
      const file = renditionOf(row!)!.file;
      written.set(row!.id, (await readStored(ctx, file))!);
      // The animation's file stays, as a run that died after writing it would leave it.
      if (row !== loop) await ctx.storage.remove([file]);
      await ctx.database.db.execute(
        sql`update media set federated_pending = true, variants = (select jsonb_agg(v)
            from jsonb_array_elements(variants) v where v->>'format' not in ('png', 'gif')) where id = ${row!.id}::uuid`,
      );
    }
    // One whose original is gone: it stays without, and is not tried again.
    await ctx.storage.remove([lost!.originalFile]);
    const postId = await createPost(ctx.app, ana, 'Sprite', [sprite!.id]);
    const federatedOfPost = async () =>
      (
        await ctx.app.inject({ method: 'GET', url: `/api/posts/${postId}`, headers: { authorization: ana.token } })
      ).json().post.media[0].federated;
    expect(await federatedOfPost()).toBeUndefined();

    expect(await media.writeRenditions()).toBe(3);
    for (const row of [sprite, loop]) {
      const now = (await media.findById(row!.id))!;
      // The same file an upload writes, under the same name, added to the variants it had.
      expect(now.variants).toEqual([...row!.variants.filter((v) => v !== renditionOf(row!)), renditionOf(row!)]);
      expect(await readStored(ctx, renditionOf(now)!.file)).toEqual(written.get(row!.id));
      expect(now.federatedPending).toBe(false);
    }
    const lostNow = (await media.findById(lost!.id))!;
    expect([renditionOf(lostNow), lostNow.federatedPending]).toEqual([undefined, false]);
    expect((await media.findById(photo!.id))!.federatedPending).toBe(false);
    // The post showing it is read again: its picture names the PNG now.
    await eventually(async () =>
      expect(await federatedOfPost()).toMatchObject({ type: 'image/png', url: `/media/${sprite!.id}-1072.png` }),
    );
    expect(await media.writeRenditions()).toBe(0);
  });

  it('removes the written files when the row cannot be inserted', async () => {
    const media = service();
    const before = await mediaFiles();
    const upload = media.upload({ ownerId: randomUUID(), data: await fixture('art.webp') });
    await expect(upload).rejects.toThrow();
    expect(await mediaFiles()).toEqual(before);
  });
});
