import type { Picture, PictureSource } from '@share-arts/contract';
import type { MediaVariant } from '../../db/schema.js';
import type { MediaRow } from './media.sql.js';
import { downloadName, extOf, TYPE_OF_EXT } from './media.download.js';
import { mediaUrl } from './media.storage.js';

/** The width `url` aims for: sharp on most screens at feed size, without the weight of the 2048 one. */
const DEFAULT_WIDTH = 1080;

/** The formats our pages show (PNG and GIF are only for other servers: federatedOf). */
type ShownFormat = 'avif' | 'jpeg' | 'webp';

const MIME: Record<ShownFormat, PictureSource['type']> = {
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** What `<source media>` says of each kind of variant: who may be sent it. */
export const SOURCE_MEDIA = {
  animated: '(prefers-reduced-motion: no-preference)',
  p3: '(color-gamut: p3)',
} as const;

const byWidth = (a: MediaVariant, b: MediaVariant) => a.width - b.width;
/** An sRGB still: what every screen can show, and what a name-one-file place may use. */
const isPlainStill = (variant: MediaVariant) => !variant.animated && variant.gamut === undefined;

/**
 * The one rule for which JPEG file to show where one file is named (a picture's `url`, an avatar, a
 * notification's thumbnail): the narrowest sRGB still JPEG variant at least `width` pixels wide, else
 * the widest there is (a picture smaller than that). Undefined for a row without JPEG variants.
 */
export function jpegFor(variants: readonly MediaVariant[], width: number): MediaVariant | undefined {
  const jpegs = variants.filter((variant) => variant.format === 'jpeg' && isPlainStill(variant)).sort(byWidth);
  return jpegs.find((variant) => variant.width >= width) ?? jpegs.at(-1);
}

/**
 * The `<picture>` sources in the order the browser must consider them (it takes the first that fits):
 * the animation, for those who do not ask for reduced motion; Display P3 stills, for wide-gamut
 * screens (AVIF, then JPEG for browsers without AVIF); then the sRGB AVIF and JPEG everyone can show.
 */
function sourcesOf(variants: readonly MediaVariant[]): PictureSource[] {
  const groups: { pick: (variant: MediaVariant) => boolean; format: ShownFormat; media?: string }[] = [
    { pick: (variant) => variant.animated === true, format: 'webp', media: SOURCE_MEDIA.animated },
    { pick: (variant) => !variant.animated && variant.gamut === 'p3', format: 'avif', media: SOURCE_MEDIA.p3 },
    { pick: (variant) => !variant.animated && variant.gamut === 'p3', format: 'jpeg', media: SOURCE_MEDIA.p3 },
    { pick: isPlainStill, format: 'avif' },
    { pick: isPlainStill, format: 'jpeg' },
  ];
  const sources: PictureSource[] = [];
  for (const { pick, format, media } of groups) {
    const chosen = variants.filter((variant) => variant.format === format && pick(variant)).sort(byWidth);
    if (chosen.length === 0) continue;
    const srcset = chosen.map((variant) => `${mediaUrl(variant.file)} ${variant.width}w`).join(', ');
    sources.push(media ? { type: MIME[format], srcset, media } : { type: MIME[format], srcset });
  }
  return sources;
}

/**
 * The rendition other servers are sent in place of a JPEG, when the pipeline wrote one: pixel art's lossless PNG
 * or an animation's animated GIF (one per picture at most).
 */
function federatedOf(variants: readonly MediaVariant[]): Picture['federated'] {
  const chosen = variants.find((variant) => variant.format === 'png' || variant.format === 'gif');
  if (!chosen) return undefined;
  const type = chosen.format === 'png' ? 'image/png' : 'image/gif';
  return { url: mediaUrl(chosen.file), type, width: chosen.width, height: chosen.height };
}

/**
 * A media row as it leaves the server: enough for `<picture>` with srcset/sizes, its aspect ratio and
 * placeholder, how to draw it (pixel art, animation), what Download will save, and what other servers are sent.
 */
export function toPicture(row: MediaRow): Picture {
  // Every picture at least DEFAULT_WIDTH wide has a variant of exactly that width (MEDIA_LIMITS.postWidths).
  const fallback = jpegFor(row.variants, DEFAULT_WIDTH);
  const federated = federatedOf(row.variants);
  return {
    _id: row.id,
    url: fallback ? mediaUrl(fallback.file) : mediaUrl(row.originalFile),
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    alt: row.alt,
    originalUrl: mediaUrl(row.originalFile),
    sources: sourcesOf(row.variants),
    pixelated: row.pixelated ?? false,
    animated: row.animated ?? false,
    originalType: TYPE_OF_EXT[extOf(row.originalFile)] ?? row.originalMime,
    originalBytes: row.originalBytes,
    originalName: downloadName(row),
    ...(federated ? { federated } : {}),
    ...(row.blurhash ? { blurhash: row.blurhash } : {}),
    ...(row.focusX != null && row.focusY != null ? { focus: { x: row.focusX, y: row.focusY } } : {}),
  };
}

/** The avatar file shown in lists and cards: sharp at 96 CSS pixels on a 2x screen. */
export function avatarUrl(picture: MediaRow): string {
  const chosen = jpegFor(picture.variants, 192);
  return chosen ? mediaUrl(chosen.file) : mediaUrl(picture.originalFile);
}
