import sharp, {
  type AvifOptions,
  type GifOptions,
  type JpegOptions,
  type KernelEnum,
  type Metadata,
  type PngOptions,
  type Sharp,
  type SharpOptions,
  type WebpOptions,
} from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { encode as encodeBlurHash } from 'blurhash';
import { MEDIA_LIMITS, type MediaPurpose } from '@share-arts/contract';
import type { MediaVariant } from '../../db/schema.js';
import { HttpError, refusal } from '../../lib/http-error.js';
import { countBeyondSrgb, isWideGamut, toP3 } from './media.colour.js';
import { exifIsOrientationOnly, isBlankXmp, stripMetadata } from './media.metadata.js';

// Uploads are one-off inputs: libvips' operation cache would only hold on to their memory.
sharp.cache(false);

const ALLOWED = 'Upload a JPEG, PNG, WebP, AVIF or GIF picture of at most 20 MB and 40 megapixels.';
export const MEDIA_MESSAGES = {
  unsupported: `This file is not a supported picture. ${ALLOWED}`,
  damaged: `The picture could not be read: the file is damaged or incomplete. ${ALLOWED}`,
  activeContent:
    'This file contains web page code (HTML or script) besides the picture, which is not allowed. ' +
    'Export it again as a plain JPEG, PNG, WebP, AVIF or GIF.',
  tooLarge: `The file is too large: pictures can be at most ${MEDIA_LIMITS.maxBytes / 1024 / 1024} MB.`,
  empty: `The file is empty. ${ALLOWED}`,
  // Filled with the picture's figures in the reader's language (issue 43).
  tooManyPixels:
    'The picture is {width} × {height} pixels ({megapixels} megapixels); ' +
    `pictures can have at most ${MEDIA_LIMITS.maxPixels / 1e6} megapixels.`,
  tooManyFrames:
    `The animation has {frames} frames; animations can have at most ${MEDIA_LIMITS.maxFrames} frames. ` +
    'Shorten it, or upload a still picture.',
  animationTooLarge:
    'The animation is {frames} frames of {width} × {height} pixels ' +
    '({megapixels} megapixels in all); animations can have at most ' +
    `${MEDIA_LIMITS.maxAnimationPixels / 1e6} megapixels in all. Make it smaller or shorter.`,
} as const;

export interface DetectedFormat {
  /** The file extension the original is stored under. */
  ext: 'jpg' | 'png' | 'webp' | 'avif' | 'gif';
  mime: (typeof MEDIA_LIMITS.mimeTypes)[number];
}

const FORMATS: Record<DetectedFormat['ext'], DetectedFormat> = {
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
  webp: { ext: 'webp', mime: 'image/webp' },
  avif: { ext: 'avif', mime: 'image/avif' },
  gif: { ext: 'gif', mime: 'image/gif' },
};

const ascii = (data: Buffer, start: number, end: number) => data.toString('latin1', start, end);

/**
 * The format from the file's first bytes, before any decoder sees it: anything else (SVG, HTML, PDF,
 * TIFF, HEIC, …) never reaches libvips.
 */
export function sniffFormat(data: Buffer): DetectedFormat | null {
  if (data.length < 12) return null;
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return FORMATS.jpg;
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return FORMATS.png;
  const six = ascii(data, 0, 6);
  if (six === 'GIF87a' || six === 'GIF89a') return FORMATS.gif;
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return FORMATS.webp;
  if (ascii(data, 4, 8) === 'ftyp') {
    const boxSize = Math.min(data.readUInt32BE(0), data.length, 256);
    const brands = [ascii(data, 8, 12)];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(data, at, at + 4));
    if (brands.includes('avif') || brands.includes('avis')) return FORMATS.avif;
  }
  return null;
}

// A picture that is also a web page (a GIF/HTML polyglot) is harmless behind the right Content-Type and
// nosniff, but the original is served as uploaded, so it is refused rather than kept.
const ACTIVE_CONTENT = /<(?:script|html|body|iframe|object|embed|svg|meta|!doctype)[\s/>]|<\?php/i;

export function hasActiveContent(data: Buffer): boolean {
  return ACTIVE_CONTENT.test(data.toString('latin1'));
}

const inputOptions = {
  // A second guard behind the header check: libvips refuses to decode more pixels than this.
  limitInputPixels: MEDIA_LIMITS.maxPixels,
  // Truncated or corrupt data fails; mere warnings (common in camera JPEGs) do not.
  failOn: 'error',
  sequentialRead: true,
} satisfies SharpOptions;

export interface Inspected {
  format: DetectedFormat;
  /** After EXIF orientation (of one frame, for an animation). */
  width: number;
  height: number;
  /** The EXIF orientation (1–8), when the file has one. */
  orientation: number | undefined;
  /** Frames of an animated GIF or WebP; 1 for a still picture. */
  frames: number;
  /** The embedded ICC profile, if any. */
  profile: Buffer | undefined;
}

/**
 * Checks an upload from its bytes and header alone (nothing is decoded): a supported format, agreed on
 * by the magic bytes and libvips, within the pixel limit (and an animation within its frame and total
 * pixel limits), with no web page code inside.
 */
export async function inspectImage(data: Buffer): Promise<Inspected> {
  if (data.length === 0) throw new HttpError(400, MEDIA_MESSAGES.empty);
  if (data.length > MEDIA_LIMITS.maxBytes) throw new HttpError(413, MEDIA_MESSAGES.tooLarge);
  const format = sniffFormat(data);
  if (!format) throw new HttpError(415, MEDIA_MESSAGES.unsupported);
  let metadata: Metadata;
  try {
    // Reading the header decodes nothing, so the pixel limit is checked below with a precise message.
    metadata = await sharp(data, { ...inputOptions, limitInputPixels: false }).metadata();
  } catch {
    throw new HttpError(422, MEDIA_MESSAGES.damaged);
  }
  const detected = metadata.format === 'heif' ? (metadata.compression === 'av1' ? 'avif' : null) : metadata.format;
  if ((detected === 'jpeg' ? 'jpg' : detected) !== format.ext) throw new HttpError(415, MEDIA_MESSAGES.unsupported);
  const { width, height } = metadata;
  if (!width || !height) throw new HttpError(422, MEDIA_MESSAGES.damaged);
  if (width * height > MEDIA_LIMITS.maxPixels) {
    const megapixels = Math.round((width * height) / 1e6);
    throw refusal(413, MEDIA_MESSAGES.tooManyPixels, { width, height, megapixels });
  }
  // A GIF or WebP reports its frame count; its height is one frame's.
  const frames = format.ext === 'gif' || format.ext === 'webp' ? Math.max(1, metadata.pages ?? 1) : 1;
  if (frames > MEDIA_LIMITS.maxFrames) throw refusal(413, MEDIA_MESSAGES.tooManyFrames, { frames });
  if (width * height * frames > MEDIA_LIMITS.maxAnimationPixels) {
    const megapixels = Math.round((width * height * frames) / 1e6);
    throw refusal(413, MEDIA_MESSAGES.animationTooLarge, { frames, width, height, megapixels });
  }
  if (hasActiveContent(data)) throw new HttpError(422, MEDIA_MESSAGES.activeContent);
  return {
    format,
    width: metadata.autoOrient.width,
    height: metadata.autoOrient.height,
    orientation: metadata.orientation,
    frames,
    profile: metadata.icc,
  };
}

/** Encoder settings; see the report on the media module and `npm run bench:media` for the measurements behind them. */
export const ENCODING = {
  avif: { quality: 60, effort: 3, chromaSubsampling: '4:4:4' },
  jpeg: { quality: 82, mozjpeg: true, chromaSubsampling: '4:4:4' },
  /** Pixel art: hard edges between flat colours ring at the quality photographs need. */
  pixelArt: {
    avif: { quality: 80, effort: 3, chromaSubsampling: '4:4:4' },
    jpeg: { quality: 92, mozjpeg: true, chromaSubsampling: '4:4:4' },
  },
  /**
   * Animations: lossy like the stills; pixel art losslessly, where a GIF's few flat colours compress
   * well and lossy WebP (always 4:2:0) would smear them. A small clip of a film or a photo would cost
   * ten times the bytes and four times the time losslessly: it is no pixel art (isFlat).
   */
  animated: { quality: 80, effort: 4 },
  animatedPixelArt: { lossless: true, effort: 4 },
  /**
   * The renditions sent to other servers (federation), which take only JPEG, PNG and GIF. Pixel art as a
   * lossless PNG: no palette (libimagequant would move colours), and no adaptive filtering (no gain on
   * flat colours, some cost). An animation as a GIF: dithered within its 256 colours, as a clip of a film
   * or a photo needs; pixel art undithered, keeping its exact colours when it has at most 256. Both at the
   * least effort (libimagequant's fastest palette): bench:media's clip, 480 px × 90 frames, in 4.9 s rather
   * than 17.1 s at libvips' default (7), 7.5 MB rather than 7.2; pixel art 1,056 px × 24 frames in a third of
   * the time, to the same bytes.
   */
  png: { compressionLevel: 9, adaptiveFiltering: false, palette: false },
  gif: { effort: 1, dither: 1 },
  gifPixelArt: { effort: 1, dither: 0 },
} as const satisfies {
  avif: AvifOptions;
  jpeg: JpegOptions;
  pixelArt: { avif: AvifOptions; jpeg: JpegOptions };
  animated: WebpOptions;
  animatedPixelArt: WebpOptions;
  png: PngOptions;
  gif: GifOptions;
  gifPixelArt: GifOptions;
};

/**
 * The animated GIF sent to other servers: at most `maxWidth` wide (pixel art: as wide as its widest animated
 * variant, whose flat colours keep it small), and at most `maxBytes`, else 320 px wide, else none (its JPEG
 * first frame goes instead). Mastodon takes pictures up to 16 MB (10 MB before 4.2) and plays an animated GIF
 * as a looping MP4 in a column about 550 px wide; Pixelfed takes up to 15 MB by default (MAX_PHOTO_SIZE). A GIF
 * costs far more than a WebP to write and to send: bench:media's clip of 90 frames weighs 11 MB as a GIF
 * 640 px wide, where its WebP of the same width weighs a tenth of that.
 */
export const FEDERATED_GIF = { maxWidth: 480, maxBytes: 8 * 1024 * 1024 } as const;

export interface EncodedVariant extends Omit<MediaVariant, 'file' | 'bytes'> {
  data: Buffer;
}

export interface ProcessedImage {
  /**
   * "View original" and Download: the uploaded file itself, less its personal metadata (see
   * media.metadata.ts); `removed` says what was taken out. Only when its structure cannot be followed
   * is it re-encoded, losslessly as PNG with its colour profile (`removed` then says so).
   */
  original: { data: Buffer; ext: DetectedFormat['ext']; removed: string[] };
  /** The size that `<img>` should reserve: the original's for posts, the largest square for avatars. */
  width: number;
  height: number;
  placeholder: string;
  /** A BlurHash for the Mastodon API (posts' pictures; null for an avatar). */
  blurhash: string | null;
  variants: EncodedVariant[];
  /** Pixel art, scaled with nearest-neighbour. */
  pixelated: boolean;
  /** An animation, with animated WebP variants besides the still first frame. */
  animated: boolean;
}

/**
 * A post picture small enough that screens will show it larger than it is: pixel art if its colours
 * are also flat (isFlat). A small photograph or painting is not, and is scaled as any other picture.
 */
export const mayBePixelArt = (purpose: MediaPurpose, width: number, height: number) =>
  purpose === 'post' && Math.max(width, height) < MEDIA_LIMITS.pixelArtMaxSide;

/**
 * The longest side pixel art is scaled up to: where `url` (1080 px) asks for it. Larger screens scale
 * it further themselves, crisply, under `image-rendering: pixelated`.
 */
const PIXEL_ART_LARGEST = 1080;

/**
 * Widths (posts) or square sides (avatars) to produce: the standard ones, never above the original.
 * Pixel art (`pixelated`) is never scaled down (nearest-neighbour would drop its pixels) but up by
 * whole multiples, the one nearest below each standard width, its longer side at most 1080 px.
 */
export function variantSizes(purpose: MediaPurpose, width: number, height: number, pixelated: boolean): number[] {
  if (pixelated) {
    const most = Math.max(1, Math.floor(PIXEL_ART_LARGEST / Math.max(width, height)));
    const multiple = (w: number) => Math.min(most, Math.max(1, Math.floor(w / width)));
    const scales = new Set([1, ...MEDIA_LIMITS.postWidths.map(multiple)]);
    return [...scales].sort((a, b) => a - b).map((scale) => width * scale);
  }
  const standard: readonly number[] = purpose === 'avatar' ? MEDIA_LIMITS.avatarSizes : MEDIA_LIMITS.postWidths;
  const limit = purpose === 'avatar' ? Math.min(width, height) : width;
  const sizes = standard.filter((size) => size < limit);
  const largest = Math.min(limit, standard[standard.length - 1]!);
  if (!sizes.includes(largest)) sizes.push(largest);
  return sizes;
}

/**
 * Widths of the animated variants: the still ones up to MEDIA_LIMITS.animatedMaxWidth, and only those
 * whose frames together stay within the animation pixel limit (always the smallest).
 */
export function animatedSizes(sizes: number[], width: number, height: number, frames: number): number[] {
  const fits = (size: number) =>
    size <= MEDIA_LIMITS.animatedMaxWidth &&
    size * Math.round((height * size) / width) * frames <= MEDIA_LIMITS.maxAnimationPixels;
  const chosen = sizes.filter(fits);
  return chosen.length > 0 ? chosen : sizes.slice(0, 1);
}

interface RawImage {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

const kernelFor = (pixelated: boolean): keyof KernelEnum => (pixelated ? 'nearest' : 'lanczos3');

/**
 * The first resize of a decode: an avatar's square crop, a post's largest width, none for a small
 * picture (mayBePixelArt: pixel art is never scaled down, and a small photo's largest width is its own).
 */
function sizeForDecode(pipeline: Sharp, purpose: MediaPurpose, largest: number, small: boolean): Sharp {
  if (purpose === 'avatar')
    return pipeline.resize(largest, largest, { fit: 'cover', position: sharp.strategy.attention });
  if (small) return pipeline;
  return pipeline.resize({ width: largest, withoutEnlargement: true });
}

/**
 * Decodes the picture once (the first frame of an animation), applies its EXIF orientation, converts
 * its colours to sRGB from its embedded profile, and scales it to the largest size needed.
 */
async function decode(data: Buffer, purpose: MediaPurpose, largest: number, small: boolean): Promise<RawImage> {
  const pipeline = sizeForDecode(sharp(data, inputOptions).rotate(), purpose, largest, small);
  const { data: pixels, info } = await pipeline
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels as RawImage['info']['channels'];
  return { data: pixels, info: { width: info.width, height: info.height, channels } };
}

interface RawP3 {
  data: Uint16Array;
  info: { width: number; height: number; channels: 3 | 4 };
}

/**
 * The same decode into 16-bit Display P3, for a wide-gamut picture: undefined when none of its
 * colours lies beyond sRGB (at least one pixel in 10,000), since its P3 variants would add nothing.
 */
async function decodeP3(data: Buffer, largest: number, small: boolean): Promise<RawP3 | undefined> {
  const pipeline = sizeForDecode(sharp(data, inputOptions).rotate(), 'post', largest, small);
  const { data: bytes, info } = await toP3(pipeline).toBuffer({ resolveWithObject: true });
  const pixels = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  const beyond = countBeyondSrgb(pixels, info.channels);
  if (beyond < Math.max(1, (info.width * info.height) / 10_000)) return undefined;
  return { data: pixels, info: { width: info.width, height: info.height, channels: info.channels as 3 | 4 } };
}

/**
 * The share of pixels equal to their left neighbour (every channel) from which a picture is of flat
 * colours, as pixel art and drawings are; a photograph, a painting or a dithered GIF of a film has few.
 * Measured on the decoded first frame, pixel art and drawings 50-100 %: the fixtures pixel-art.png
 * 80.0 %, animated.gif, oriented-p3-gps.jpg and private.gif 100 %, art.png 99.2 %, art.avif 93.8 %, the
 * lossy art.webp 69.2 %; pixel-art.png scaled × 10 and saved as JPEG 74.8 %, a sprite half in 1-pixel
 * checkerboard dither 50.0 %. Photo-like pictures 0-11 %: the noisy fixtures private.png, .webp and
 * .avif 0.0 %; a 400 × 300 picture of Gaussian noise (σ 40) 0.0 % as PNG and as JPEG, 3.2 % blurred like
 * a painting, 11.0 % with σ 4 at JPEG quality 92; two photographs of a circuit board, 400 and 720 px
 * wide, 1.3-8.9 %. Half sits in the gap. What it cannot tell: an almost noiseless smooth gradient saved
 * as JPEG (68-88 % at quality 82, a clear sky could be one) is drawn crisp, as pixel art.
 */
const FLAT_SHARE = 0.5;

/** Flat colour (FLAT_SHARE), as pixel art is: many pixels equal to their left neighbour. */
function isFlat({ data, info }: RawImage): boolean {
  const { width, height, channels } = info;
  let same = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 1; x < width; x += 1) {
      const at = (y * width + x) * channels;
      let equal = true;
      for (let c = 0; c < channels && equal; c += 1) equal = data[at + c] === data[at - channels + c];
      if (equal) same += 1;
    }
  }
  return same >= (width - 1) * height * FLAT_SHARE;
}

function isOpaque({ data, info }: RawImage): boolean {
  if (info.channels !== 4) return true;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

/** The largest side of the copy a BlurHash is computed from: its 4x3 components need no more (under 1 ms to encode). */
const BLURHASH_SIDE = 32;

/**
 * The placeholders of a picture, from one copy at most 100 pixels on a side: its ThumbHash (our pages), and for a
 * post's picture a BlurHash of 4x3 components (the Mastodon client API's `blurhash`, issue 45: Mastodon's apps draw
 * it while the picture loads), from that copy made at most 32 pixels on a side.
 */
async function placeholders(
  image: RawImage,
  withBlurHash: boolean,
): Promise<{ thumbHash: string; blurHash: string | null }> {
  const small = await sharp(image.data, { raw: image.info })
    .resize(100, 100, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const thumbHash = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
  if (!withBlurHash) return { thumbHash, blurHash: null };
  const shrunk = boxShrink(small.data, small.info.width, small.info.height, BLURHASH_SIDE);
  return { thumbHash, blurHash: encodeBlurHash(shrunk.data, shrunk.width, shrunk.height, 4, 3) };
}

/**
 * RGBA pixels shrunk to at most `side` on a side by averaging whole boxes of pixels (the copy is 100 pixels at most:
 * done here, in well under a millisecond, rather than by another trip through sharp's thread pool).
 */
function boxShrink(rgba: Buffer, width: number, height: number, side: number) {
  const step = Math.max(1, Math.ceil(Math.max(width, height) / side));
  const w = Math.ceil(width / step);
  const h = Math.ceil(height / step);
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const sums = [0, 0, 0, 0];
      let count = 0;
      for (let sy = y * step; sy < Math.min(height, (y + 1) * step); sy += 1) {
        for (let sx = x * step; sx < Math.min(width, (x + 1) * step); sx += 1) {
          const at = (sy * width + sx) * 4;
          for (let c = 0; c < 4; c += 1) sums[c]! += rgba[at + c]!;
          count += 1;
        }
      }
      for (let c = 0; c < 4; c += 1) data[(y * w + x) * 4 + c] = sums[c]! / count;
    }
  }
  return { data, width: w, height: h };
}

interface SizeSpec {
  purpose: MediaPurpose;
  size: number;
  /** Pixel art: scaled by the exact multiple `size / original.width`, with nearest-neighbour. */
  pixelated: boolean;
  original: { width: number; height: number };
}

/** The resize from the decoded base to one variant's size. */
function resizeTo(pipeline: Sharp, { purpose, size, pixelated, original }: SizeSpec): Sharp {
  if (purpose === 'avatar') return pipeline.resize({ width: size, height: size });
  if (pixelated) {
    const scale = size / original.width;
    return pipeline.resize({ width: size, height: original.height * scale, kernel: 'nearest' });
  }
  return pipeline.resize({ width: size });
}

/** AVIF and a JPEG fallback of one size, sRGB, from the sRGB base. */
async function srgbVariants(base: RawImage, spec: SizeSpec, opaque: boolean): Promise<EncodedVariant[]> {
  const resized = sharp(base.data, { raw: base.info });
  if (opaque && base.info.channels === 4) resized.removeAlpha();
  const { data: pixels, info } = await resizeTo(resized, spec).raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const encoding = spec.pixelated ? ENCODING.pixelArt : ENCODING;
  const avif = await sharp(pixels, raw).avif(encoding.avif).toBuffer();
  // JPEG has no transparency: transparent areas become white, as most viewers show them.
  const jpeg = await sharp(pixels, raw).flatten({ background: '#ffffff' }).jpeg(encoding.jpeg).toBuffer();
  return [
    { width: info.width, height: info.height, format: 'avif', data: avif },
    { width: info.width, height: info.height, format: 'jpeg', data: jpeg },
  ];
}

/**
 * AVIF and JPEG of one size in Display P3 with the P3 profile embedded, from the 16-bit P3 base: sharp
 * takes 16-bit RGB as P3, so attaching the P3 profile converts nothing and nothing is clipped.
 */
async function p3Variants(base: RawP3, spec: SizeSpec, opaque: boolean): Promise<EncodedVariant[]> {
  const resized = sharp(base.data, { raw: base.info });
  if (opaque && base.info.channels === 4) resized.removeAlpha();
  const { data: bytes, info } = await resizeTo(resized, spec)
    .toColourspace('rgb16')
    .raw({ depth: 'ushort' })
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const encoding = spec.pixelated ? ENCODING.pixelArt : ENCODING;
  // toColourspace('srgb') only narrows 16 bits to 8 (no profile conversion); withIccProfile tags P3.
  const p3 = () => sharp(pixels, raw).toColourspace('srgb').withIccProfile('p3');
  const avif = await p3().avif(encoding.avif).toBuffer();
  const jpeg = await p3().flatten({ background: '#ffffff' }).jpeg(encoding.jpeg).toBuffer();
  return [
    { width: info.width, height: info.height, format: 'avif', gamut: 'p3', data: avif },
    { width: info.width, height: info.height, format: 'jpeg', gamut: 'p3', data: jpeg },
  ];
}

/** Every frame at one width, sRGB, delays and looping as uploaded: what an animated variant is encoded from. */
const everyFrame = (data: Buffer, width: number, pixelated: boolean) =>
  sharp(data, { ...inputOptions, animated: true, limitInputPixels: MEDIA_LIMITS.maxAnimationPixels })
    .resize({ width, kernel: kernelFor(pixelated) })
    .toColourspace('srgb');

/** Every frame, at one width, as an animated WebP (delays and looping as uploaded), sRGB. */
async function animatedVariant(data: Buffer, width: number, pixelated: boolean): Promise<EncodedVariant> {
  const { data: webp, info } = await everyFrame(data, width, pixelated)
    .webp(pixelated ? ENCODING.animatedPixelArt : ENCODING.animated)
    .toBuffer({ resolveWithObject: true });
  return { width, height: info.pageHeight ?? info.height, format: 'webp', animated: true, data: webp };
}

/**
 * The rendition of pixel art sent to other servers: a lossless PNG of its widest size (nearest-neighbour, by
 * the same whole multiple as its variants), sRGB, transparent where it is, with no metadata.
 */
async function federatedPng(base: RawImage, spec: SizeSpec, opaque: boolean): Promise<EncodedVariant> {
  const resized = sharp(base.data, { raw: base.info });
  if (opaque && base.info.channels === 4) resized.removeAlpha();
  const { data, info } = await resizeTo(resized, spec).png(ENCODING.png).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, format: 'png', data };
}

/**
 * The widths to try for an animation's GIF, widest first: pixel art's animated widths (whole multiples), else
 * FEDERATED_GIF's width and then the narrowest standard one, never wider than the animation.
 */
function gifWidths(animatedWidths: number[], width: number, pixelated: boolean): number[] {
  if (pixelated) return [...animatedWidths].reverse();
  return [...new Set([FEDERATED_GIF.maxWidth, MEDIA_LIMITS.postWidths[0]].map((most) => Math.min(width, most)))];
}

/**
 * The rendition of an animation sent to other servers: an animated GIF (delays and looping as uploaded) of
 * the first of `widths` whose GIF is within FEDERATED_GIF's bytes; undefined when none is.
 */
async function federatedGif(data: Buffer, widths: number[], pixelated: boolean): Promise<EncodedVariant | undefined> {
  for (const width of widths) {
    const { data: gif, info } = await everyFrame(data, width, pixelated)
      .gif(pixelated ? ENCODING.gifPixelArt : ENCODING.gif)
      .toBuffer({ resolveWithObject: true });
    if (gif.length <= FEDERATED_GIF.maxBytes) {
      return { width, height: info.pageHeight ?? info.height, format: 'gif', animated: true, data: gif };
    }
  }
  return undefined;
}

/**
 * Re-encodes an inspected upload into its served variants: AVIF and a JPEG fallback per size, both
 * 4:4:4 (no chroma loss on art), sRGB, with every piece of metadata (EXIF, GPS, XMP, ICC, comments)
 * left behind; for a post whose colours reach beyond sRGB, the same in Display P3 with its profile;
 * for an animation, animated WebP. For other servers, pixel art's lossless PNG (federatedPng, 22 ms); an
 * animation's GIF costs seconds (federatedGif), so the upload leaves it to a background job
 * (media.renditions.ts) rather than keep the artist waiting. Keeps the original, less its personal metadata.
 * Encodes run one after another so that one upload holds one libuv thread at a time.
 */
export async function processImage(data: Buffer, purpose: MediaPurpose, inspected: Inspected): Promise<ProcessedImage> {
  const small = mayBePixelArt(purpose, inspected.width, inspected.height);
  // An animated WebP turned by EXIF is left still: its frames would need turning one by one.
  const animated = purpose === 'post' && inspected.frames > 1 && (inspected.orientation ?? 1) === 1;
  const largest = variantSizes(purpose, inspected.width, inspected.height, false).at(-1)!;
  const original = { width: inspected.width, height: inspected.height };
  let base: RawImage;
  let p3: RawP3 | undefined;
  try {
    // A small picture is decoded at its own size either way; its pixels then tell pixel art.
    base = await decode(data, purpose, largest, small);
    const wide = purpose === 'post' && inspected.profile !== undefined && (await isWideGamut(inspected.profile));
    if (wide) p3 = await decodeP3(data, largest, small);
  } catch {
    throw new HttpError(422, MEDIA_MESSAGES.damaged);
  }
  const pixelated = small && isFlat(base);
  const sizes = variantSizes(purpose, inspected.width, inspected.height, pixelated);
  const opaque = isOpaque(base);
  const { thumbHash: placeholder, blurHash: blurhash } = await placeholders(base, purpose === 'post');

  const variants: EncodedVariant[] = [];
  for (const size of sizes) {
    const spec = { purpose, size, pixelated, original };
    variants.push(...(await srgbVariants(base, spec, opaque)));
    if (p3) variants.push(...(await p3Variants(p3, spec, opaque)));
  }
  if (animated) {
    try {
      for (const size of animatedSizes(sizes, inspected.width, inspected.height, inspected.frames)) {
        variants.push(await animatedVariant(data, size, pixelated));
      }
    } catch {
      throw new HttpError(422, MEDIA_MESSAGES.damaged);
    }
  } else if (pixelated) {
    variants.push(await federatedPng(base, { purpose, size: sizes.at(-1)!, pixelated, original }, opaque));
  }
  const [width, height] =
    purpose === 'avatar' ? [base.info.width, base.info.height] : [original.width, original.height];
  return {
    original: await keepOriginal(data, inspected),
    width,
    height,
    placeholder,
    blurhash,
    variants,
    pixelated,
    animated,
  };
}

/**
 * The rendition other servers are sent, written from a stored original by the background job
 * (media.renditions.ts): every animation's GIF, and pixel art's PNG for a picture uploaded before uploads wrote
 * it, for the picture's kind (`pixelated`, `animated`, as its row says), from the same sizes as its variants.
 * Undefined when there is none to write: an animation whose
 * original kept one frame (re-encoded as PNG), or whose GIF weighs too much.
 */
export async function federatedRendition(
  data: Buffer,
  kind: { pixelated: boolean; animated: boolean },
): Promise<EncodedVariant | undefined> {
  const inspected = await inspectImage(data);
  const { width, height, frames } = inspected;
  const sizes = variantSizes('post', width, height, kind.pixelated);
  if (kind.animated) {
    if (frames === 1) return undefined;
    const widths = gifWidths(animatedSizes(sizes, width, height, frames), width, kind.pixelated);
    return federatedGif(data, widths, kind.pixelated);
  }
  if (!kind.pixelated) return undefined;
  const base = await decode(data, 'post', sizes.at(-1)!, true);
  const spec = { purpose: 'post' as const, size: sizes.at(-1)!, pixelated: true, original: { width, height } };
  return federatedPng(base, spec, isOpaque(base));
}

/**
 * Whether a file (a stripped original) still carries anything personal, as libvips reads it: EXIF
 * beyond an orientation, XMP, IPTC, text comments.
 */
export async function carriesPrivateMetadata(data: Buffer): Promise<boolean> {
  const metadata = await sharp(data).metadata();
  return (
    (metadata.exif !== undefined && !exifIsOrientationOnly(metadata.exif)) ||
    (metadata.xmp !== undefined && !isBlankXmp(metadata.xmp)) ||
    metadata.iptc !== undefined ||
    (metadata.comments?.length ?? 0) > 0
  );
}

/**
 * The original as uploaded, less its personal metadata (media.metadata.ts), checked by reading it back.
 * A file whose structure cannot be followed, or that still carries metadata after it, is re-encoded:
 * every pixel and the colour profile kept, as lossless PNG (turned upright, since EXIF goes).
 */
async function keepOriginal(data: Buffer, inspected: Inspected): Promise<ProcessedImage['original']> {
  const ext = inspected.format.ext;
  try {
    const stripped = stripMetadata(data, ext, inspected.orientation);
    if (!(await carriesPrivateMetadata(stripped.data))) return { ...stripped, ext };
  } catch {
    // A structure it could not follow (UnreadableStructure), or a result libvips cannot read: below.
  }
  const png = await sharp(data, inputOptions).rotate().keepIccProfile().png({ compressionLevel: 6 }).toBuffer();
  return { data: png, ext: 'png', removed: ['everything but the pixels and the colour profile (re-encoded as PNG)'] };
}
