import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_LIMITS, type Picture } from '@share-arts/contract';
import {
  createTestApp,
  errorOf,
  multipart,
  readStored,
  signUp,
  type SignedUp,
  type TestContext,
} from '../../test/helpers.js';
import { exifIsOrientationOnly } from './media.metadata.js';

/**
 * Faithful pictures (issue 21): the original served as uploaded (less its personal metadata) and
 * named, colours converted right from Display P3 and Adobe RGB and kept beyond sRGB for P3 screens,
 * animations kept, pixel art kept crisp.
 */

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

let ctx: TestContext;
let ana: SignedUp;

beforeAll(async () => {
  ctx = await createTestApp();
  ana = await signUp(ctx.app);
});
afterAll(() => ctx.close());

function upload(data: Buffer, filename: string) {
  const { payload, contentType } = multipart([{ name: 'file', data, filename, contentType: 'image/png' }]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/media',
    payload,
    headers: { 'content-type': contentType, authorization: ana.token },
  });
}

async function uploadOk(name: string, filename = name): Promise<Picture> {
  const response = await upload(await fixture(name), filename);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().media;
}

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
/** A stored file's bytes by its URL (from the media folder, or the bucket with MEDIA_STORE=s3). */
const served = async (url: string) => {
  const bytes = await readStored(ctx, url.replace(/^\/media\//, ''));
  if (!bytes) throw new Error(`no stored file for ${url}`);
  return bytes;
};
/** The URLs of one source's srcset, narrowest first. */
const urlsOf = (srcset: string) => srcset.split(', ').map((entry) => entry.split(' ')[0]!);

// --- Colour maths: the expected values come from the spaces' definitions, not from lcms ---------------

type Vec = [number, number, number];
type Mat = [Vec, Vec, Vec];
const D65: Vec = [0.95047, 1, 1.08883];
const mul = (m: Mat, v: Vec): Vec => m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as Vec;
const matmul = (a: Mat, b: Mat): Mat =>
  a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j]! + row[1] * b[1][j]! + row[2] * b[2][j]!)) as Mat;
function invert([[a, b, c], [d, e, f], [g, h, i]]: Mat): Mat {
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}
/** RGB → XYZ from the primaries' chromaticities and the white point. */
function rgbToXyz(primaries: [number, number][]): Mat {
  const P = [0, 1, 2].map((row) => primaries.map(([x, y]) => [x / y, 1, (1 - x - y) / y][row]!)) as Mat;
  const S = mul(invert(P), D65);
  return P.map((row) => row.map((v, j) => v * S[j]!)) as Mat;
}
const SRGB = rgbToXyz([
  [0.64, 0.33],
  [0.3, 0.6],
  [0.15, 0.06],
]);
const P3 = rgbToXyz([
  [0.68, 0.32],
  [0.265, 0.69],
  [0.15, 0.06],
]);
const ADOBE = rgbToXyz([
  [0.64, 0.33],
  [0.21, 0.71],
  [0.15, 0.06],
]);
const srgbDecode = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const srgbEncode = (v: number) => {
  const c = Math.max(0, Math.min(1, v)); // out of gamut: clipped, as a relative colorimetric conversion does
  return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
};
const adobeDecode = (v: number) => v ** (563 / 256);

/** A stored colour in one space, as 8-bit values in another (both D65 here: no adaptation needed). */
function convert(rgb: number[], from: Mat, decode: (v: number) => number, to: Mat): Vec {
  const linear = rgb.map((v) => decode(v / 255)) as Vec;
  return mul(matmul(invert(to), from), linear).map(srgbEncode) as Vec;
}

const P3_BLOCKS = [
  [0, 255, 0],
  [200, 100, 50],
  [255, 0, 0],
  [128, 128, 128],
];
const ADOBE_BLOCKS = [
  [200, 100, 50],
  [30, 160, 90],
  [90, 120, 200],
  [0, 255, 0],
];

/** The colour at the centre of each of the picture's four blocks, as stored (no conversion on decode). */
async function blockCentres(file: Buffer): Promise<number[][]> {
  const { data, info } = await sharp(file).keepIccProfile().raw().toBuffer({ resolveWithObject: true });
  return [0, 1, 2, 3].map((block) => {
    const x = Math.floor(((block + 0.5) * info.width) / 4);
    const at = (Math.floor(info.height / 2) * info.width + x) * info.channels;
    return [...data.subarray(at, at + 3)];
  });
}

const within = (actual: number[], expected: number[], tolerance: number) =>
  actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);

/** The distinct RGB colours of a picture. */
async function coloursOf(data: Buffer): Promise<number[][]> {
  const { data: pixels, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const seen = new Map<string, number[]>();
  for (let at = 0; at < pixels.length; at += info.channels) {
    const colour = [...pixels.subarray(at, at + 3)];
    seen.set(colour.join(), colour);
  }
  return [...seen.values()];
}

/** How far (in the channel that differs most) the pixel of `pixels` farthest from every one of `colours` is. */
function farthestFrom(colours: number[][], pixels: Buffer, channels: number): number {
  let farthest = 0;
  for (let at = 0; at < pixels.length; at += channels) {
    const nearest = Math.min(
      ...colours.map((colour) => Math.max(...colour.map((v, c) => Math.abs(v - pixels[at + c]!)))),
    );
    farthest = Math.max(farthest, nearest);
  }
  return farthest;
}

describe('the original: as uploaded, named, without personal metadata', () => {
  it('serves a file without metadata byte for byte, with its type and its uploaded name (inline, or attachment with ?download)', async () => {
    const uploaded = await fixture('p3-colours.png');
    // A path, characters file systems refuse, and a right-to-left override (which can make a name read
    // backwards): all cleaned; the extension written in lower case.
    const picture = await uploadOk('p3-colours.png', '..\\secret\\Été: draft*\u202e.PNG');
    expect(picture).toMatchObject({
      originalType: 'image/png',
      originalBytes: uploaded.length,
      originalName: 'Été_ draft_.png',
    });
    const response = await get(picture.originalUrl);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(uploaded)).toBe(true);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="Ete_ draft_.png"; filename*=UTF-8''%C3%89t%C3%A9_%20draft_.png`,
    );
    const download = await get(`${picture.originalUrl}?download`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="Ete_ draft_\.png"/);
    expect(download.rawPayload.equals(uploaded)).toBe(true);
    // Variants are not downloads: no disposition.
    expect((await get(picture.url)).headers['content-disposition']).toBeUndefined();
  });

  it('names a file by its real format and falls back to "picture"', async () => {
    const jpeg = await uploadOk('oriented-p3-gps.jpg', 'scan.png');
    expect([jpeg.originalName, jpeg.originalType]).toEqual(['scan.jpg', 'image/jpeg']);
    const nameless = await uploadOk('art.webp', '...');
    expect(nameless.originalName).toBe('picture.webp');
  });

  it.each([
    ['oriented-p3-gps.jpg', 6],
    ['private.png', 6],
    ['private.webp', 6],
    ['private.avif', undefined],
    ['private.gif', undefined],
  ])(
    'takes the personal metadata out of %s losslessly: same pixels, same profile, same orientation',
    async (name, orientation) => {
      const uploaded = await fixture(name);
      const picture = await uploadOk(name);
      const kept = await served(picture.originalUrl);
      expect(kept.length).toBeLessThanOrEqual(uploaded.length);
      expect(picture.originalBytes).toBe(kept.length);
      expect(picture.originalType).toBe((await sharp(uploaded).metadata()).mediaType);
      expect(uploaded.includes('Secret') || uploaded.includes('secret')).toBe(true);
      for (const secret of ['Secret', 'secret', 'Hidden Lane', 'FixtureCam']) {
        expect(kept.includes(secret), `${name}: ${secret}`).toBe(false);
      }
      const [before, after] = await Promise.all([sharp(uploaded).metadata(), sharp(kept).metadata()]);
      expect(after.orientation).toBe(orientation);
      expect(after.xmp === undefined || after.xmp.toString().trim().length < 40).toBe(true);
      expect([after.iptc, after.comments]).toEqual([undefined, undefined]);
      if (after.exif) expect(exifIsOrientationOnly(after.exif)).toBe(true);
      expect(after.icc?.equals(before.icc!) ?? before.icc === undefined).toBe(true);
      // Every pixel as uploaded (both decoded the same way: upright, converted alike).
      const [a, b] = await Promise.all([sharp(uploaded).raw().toBuffer(), sharp(kept).raw().toBuffer()]);
      expect(a.equals(b)).toBe(true);
      // The picture displays the way it was taken: its upright size is the picture's.
      const upright = after.autoOrient;
      expect([upright.width, upright.height]).toEqual([picture.width, picture.height]);
    },
  );
});

describe('colour: converted right to sRGB, kept beyond sRGB for P3 screens', () => {
  let p3: Picture;
  let adobe: Picture;
  beforeAll(async () => {
    [p3, adobe] = [await uploadOk('p3-colours.png'), await uploadOk('adobe-rgb.png')];
  });

  it('lists the P3 variants first, for (color-gamut: p3), then the sRGB ones', () => {
    for (const picture of [p3, adobe]) {
      expect(picture.sources.map(({ type, media }) => [type, media])).toEqual([
        ['image/avif', '(color-gamut: p3)'],
        ['image/jpeg', '(color-gamut: p3)'],
        ['image/avif', undefined],
        ['image/jpeg', undefined],
      ]);
      expect(picture.sources[0]!.srcset).toMatch(/-320-p3\.avif 320w, .*-640-p3\.avif 640w$/);
      expect(picture.url).toMatch(/-640\.jpg$/); // `url` stays the sRGB JPEG
    }
  });

  it('converts Display P3 to sRGB within ±3 of the colour maths in every sRGB variant', async () => {
    const expected = P3_BLOCKS.map((rgb) => convert(rgb, P3, srgbDecode, SRGB));
    for (const source of p3.sources.slice(2)) {
      for (const url of urlsOf(source.srcset)) {
        const centres = await blockCentres(await served(url));
        centres.forEach((centre, i) =>
          expect(within(centre, expected[i]!, 3), `${url} block ${i}: ${centre}`).toBe(true),
        );
      }
    }
  });

  it('converts Adobe RGB (1998) to sRGB within ±3 of the colour maths in every sRGB variant', async () => {
    const expected = ADOBE_BLOCKS.map((rgb) => convert(rgb, ADOBE, adobeDecode, SRGB));
    for (const source of adobe.sources.slice(2)) {
      for (const url of urlsOf(source.srcset)) {
        const centres = await blockCentres(await served(url));
        centres.forEach((centre, i) =>
          expect(within(centre, expected[i]!, 3), `${url} block ${i}: ${centre}`).toBe(true),
        );
      }
    }
  });

  it('keeps P3 pure green unclipped in the P3 variants, with the Display P3 profile embedded', async () => {
    // sRGB's greenest green, written in P3: what a P3 variant would hold had it passed through sRGB.
    const clipped = convert([0, 255, 0], SRGB, srgbDecode, P3).map(Math.round);
    expect(within(clipped, [117, 251, 76], 2)).toBe(true);
    const p3Profile = (await sharp(await fixture('p3-colours.png')).metadata()).icc!;
    for (const source of p3.sources.slice(0, 2)) {
      for (const url of urlsOf(source.srcset)) {
        const file = await served(url);
        expect((await sharp(file).metadata()).icc?.equals(p3Profile), url).toBe(true);
        const centres = await blockCentres(file);
        expect(within(centres[0]!, [0, 255, 0], 3), `${url}: ${centres[0]}`).toBe(true);
        expect(within(centres[0]!, clipped, 20), url).toBe(false);
        // The in-gamut colours are the stored P3 values themselves.
        P3_BLOCKS.slice(1).forEach((rgb, i) =>
          expect(within(centres[i + 1]!, rgb, 3), `${url}: ${centres[i + 1]}`).toBe(true),
        );
      }
    }
  });

  it('converts Adobe RGB into the P3 variants within ±3 of the colour maths (its green clipped only to P3)', async () => {
    const expected = ADOBE_BLOCKS.map((rgb) => convert(rgb, ADOBE, adobeDecode, P3));
    for (const source of adobe.sources.slice(0, 2)) {
      for (const url of urlsOf(source.srcset)) {
        const centres = await blockCentres(await served(url));
        centres.forEach((centre, i) =>
          expect(within(centre, expected[i]!, 3), `${url} block ${i}: ${centre}`).toBe(true),
        );
      }
    }
  });

  it('makes no P3 variants for a P3 picture whose colours all fit in sRGB, nor for an sRGB one', async () => {
    const inGamut = await uploadOk('oriented-p3-gps.jpg');
    const plain = await uploadOk('art.png');
    for (const picture of [inGamut, plain]) {
      expect(picture.sources.every((source) => source.media === undefined)).toBe(true);
    }
  });
});

describe('animation', () => {
  it('keeps an animated WebP animated (every frame, its timing), first for (prefers-reduced-motion: no-preference)', async () => {
    const picture = await uploadOk('animated.webp');
    expect(picture.animated).toBe(true);
    expect(picture.sources.map(({ type, media }) => [type, media])).toEqual([
      ['image/webp', '(prefers-reduced-motion: no-preference)'],
      ['image/avif', undefined],
      ['image/jpeg', undefined],
    ]);
    const urls = urlsOf(picture.sources[0]!.srcset);
    expect(urls.map((url) => url.replace(/^.*-(\d+)-animated\.webp$/, '$1'))).toEqual(['320', '600']);
    for (const url of urls) {
      const metadata = await sharp(await served(url), { animated: true }).metadata();
      expect([metadata.pages, metadata.delay, metadata.loop], url).toEqual([3, [100, 200, 300], 0]);
    }
    // The stills are the first frame: red.
    const { data } = await sharp(await served(picture.url))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(within([...data.subarray(0, 3)], [0xee, 0x33, 0x33], 6)).toBe(true);
  });

  it('keeps an animated GIF animated, as pixel art scaled with nearest-neighbour', async () => {
    const picture = await uploadOk('animated.gif');
    expect([picture.animated, picture.pixelated]).toEqual([true, true]);
    const urls = urlsOf(picture.sources[0]!.srcset);
    // 30 × 20: whole multiples up to the widest animated variant (1080).
    expect(urls.map((url) => Number(url.replace(/^.*-(\d+)-animated\.webp$/, '$1')))).toEqual([30, 300, 630, 1080]);
    const metadata = await sharp(await served(urls[1]!), { animated: true }).metadata();
    expect([metadata.pages, metadata.width, metadata.pageHeight]).toEqual([2, 300, 200]);
  });

  it('encodes flat pixel art losslessly and a small clip of a photograph lossily, as no pixel art', async () => {
    const flat = await uploadOk('animated.gif');
    const flatWebp = await served(urlsOf(flat.sources[0]!.srcset)[0]!);
    expect([flatWebp.includes('VP8L'), flatWebp.includes('VP8 ')]).toEqual([true, false]);
    const noisy = (mean: number) =>
      sharp({
        create: {
          width: 64,
          height: 48,
          channels: 3,
          background: '#777',
          noise: { type: 'gaussian', mean, sigma: 40 },
        },
      })
        .png()
        .toBuffer();
    const clip = await sharp([await noisy(100), await noisy(140)], { join: { animated: true } })
      .gif({ delay: 100 })
      .toBuffer();
    const response = await upload(clip, 'clip.gif');
    const picture: Picture = response.json().media;
    expect([picture.animated, picture.pixelated]).toEqual([true, false]);
    const clipWebp = await served(urlsOf(picture.sources[0]!.srcset)[0]!);
    expect([clipWebp.includes('VP8L'), clipWebp.includes('VP8 ')]).toEqual([false, true]);
  });

  it.each([
    ['many-frames.gif', /^The animation has 301 frames; animations can have at most 300 frames/],
    [
      'huge-animation.gif',
      /^The animation is 31 frames of 2000 × 1000 pixels \(62 megapixels in all\); animations can have at most 60/,
    ],
  ])('refuses %s with 413 and says why', async (name, message) => {
    const response = await upload(await fixture(name), name);
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toMatch(message);
  });

  it('states its limits in MEDIA_LIMITS', () => {
    expect([MEDIA_LIMITS.maxFrames, MEDIA_LIMITS.maxAnimationPixels]).toEqual([300, 60_000_000]);
  });
});

describe('pixel art', () => {
  it('scales a 16 × 12 sprite up by whole multiples with nearest-neighbour, never blurred', async () => {
    const picture = await uploadOk('pixel-art.png');
    expect(picture.pixelated).toBe(true);
    const jpegs = picture.sources.find((source) => source.type === 'image/jpeg')!;
    expect(jpegs.srcset.split(', ').map((entry) => entry.split(' ')[1])).toEqual(['16w', '320w', '640w', '1072w']);
    // The 320 px variant is the sprite × 20: each 4 × 4 cell is an 80 × 80 square of one colour, right up
    // to its edge (a smooth kernel would blend the cells across some 40 px).
    const { data, info } = await sharp(await served(urlsOf(jpegs.srcset)[1]!))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([320, 240]);
    const at = (x: number, y: number) => [...data.subarray((y * 320 + x) * 3, (y * 320 + x) * 3 + 3)];
    const [dark, yellow] = [
      [20, 20, 40],
      [240, 200, 60],
    ];
    for (const y of [2, 40, 77]) {
      expect(within(at(40, y), dark, 4)).toBe(true);
      expect(within(at(77, y), dark, 10), `${at(77, y)}`).toBe(true);
      expect(within(at(82, y), yellow, 10), `${at(82, y)}`).toBe(true);
    }
  });

  it('draws a small flat picture crisp: every pixel of its variants is one of its own colours', async () => {
    const sprite = await fixture('pixel-art.png');
    const picture = await uploadOk('pixel-art.png');
    expect(picture.pixelated).toBe(true);
    const colours = await coloursOf(sprite);
    expect(colours).toHaveLength(4);
    // Nearest-neighbour makes every pixel one of the sprite's. AVIF and JPEG are lossy, but at 320 and
    // 640 px each sprite pixel is whole 8 × 8 blocks of one colour: both came back within ±5 of its
    // colours. A smooth kernel blends neighbouring colours across each edge, as the lanczos control
    // below does, far beyond that.
    let checked = 0;
    for (const source of picture.sources) {
      for (const url of urlsOf(source.srcset).filter((u) => /-(320|640)\.\w+$/.test(u))) {
        const { data, info } = await sharp(await served(url))
          .raw()
          .toBuffer({ resolveWithObject: true });
        expect(farthestFrom(colours, data, info.channels), url).toBeLessThanOrEqual(8);
        checked += 1;
      }
    }
    expect(checked).toBe(4);
    const blurred = await sharp(sprite).resize({ width: 320, kernel: 'lanczos3' }).raw().toBuffer();
    expect(farthestFrom(colours, blurred, 3)).toBeGreaterThan(40);
  });

  // Photo-like: Gaussian noise, as a sensor's, and the same blurred, as a painting's brushed gradients
  // (0 % and 3 % of their pixels equal to their left neighbour; pixel art has half or more).
  const noise = () =>
    sharp({
      create: {
        width: 400,
        height: 300,
        channels: 3,
        background: '#777',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    });
  const photo = () => noise().jpeg({ quality: 90 }).toBuffer();
  const painting = async () =>
    sharp(await noise().png().toBuffer())
      .blur(3)
      .png()
      .toBuffer();
  async function uploadSmall(data: Buffer): Promise<Picture> {
    const response = await upload(data, 'small.png');
    expect(response.statusCode, response.body).toBe(201);
    return response.json().media;
  }

  it.each([
    ['a 400 × 300 photograph (JPEG)', photo],
    ['a 400 × 300 painting (PNG)', painting],
  ])('scales %s as any picture: pixelated false, never upscaled', async (_, make) => {
    const picture = await uploadSmall(await make());
    expect([picture.width, picture.height, picture.pixelated]).toEqual([400, 300, false]);
    // The standard widths below its own, then its own: pixel art would be 400 px and whole multiples above.
    for (const source of picture.sources) expect(source.srcset).toMatch(/-320\.\w+ 320w, .*-400\.\w+ 400w$/);
  });

  it('resizes a small photograph with lanczos, not nearest-neighbour', async () => {
    const uploaded = await photo();
    const picture = await uploadSmall(uploaded);
    const variant = await sharp(await served(urlsOf(picture.sources.at(-1)!.srcset)[0]!))
      .raw()
      .toBuffer();
    const distanceTo = async (kernel: 'lanczos3' | 'nearest') => {
      const expected = await sharp(uploaded).resize({ width: 320, kernel }).raw().toBuffer();
      let sum = 0;
      for (let i = 0; i < expected.length; i += 1) sum += Math.abs(expected[i]! - variant[i]!);
      return sum / expected.length;
    };
    const [lanczos, nearest] = [await distanceTo('lanczos3'), await distanceTo('nearest')];
    expect(lanczos, `${lanczos} against ${nearest}`).toBeLessThan(nearest / 2);
  });

  it('leaves avatars and pictures of 512 px and more alone', async () => {
    const { payload, contentType } = multipart([
      { name: 'purpose', data: 'avatar' },
      { name: 'file', data: await fixture('art.png'), filename: 'me.png', contentType: 'image/png' },
    ]);
    const avatar = await ctx.app.inject({
      method: 'POST',
      url: '/api/media',
      payload,
      headers: { 'content-type': contentType, authorization: ana.token },
    });
    expect(avatar.json().media.pixelated).toBe(false);
    expect((await uploadOk('p3-colours.png')).pixelated).toBe(false);
  });
});
