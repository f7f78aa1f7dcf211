import sharp, { type AvifOptions, type JpegOptions, type Metadata, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { MEDIA_LIMITS, type MediaPurpose } from '@share-arts/contract';
import type { MediaVariant } from '../../db/schema.js';
import { HttpError } from '../../lib/http-error.js';

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
  tooManyPixels: (width: number, height: number) =>
    `The picture is ${width} × ${height} pixels (${Math.round((width * height) / 1e6)} megapixels); ` +
    `pictures can have at most ${MEDIA_LIMITS.maxPixels / 1e6} megapixels.`,
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
  /** After EXIF orientation. */
  width: number;
  height: number;
}

/**
 * Checks an upload from its bytes and header alone (nothing is decoded): a supported format, agreed on
 * by the magic bytes and libvips, within the pixel limit, with no web page code inside.
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
  if (width * height > MEDIA_LIMITS.maxPixels) throw new HttpError(413, MEDIA_MESSAGES.tooManyPixels(width, height));
  if (hasActiveContent(data)) throw new HttpError(422, MEDIA_MESSAGES.activeContent);
  return { format, width: metadata.autoOrient.width, height: metadata.autoOrient.height };
}

/** Encoder settings; see the report on the media module for the measurements behind them. */
export const ENCODING = {
  avif: { quality: 60, effort: 3, chromaSubsampling: '4:4:4' },
  jpeg: { quality: 82, mozjpeg: true, chromaSubsampling: '4:4:4' },
  original: { quality: 95, chromaSubsampling: '4:4:4' },
} as const satisfies { avif: AvifOptions; jpeg: JpegOptions; original: JpegOptions };

export interface EncodedVariant extends Omit<MediaVariant, 'file' | 'bytes'> {
  data: Buffer;
}

export interface ProcessedImage {
  /**
   * "View original": the full picture re-encoded at full resolution, sRGB, with no metadata — the
   * uploaded bytes are never served (they may carry GPS or a polyglot payload).
   */
  original: { data: Buffer; ext: 'jpg' | 'png' };
  /** The size that `<img>` should reserve: the original's for posts, the largest square for avatars. */
  width: number;
  height: number;
  placeholder: string;
  variants: EncodedVariant[];
}

/** Widths (posts) or square sides (avatars) to produce: the standard ones, never above the original. */
export function variantSizes(purpose: MediaPurpose, width: number, height: number): number[] {
  const standard: readonly number[] = purpose === 'avatar' ? MEDIA_LIMITS.avatarSizes : MEDIA_LIMITS.postWidths;
  const limit = purpose === 'avatar' ? Math.min(width, height) : width;
  const sizes = standard.filter((size) => size < limit);
  const largest = Math.min(limit, standard[standard.length - 1]!);
  if (!sizes.includes(largest)) sizes.push(largest);
  return sizes;
}

interface RawImage {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * Decodes the picture once (the first frame of a GIF), applies its EXIF orientation, converts its
 * colours to sRGB from its embedded profile, and scales it to the largest size needed.
 */
async function decode(data: Buffer, purpose: MediaPurpose, largest: number): Promise<RawImage> {
  const pipeline = sharp(data, inputOptions).rotate();
  if (purpose === 'avatar') {
    pipeline.resize(largest, largest, { fit: 'cover', position: sharp.strategy.attention });
  } else {
    pipeline.resize({ width: largest, withoutEnlargement: true });
  }
  const { data: pixels, info } = await pipeline
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels as RawImage['info']['channels'];
  return { data: pixels, info: { width: info.width, height: info.height, channels } };
}

function isOpaque({ data, info }: RawImage): boolean {
  if (info.channels !== 4) return true;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

async function thumbHash(image: RawImage): Promise<string> {
  const { data, info } = await sharp(image.data, { raw: image.info })
    .resize(100, 100, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

/**
 * Re-encodes an inspected upload into its served variants: AVIF and a JPEG fallback per size, both
 * 4:4:4 (no chroma loss on art), sRGB, with every piece of metadata (EXIF, GPS, XMP, ICC, comments)
 * left behind. Encodes run one after another so that one upload holds one libuv thread at a time.
 */
export async function processImage(data: Buffer, purpose: MediaPurpose, inspected: Inspected): Promise<ProcessedImage> {
  const sizes = variantSizes(purpose, inspected.width, inspected.height);
  let base: RawImage;
  try {
    base = await decode(data, purpose, sizes[sizes.length - 1]!);
  } catch {
    throw new HttpError(422, MEDIA_MESSAGES.damaged);
  }
  const opaque = isOpaque(base);
  const placeholder = await thumbHash(base);

  const variants: EncodedVariant[] = [];
  for (const size of sizes) {
    const resized = sharp(base.data, { raw: base.info });
    if (opaque && base.info.channels === 4) resized.removeAlpha();
    resized.resize(purpose === 'avatar' ? { width: size, height: size } : { width: size });
    const { data: pixels, info } = await resized.raw().toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const avif = await sharp(pixels, raw).avif(ENCODING.avif).toBuffer();
    // JPEG has no transparency: transparent areas become white, as most viewers show them.
    const jpeg = await sharp(pixels, raw).flatten({ background: '#ffffff' }).jpeg(ENCODING.jpeg).toBuffer();
    variants.push({ width: info.width, height: info.height, format: 'avif', data: avif });
    variants.push({ width: info.width, height: info.height, format: 'jpeg', data: jpeg });
  }
  const [width, height] =
    purpose === 'avatar' ? [base.info.width, base.info.height] : [inspected.width, inspected.height];
  return { original: await encodeOriginal(data, inspected, opaque), width, height, placeholder, variants };
}

/**
 * The full-resolution picture without its metadata: lossless PNG for PNG and GIF uploads and for
 * anything transparent, otherwise JPEG at quality 95 with full chroma.
 */
async function encodeOriginal(
  data: Buffer,
  inspected: Inspected,
  opaque: boolean,
): Promise<ProcessedImage['original']> {
  const pipeline = sharp(data, inputOptions).rotate().toColourspace('srgb');
  const lossless = !opaque || inspected.format.ext === 'png' || inspected.format.ext === 'gif';
  if (lossless) return { data: await pipeline.png({ compressionLevel: 6 }).toBuffer(), ext: 'png' };
  return { data: await pipeline.jpeg(ENCODING.original).toBuffer(), ext: 'jpg' };
}
